import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAtLoginDiagnostics } from '../../electron/cli/start-at-login-diagnostics';
import { profilePaths } from '../../electron/engine/profile/profile';
import { autostartEntryText, execProgram, XdgAutostart, type AutostartLaunch } from '../../electron/engine/settings/xdg-autostart';
import { runCliCapturing } from '../support/cli';
import { tempDir } from './cache/cache-fixtures';

/** `design-sync status --diagnostics` says whether the desktop app starts at login, and what it would start. */
let profile: string;
let configHome: string;
const xdg = process.env.XDG_CONFIG_HOME;

beforeEach(() => {
  profile = tempDir('cli-login-profile');
  configHome = tempDir('cli-login-config');
  process.env.XDG_CONFIG_HOME = configHome;
});

afterEach(() => {
  if (xdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = xdg;
  rmSync(profile, { recursive: true, force: true });
  rmSync(configHome, { recursive: true, force: true });
});

const entry = () => join(configHome, 'autostart', 'design-sync.desktop');
const launch = (executable: string, profileDir: string): AutostartLaunch => ({ executable, args: ['--hidden'], profileDir });
const diagnostics = async () => {
  const run = await runCliCapturing(profile, ['status', '--diagnostics']);
  expect(run.code).toBe(0);
  return run.out;
};

describe.skipIf(process.platform === 'darwin' || process.platform === 'win32')('design-sync status --diagnostics on Linux: start at login', () => {
  it('says off when there is no autostart entry, naming where it would be', async () => {
    expect(await diagnostics()).toContain(`Start at login: off (no ${entry()})\n`);
  });

  it('says on, with the command the entry starts and that it is this profile', async () => {
    new XdgAutostart(launch(process.execPath, profile)).enable();
    const out = await diagnostics();
    expect(out).toContain(`Start at login: on (${entry()}: ${process.execPath} --hidden, this profile)\n`);
    expect(out).not.toContain('is not there any more');
  });

  it('names another profile\'s entry, and says when the program it starts is gone (an AppImage moved)', async () => {
    new XdgAutostart(launch('/home/ada/Downloads/design-sync.AppImage', '/home/ada/.config/design-sync/profile')).enable();
    const out = await diagnostics();
    expect(out).toContain(`Start at login: on (${entry()}: /home/ada/Downloads/design-sync.AppImage --hidden, the profile /home/ada/.config/design-sync/profile)\n`);
    expect(out).toContain('  /home/ada/Downloads/design-sync.AppImage is not there any more (moved?): open design-sync from where it is now and the entry is written again\n');
  });

  it('says off when the desktop\'s own settings turned the entry off', async () => {
    mkdirSync(join(configHome, 'autostart'));
    writeFileSync(entry(), autostartEntryText(launch(process.execPath, profile)).replace('X-GNOME-Autostart-enabled=true', 'X-GNOME-Autostart-enabled=false'));
    expect(await diagnostics()).toContain(`Start at login: off (${entry()} is turned off in the desktop's settings)\n`);
  });
});

describe('start at login in diagnostics on macOS and Windows', () => {
  const system = (platform: NodeJS.Platform) => ({ platform, env: {}, home: '/nowhere' });

  it('says what the desktop app last set for this profile, and where the system keeps it', () => {
    expect(startAtLoginDiagnostics(profilePaths(profile), system('darwin'))).toEqual(['Start at login: never set in this profile (the desktop app keeps it in the macOS login items; see its Settings)']);
    writeFileSync(join(profile, 'settings.json'), JSON.stringify({ startAtLogin: true }));
    expect(startAtLoginDiagnostics(profilePaths(profile), system('darwin'))).toEqual(['Start at login: on, as the desktop app last saw it for this profile (kept in the macOS login items)']);
    writeFileSync(join(profile, 'settings.json'), JSON.stringify({ startAtLogin: false }));
    expect(startAtLoginDiagnostics(profilePaths(profile), system('win32'))).toEqual(['Start at login: off, as the desktop app last saw it for this profile (kept in the Windows startup apps)']);
  });

  it('says unknown, with why, when the profile\'s settings cannot be read', () => {
    writeFileSync(join(profile, 'settings.json'), '{ broken');
    expect(startAtLoginDiagnostics(profilePaths(profile), system('darwin'))[0]).toMatch(/^Start at login: unknown \(The settings file .*settings\.json cannot be read: not valid JSON/);
  });
});

describe('the program an autostart entry starts', () => {
  it('is its Exec key\'s first argument, unquoted as the Desktop Entry Specification says', () => {
    expect(execProgram('/opt/design-sync/design-sync --hidden')).toBe('/opt/design-sync/design-sync');
    expect(execProgram('"/home/ada/My Apps/design-sync.AppImage" --hidden')).toBe('/home/ada/My Apps/design-sync.AppImage');
    expect(execProgram('"/home/ada/\\\\"odd\\\\" \\\\$x" --hidden')).toBe('/home/ada/"odd" $x');
    expect(execProgram('/home/ada/100%% --hidden')).toBe('/home/ada/100%');
    expect(execProgram('"unterminated')).toBeNull();
    expect(execProgram('')).toBeNull();
  });
});
