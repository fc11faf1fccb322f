import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ContractProblem, RequestName, SettingsView } from '../../shared';
import { configureProxy } from '../../electron/engine/api/proxy-agents';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import { engineLogPath } from '../../electron/engine/log/engine-log';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine, proxyPasswordFile } from '../../electron/engine/runtime/open-engine';
import { profilePaths } from '../../electron/engine/profile/profile';
import { tempDir } from '../engine/cache/cache-fixtures';
import { startTestService, type TestService } from '../../harness/local-service';
import { startRecordingProxy, type RecordingProxy } from '../../harness/recording-proxy';

/**
 * The manual proxy through the contract (settings.update / settings.get): used at once with its credentials, its
 * password write-only (never in a view or the engine log), kept in a 0600 file like the token, applied at the next
 * opening too.
 */
const PASSWORD = 'manual-proxy-password-7';
const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'all_proxy', 'no_proxy'];

let service: TestService;
let proxy: RecordingProxy;
let profile: string;
let engine: Engine | null = null;
let endpoint: ReturnType<typeof createContractEndpoint>;
const saved = new Map<string, string | undefined>();

beforeAll(async () => {
  service = await startTestService();
  service.ctx.origin = `http://designs.test:${service.port}`;
  proxy = await startRecordingProxy({ hosts: { 'designs.test': '127.0.0.1' }, credentials: { username: 'ana', password: PASSWORD } });
});
afterAll(async () => {
  await proxy.stop();
  await service.stop();
});
beforeEach(async () => {
  for (const name of PROXY_VARIABLES) {
    saved.set(name, process.env[name]);
    delete process.env[name];
  }
  profile = tempDir('contract-proxy');
  await open();
});
afterEach(async () => {
  // The endpoint first: its timers (events it batches) stop before the engine under it closes.
  await endpoint?.close();
  await engine?.close();
  engine = null;
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  configureProxy({ mode: 'system' });
  rmSync(profile, { recursive: true, force: true });
});

async function open(): Promise<void> {
  engine = await openEngine({
    profileDir: profile, userAgent: 'design-sync-test', serviceUrl: `http://designs.test:${service.port}`,
    tokenStore: () => new MemoryTokenStore(null),
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
  if (outcome.ok) throw new Error(`${name} was expected to be refused`);
  return outcome.problem;
}

describe('the manual proxy in Settings', () => {
  it('is used at once with its user name and password, which no view shows and the log never holds', async () => {
    const view = await ok<SettingsView>('settings.update', { proxy: { mode: 'manual', host: '127.0.0.1', port: proxy.port, username: 'ana', password: PASSWORD } });
    expect(view.proxy).toEqual({
      mode: 'manual', host: '127.0.0.1', port: proxy.port, username: 'ana', passwordSet: true,
      inUse: proxy.shown, inUseFrom: 'Settings → Proxy', problem: null,
    });
    const before = proxy.records.length;
    await engine!.connection.client().listDesigns();
    const asked = proxy.records.slice(before);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((record) => record.refusedWith === null && record.proxyAuthorization === `Basic ${Buffer.from(`ana:${PASSWORD}`).toString('base64')}`)).toBe(true);

    expect(JSON.stringify(await ok<SettingsView>('settings.get', {}))).not.toContain(PASSWORD);
    const file = proxyPasswordFile(profilePaths(profile));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain(PASSWORD);

    // Opened again, the profile uses the same proxy and password.
    await endpoint.close();
    await engine!.close();
    await open();
    expect((await ok<SettingsView>('settings.get', {})).proxy).toMatchObject({ mode: 'manual', passwordSet: true, inUse: proxy.shown });
    const again = proxy.records.length;
    await engine!.connection.client().listDesigns();
    expect(proxy.records.slice(again).every((record) => record.refusedWith === null)).toBe(true);
    expect(readFileSync(engineLogPath(profile), 'utf8')).not.toContain(PASSWORD);
  });

  it('names the proxy when it does not accept the password, and goes back to direct with None', async () => {
    await ok('settings.update', { proxy: { mode: 'manual', host: '127.0.0.1', port: proxy.port, username: 'ana', password: 'not-the-one' } });
    await expect(engine!.connection.client().listDesigns()).rejects.toThrow(`The proxy ${proxy.shown} did not accept the user name and password; check the proxy in Settings → Proxy`);

    const none = await ok<SettingsView>('settings.update', { proxy: { mode: 'none' } });
    expect(none.proxy).toMatchObject({ mode: 'none', inUse: null, host: '127.0.0.1', username: 'ana', passwordSet: true });
    const removed = await ok<SettingsView>('settings.update', { proxy: { password: '' } });
    expect(removed.proxy.passwordSet).toBe(false);
    expect(existsSync(proxyPasswordFile(profilePaths(profile)))).toBe(false);
  });

  it('refuses a manual proxy without a host, or with an address that is not one, naming the field', async () => {
    expect(await problem('settings.update', { proxy: { mode: 'manual', host: '' } })).toMatchObject({ kind: 'validation', fieldErrors: { proxy: ['A manual proxy needs its host (a name or an address).'] } });
    expect((await problem('settings.update', { proxy: { mode: 'manual', host: 'proxy.example/path', port: 3128 } })).message).toMatch(/proxy\.example.*path/);
    expect((await problem('settings.update', { proxy: { mode: 'manual', host: 'proxy.example', port: 70000 } })).kind).toBe('validation');
    expect((await ok<SettingsView>('settings.get', {})).proxy.mode).toBe('system');
  });
});
