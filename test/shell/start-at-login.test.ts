import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  autostartDirectory, autostartEntryText, desktopEntryKeys, execArgument, readAutostartEntry, UnwritableLaunchError, XdgAutostart, type AutostartLaunch,
} from '../../electron/engine/settings/xdg-autostart';
import { parseShellArguments } from '../../electron/shell/main/shell-arguments';
import { HIDDEN_ARGUMENT, loginLaunch } from '../../electron/shell/login-items/launch-command';
import { electronLoginItems, loginItemRecord, loginItemsFor, xdgLoginItems, type LoginItemApp } from '../../electron/shell/login-items/login-items';
import { trayMenuTemplate, type TrayMenuActions } from '../../electron/shell/tray/tray-menu';
import { trayView } from '../../electron/shell/tray/tray-state';
import { tempDir } from '../engine/cache/cache-fixtures';
import { accountView, syncView } from './shell-fixtures';

// Electron is given to the login items as an object (its `app`); loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

const PROFILE = '/home/ada/.config/design-sync/profile';

const appImage = (path: string): AutostartLaunch => loginLaunch({
  execPath: '/tmp/.mount_design123/design-sync', isPackaged: true, appPath: '/tmp/.mount_design123/resources/app.asar', appImage: path, profileArgument: null, profileDir: PROFILE,
});

let configHome: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  configHome = tempDir('xdg-config');
  env = { XDG_CONFIG_HOME: configHome };
});
afterEach(() => rmSync(configHome, { recursive: true, force: true }));

describe('how the app is started at login', () => {
  it('starts an AppImage by its own file, hidden, not by the executable inside its temporary mount', () => {
    expect(appImage('/home/ada/Apps/design-sync-1.0.0.AppImage')).toEqual({ executable: '/home/ada/Apps/design-sync-1.0.0.AppImage', args: [HIDDEN_ARGUMENT], profileDir: PROFILE });
  });

  it('starts an installed app by its executable, and a checkout through Electron with the checkout\'s path; a chosen profile goes along', () => {
    expect(loginLaunch({ execPath: '/opt/design-sync/design-sync', isPackaged: true, appPath: '/opt/design-sync/resources/app.asar', appImage: undefined, profileArgument: null, profileDir: PROFILE }))
      .toEqual({ executable: '/opt/design-sync/design-sync', args: ['--hidden'], profileDir: PROFILE });
    // An APPIMAGE left in the environment by some other program does not matter to an app that is not packaged.
    expect(loginLaunch({ execPath: '/work/node_modules/electron/dist/electron', isPackaged: false, appPath: '/work', appImage: '/x.AppImage', profileArgument: '/tmp/p', profileDir: '/tmp/p' }))
      .toEqual({ executable: '/work/node_modules/electron/dist/electron', args: ['/work', '--hidden', '--profile', '/tmp/p'], profileDir: '/tmp/p' });
  });

  it('is told by --hidden, which the shell reads among Electron\'s own switches', () => {
    expect(parseShellArguments(['--hidden'])).toEqual({ profile: null, service: null, hidden: true });
    expect(parseShellArguments(['--no-sandbox', '--profile', '/tmp/p', '--hidden', '--enable-features=X']).hidden).toBe(true);
    expect(parseShellArguments(['--profile', '/tmp/p']).hidden).toBe(false);
  });
});

describe('the XDG autostart entry (Linux)', () => {
  it('lives in $XDG_CONFIG_HOME/autostart, else ~/.config/autostart (a relative XDG_CONFIG_HOME is ignored)', () => {
    expect(autostartDirectory({ XDG_CONFIG_HOME: '/x/config' }, '/home/ada')).toBe('/x/config/autostart');
    expect(autostartDirectory({}, '/home/ada')).toBe('/home/ada/.config/autostart');
    expect(autostartDirectory({ XDG_CONFIG_HOME: 'relative/config' }, '/home/ada')).toBe('/home/ada/.config/autostart');
  });

  it('is written when turned on: an application started hidden, enabled for GNOME, naming its profile', async () => {
    const items = xdgLoginItems(appImage('/home/ada/Apps/design-sync.AppImage'), env);
    expect(items.isOn()).toBe(false);
    await expect(items.set(true)).resolves.toBe(true);
    const path = join(configHome, 'autostart', 'design-sync.desktop');
    expect(items.where).toBe(path);
    expect(readFileSync(path, 'utf8')).toBe([
      '[Desktop Entry]',
      'Type=Application',
      'Version=1.5',
      'Name=design-sync',
      'Comment=Keeps your sync folder and your designs in step (starts in the tray)',
      'Exec=/home/ada/Apps/design-sync.AppImage --hidden',
      'Icon=design-sync',
      'Terminal=false',
      'X-GNOME-Autostart-enabled=true',
      `X-design-sync-Profile=${PROFILE}`,
      '',
    ].join('\n'));
    expect(statSync(path).mode & 0o777).toBe(0o644);
    expect(items.isOn()).toBe(true);
  });

  it('is removed when turned off, and turning off what is not there is no error', async () => {
    const items = xdgLoginItems(appImage('/home/ada/Apps/design-sync.AppImage'), env);
    await items.set(true);
    await expect(items.set(false)).resolves.toBe(false);
    expect(existsSync(join(configHome, 'autostart', 'design-sync.desktop'))).toBe(false);
    await expect(items.set(false)).resolves.toBe(false);
  });

  it('is written again, pointing at the new place, when the AppImage moved; left alone when it is current', async () => {
    await xdgLoginItems(appImage('/home/ada/Downloads/design-sync.AppImage'), env).set(true);
    const moved = xdgLoginItems(appImage('/home/ada/Apps/design-sync.AppImage'), env);
    expect(moved.isOn()).toBe(true);
    expect(moved.refresh()).toBe(true);
    const path = join(configHome, 'autostart', 'design-sync.desktop');
    expect(desktopEntryKeys(readFileSync(path, 'utf8')).get('Exec')).toBe('/home/ada/Apps/design-sync.AppImage --hidden');
    expect(moved.refresh()).toBe(false);
  });

  it('quotes the command as the Desktop Entry Specification says (spaces, quotes, $, backslashes, %)', () => {
    expect(execArgument('/opt/design-sync/design-sync')).toBe('/opt/design-sync/design-sync');
    expect(execArgument('/home/ada/My Apps/design-sync.AppImage')).toBe('"/home/ada/My Apps/design-sync.AppImage"');
    expect(execArgument('/home/ada/"odd" $HOME `x`')).toBe('"/home/ada/\\\\"odd\\\\" \\\\$HOME \\\\`x\\\\`"');
    // A literal backslash in a quoted argument is four backslashes in the file.
    expect(execArgument('C:\\apps')).toBe('"C:\\\\\\\\apps"');
    expect(execArgument('/home/ada/100%')).toBe('/home/ada/100%%');
    expect(execArgument('')).toBe('""');
    const text = autostartEntryText({ executable: '/home/ada/My Apps/design-sync.AppImage', args: ['--hidden', '--profile', '/home/ada/a profile'], profileDir: '/home/ada/a profile' });
    expect(desktopEntryKeys(text).get('Exec')).toBe('"/home/ada/My Apps/design-sync.AppImage" --hidden --profile "/home/ada/a profile"');
  });

  it('refuses, naming the path, an app in a folder whose path holds a line break, and writes nothing', async () => {
    const items = xdgLoginItems(appImage('/home/ada/odd\nplace/design-sync.AppImage'), env);
    await expect(items.set(true)).rejects.toThrow(UnwritableLaunchError);
    await expect(items.set(true)).rejects.toThrow(/"\/home\/ada\/odd\\nplace\/design-sync.AppImage".*line break/);
    expect(existsSync(join(configHome, 'autostart', 'design-sync.desktop'))).toBe(false);
  });

  it('reads an entry the desktop\'s own settings turned off as off, and writes it whole when turned on again', async () => {
    const launch = appImage('/home/ada/Apps/design-sync.AppImage');
    const path = join(configHome, 'autostart', 'design-sync.desktop');
    mkdirSync(join(configHome, 'autostart'));
    writeFileSync(path, autostartEntryText(launch).replace('X-GNOME-Autostart-enabled=true', 'X-GNOME-Autostart-enabled=false'));
    expect(readAutostartEntry(path, launch)).toMatchObject({ kind: 'disabled' });
    writeFileSync(path, `${autostartEntryText(launch)}Hidden=true\n`);
    const items = xdgLoginItems(launch, env);
    expect(items.isOn()).toBe(false);
    expect(items.refresh()).toBe(false);
    await items.set(true);
    expect(readFileSync(path, 'utf8')).toBe(autostartEntryText(launch));
  });

  it('leaves another profile\'s entry in place when turned off here, and replaces it when turned on here', async () => {
    const other = loginLaunch({ execPath: '/opt/design-sync/design-sync', isPackaged: true, appPath: '', appImage: undefined, profileArgument: '/home/ada/work', profileDir: '/home/ada/work' });
    const mine = loginLaunch({ execPath: '/opt/design-sync/design-sync', isPackaged: true, appPath: '', appImage: undefined, profileArgument: null, profileDir: PROFILE });
    await xdgLoginItems(other, env).set(true);
    const items = new XdgAutostart(mine, env);
    expect(items.state()).toMatchObject({ kind: 'other-profile', profileDir: '/home/ada/work' });
    expect(items.refresh()).toBe(false);
    items.set(false);
    expect(readFileSync(items.path, 'utf8')).toBe(autostartEntryText(other));
    expect(items.set(true)).toBe(true);
    expect(readFileSync(items.path, 'utf8')).toBe(autostartEntryText(mine));
    expect(new XdgAutostart(other, env).isOn()).toBe(false);
  });

  it('says why when the autostart folder cannot be written (a file in its place)', async () => {
    writeFileSync(join(configHome, 'autostart'), 'not a folder');
    await expect(xdgLoginItems(appImage('/a.AppImage'), env).set(true)).rejects.toThrow(/EEXIST|ENOTDIR/);
  });
});

describe('Electron\'s login items (macOS, Windows)', () => {
  function fakeApp(): LoginItemApp & { registered: Map<string, boolean>; set: ReturnType<typeof vi.fn>; openedAtLogin: boolean } {
    const registered = new Map<string, boolean>();
    const key = (options?: { path?: string; args?: string[] }) => `${options?.path ?? 'self'} ${(options?.args ?? []).join(' ')}`;
    const fake = {
      registered,
      openedAtLogin: false,
      set: vi.fn((settings: { openAtLogin: boolean; path?: string; args?: string[] }) => { registered.set(key(settings), settings.openAtLogin); }),
      setLoginItemSettings(settings: { openAtLogin: boolean; path?: string; args?: string[] }) { fake.set(settings); },
      getLoginItemSettings: (options?: { path?: string; args?: string[] }) => ({ openAtLogin: registered.get(key(options)) ?? false, wasOpenedAtLogin: fake.openedAtLogin }),
    };
    return fake;
  }
  const installed = loginLaunch({ execPath: 'C:\\Program Files\\design-sync\\design-sync.exe', isPackaged: true, appPath: '', appImage: undefined, profileArgument: null, profileDir: 'C:\\profile' });

  it('on macOS registers the app to open hidden at login, reads it back, and knows a start at login', async () => {
    const app = fakeApp();
    const items = loginItemsFor('darwin', app, installed);
    expect(items.isOn()).toBe(false);
    await expect(items.set(true)).resolves.toBe(true);
    expect(app.set).toHaveBeenLastCalledWith({ openAtLogin: true, openAsHidden: true });
    expect(items.isOn()).toBe(true);
    expect(items.startedAtLogin()).toBe(false);
    app.openedAtLogin = true;
    expect(items.startedAtLogin()).toBe(true);
    await expect(items.set(false)).resolves.toBe(false);
    expect(app.set).toHaveBeenLastCalledWith({ openAtLogin: false, openAsHidden: true });
  });

  it('on Windows registers the executable with --hidden, and asks with the same path and arguments', async () => {
    const app = fakeApp();
    const items = electronLoginItems(app, 'win32', installed);
    await expect(items.set(true)).resolves.toBe(true);
    expect(app.set).toHaveBeenLastCalledWith({ openAtLogin: true, path: 'C:\\Program Files\\design-sync\\design-sync.exe', args: ['--hidden'] });
    expect(items.isOn()).toBe(true);
    expect(items.where).toBe('the Windows startup apps');
    // Windows says it with the argument the app reads.
    expect(items.startedAtLogin()).toBe(false);
  });

  it('on Linux never touches Electron\'s login items', async () => {
    const app = fakeApp();
    const items = loginItemsFor('linux', app, appImage('/home/ada/design-sync.AppImage'), env);
    await items.set(true);
    expect(app.set).not.toHaveBeenCalled();
    expect(items.where).toBe(join(configHome, 'autostart', 'design-sync.desktop'));
  });
});

describe('the profile\'s record of the login item, at start', () => {
  it('follows the system: removed in its settings reads off, turned on elsewhere reads on; a profile that never set it stays so while off', () => {
    expect(loginItemRecord(true, false)).toEqual({ startAtLogin: false });
    expect(loginItemRecord(false, true)).toEqual({ startAtLogin: true });
    expect(loginItemRecord(undefined, true)).toEqual({ startAtLogin: true });
    expect(loginItemRecord(undefined, false)).toBeNull();
    expect(loginItemRecord(true, true)).toBeNull();
    expect(loginItemRecord(false, false)).toBeNull();
  });
});

describe('the tray\'s Start at login', () => {
  const actions: TrayMenuActions = { openWindow() {}, openSyncFolder() {}, syncNow() {}, pauseUploads() {}, resumeUploads() {}, quit() {} };

  it('is a checkbox showing the state; clicking it asks for the other state', () => {
    const setStartAtLogin = vi.fn();
    const menu = trayMenuTemplate(trayView(syncView(), accountView()), syncView(), actions, { startAtLogin: false, setStartAtLogin });
    const item = menu.find((entry) => entry.id === 'start-at-login')!;
    expect(item).toMatchObject({ label: 'Start at login', type: 'checkbox', checked: false });
    (item.click as () => void)();
    expect(setStartAtLogin).toHaveBeenCalledWith(true);
    const on = trayMenuTemplate(trayView(syncView(), accountView()), syncView(), actions, { startAtLogin: true, setStartAtLogin }).find((entry) => entry.id === 'start-at-login')!;
    expect(on.checked).toBe(true);
    (on.click as () => void)();
    expect(setStartAtLogin).toHaveBeenLastCalledWith(false);
  });

  it('stands before Quit, and is not there when the app has no login item to offer', () => {
    const ids = trayMenuTemplate(trayView(syncView(), accountView()), syncView(), actions, { startAtLogin: false, setStartAtLogin() {} }).map((entry) => entry.id ?? entry.type);
    expect(ids.slice(-2)).toEqual(['start-at-login', 'quit']);
    expect(trayMenuTemplate(trayView(syncView(), accountView()), syncView(), actions).some((entry) => entry.id === 'start-at-login')).toBe(false);
  });
});
