import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContractProblem, RequestName, SettingsView } from '../../shared';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore, type SettingsStore } from '../../electron/engine/settings/settings-store';
import { loginLaunch } from '../../electron/shell/login-items/launch-command';
import { xdgLoginItems } from '../../electron/shell/login-items/login-items';
import { tempDir } from '../engine/cache/cache-fixtures';

// The code under test needs none of Electron; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

/**
 * Starting at login through the contract (settings.get / settings.update), with the desktop app's login item as the
 * Electron shell gives it (the XDG autostart entry, in a temporary config home) and without one, as `design-sync ui`.
 */
let profile: string;
let configHome: string;
let settings: SettingsStore;
let engine: Engine | null = null;
let endpoint: ReturnType<typeof createContractEndpoint>;

async function open(withLoginItem: boolean): Promise<void> {
  settings = memorySettingsStore();
  const launch = loginLaunch({ execPath: '/opt/design-sync/design-sync', isPackaged: true, appPath: '', appImage: '/home/ada/Apps/design-sync.AppImage', profileArgument: null, profileDir: profile });
  engine = await openEngine({
    profileDir: profile, userAgent: 'design-sync-test', tokenStore: () => new MemoryTokenStore(null), settingsStore: () => settings,
    ...(withLoginItem ? { startAtLogin: xdgLoginItems(launch, { XDG_CONFIG_HOME: configHome }) } : {}),
  });
  endpoint = createContractEndpoint(engine);
}

async function ok<T>(name: RequestName, input: unknown): Promise<T> {
  const outcome = await endpoint.handle(name, input);
  if (!outcome.ok) throw new Error(`${name}: ${JSON.stringify(outcome.problem)}`);
  return outcome.value as T;
}

async function problem(name: RequestName, input: unknown): Promise<ContractProblem> {
  const outcome = await endpoint.handle(name, input);
  if (outcome.ok) throw new Error(`${name}: expected a problem`);
  return outcome.problem;
}

const entry = () => join(configHome, 'autostart', 'design-sync.desktop');

beforeEach(() => {
  profile = tempDir('start-at-login-profile');
  configHome = tempDir('start-at-login-config');
});

afterEach(async () => {
  await endpoint?.close();
  await engine?.close();
  engine = null;
  rmSync(profile, { recursive: true, force: true });
  rmSync(configHome, { recursive: true, force: true });
});

describe('start at login, in the desktop app', () => {
  it('is offered, off and not yet asked on a new profile', async () => {
    await open(true);
    expect((await ok<SettingsView>('settings.get', {})).startAtLogin).toEqual({ available: true, on: false, asked: false, unavailableReason: null });
  });

  it('turned on writes the autostart entry, answers the question for good, and is remembered in the profile; turned off removes it', async () => {
    await open(true);
    const on = await ok<SettingsView>('settings.update', { startAtLogin: true });
    expect(on.startAtLogin).toEqual({ available: true, on: true, asked: true, unavailableReason: null });
    expect(readFileSync(entry(), 'utf8')).toContain('Exec=/home/ada/Apps/design-sync.AppImage --hidden\n');
    expect(settings.read()).toMatchObject({ startAtLogin: true, startAtLoginAsked: true });
    expect((await ok<SettingsView>('settings.get', {})).startAtLogin.on).toBe(true);

    const off = await ok<SettingsView>('settings.update', { startAtLogin: false });
    expect(off.startAtLogin).toEqual({ available: true, on: false, asked: true, unavailableReason: null });
    expect(existsSync(entry())).toBe(false);
    expect(settings.read()).toMatchObject({ startAtLogin: false, startAtLoginAsked: true });
  });

  it('"Not now" answers the question without registering anything', async () => {
    await open(true);
    const view = await ok<SettingsView>('settings.update', { startAtLoginAsked: true });
    expect(view.startAtLogin).toEqual({ available: true, on: false, asked: true, unavailableReason: null });
    expect(existsSync(entry())).toBe(false);
    expect(settings.read().startAtLogin).toBeUndefined();
  });

  it('says why when the entry cannot be written, and records nothing', async () => {
    await open(true);
    writeFileSync(join(configHome, 'autostart'), 'a file where the folder should be');
    const refused = await problem('settings.update', { startAtLogin: true });
    expect(refused.kind).toBe('internal');
    expect(refused.message).toMatch(/^design-sync could not be set to start at login: .*autostart/);
    expect(settings.read()).not.toHaveProperty('startAtLogin');
    expect((await ok<SettingsView>('settings.get', {})).startAtLogin).toMatchObject({ on: false, asked: false });
  });

  it('refuses anything but a yes or no, naming the field, and changes nothing', async () => {
    await open(true);
    for (const input of [{ startAtLogin: 'yes' }, { startAtLoginAsked: false }, { startAtLogin: true, startAtLater: true }]) {
      const refused = await problem('settings.update', input);
      expect(refused.kind).toBe('validation');
    }
    expect((await problem('settings.update', { startAtLogin: 'yes' })) ).toMatchObject({ fieldErrors: { startAtLogin: expect.any(Array) } });
    expect(existsSync(entry())).toBe(false);
    expect(settings.read()).not.toHaveProperty('startAtLoginAsked');
  });
});

describe('start at login, where the window runs in a browser (design-sync ui)', () => {
  it('is shown as the desktop app\'s setting, with why it cannot be turned on here', async () => {
    await open(false);
    const view = (await ok<SettingsView>('settings.get', {})).startAtLogin;
    expect(view).toMatchObject({ available: false, on: false, asked: false });
    expect(view.unavailableReason).toMatch(/setting of the design-sync desktop app.*browser.*cannot start itself when you log in/);
  });

  it('refuses to turn it on, naming the field, and writes no entry', async () => {
    await open(false);
    const refused = await problem('settings.update', { startAtLogin: true });
    expect(refused).toMatchObject({ kind: 'validation', fieldErrors: { startAtLogin: [expect.stringMatching(/desktop app/)] } });
    expect(existsSync(entry())).toBe(false);
    expect(settings.read()).not.toHaveProperty('startAtLogin');
  });
});
