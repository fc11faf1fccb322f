import { EventEmitter } from 'node:events';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTRACT_REQUEST_CHANNEL, type Outcome, type SettingsView } from '../../shared';
import { desktopEntryKeys } from '../../electron/engine/settings/xdg-autostart';
import type { EngineToHost, HostToEngine } from '../../electron/shell/engine-bridge/messages';
import { serveEngine } from '../../electron/shell/engine-process/serve-engine';
import { tempDir } from '../engine/cache/cache-fixtures';
import { until } from '../../harness/until';

/** A tray menu item as main builds it (Electron's MenuItemConstructorOptions, without importing electron's types). */
interface MenuItemConstructorOptions { id?: string; label?: string; type?: string; checked?: boolean; click?: unknown }

/**
 * Starting at login as the main process wires it, against a stand-in for Electron (the real module would download its
 * binary): started with --hidden it shows the tray only; the tray's Start at login and the window's Settings change
 * the autostart entry (in a temporary config home) through the real engine in its "utility process" (a MessageChannel).
 */
const h = await vi.hoisted(async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  const app = Object.assign(new Emitter(), {
    isPackaged: false,
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    getPath: () => '/nonexistent-user-data',
    getVersion: () => '0.1.0',
    getAppPath: () => '/checkout',
    getPreferredSystemLanguages: () => ['en-GB'],
    getLocale: () => 'en-GB',
    quitCalls: 0,
    quit() {
      app.quitCalls += 1;
      const event = { defaultPrevented: false, preventDefault() { event.defaultPrevented = true; } };
      app.emit('before-quit', event);
    },
    exit: (code: number) => { throw new Error(`app.exit(${code})`); },
    setLoginItemSettings: () => { throw new Error('Linux uses the autostart entry, never Electron\'s login items'); },
    getLoginItemSettings: () => { throw new Error('Linux uses the autostart entry, never Electron\'s login items'); },
  });
  const windows: FakeWindow[] = [];
  class FakeWindow extends Emitter {
    static nextId = 1;
    visible = false;
    readonly webContents = {
      id: FakeWindow.nextId++,
      on() {},
      setWindowOpenHandler() {},
      send() {},
      isDestroyed: () => false,
    };
    constructor(readonly options: Record<string, unknown>) {
      super();
      windows.push(this);
      queueMicrotask(() => this.emit('ready-to-show'));
    }
    loadURL() { return Promise.resolve(); }
    show() { this.visible = true; }
    hide() { this.visible = false; }
    focus() {}
    restore() {}
    isMinimized() { return false; }
    isVisible() { return this.visible; }
    isDestroyed() { return false; }
  }
  const tray = { menu: [] as MenuItemConstructorOptions[], created: 0 };
  const recorded = {
    ipcHandler: null as ((event: unknown, ...args: unknown[]) => Promise<unknown>) | null,
    children: [] as { served: Promise<void> }[],
    fork: null as ((entry: string) => unknown) | null,
  };
  return { app, windows, FakeWindow, tray, recorded };
});

vi.mock('electron-store', () => ({
  default: class {
    store: Record<string, unknown> = {};
    set(values: Record<string, unknown>) { this.store = { ...this.store, ...values }; }
  },
}));

// Updates are another part of the shell: a development build never fetches any, and the real updater would load Electron.
vi.mock('electron-updater', () => ({ default: { autoUpdater: Object.assign(new EventEmitter(), { checkForUpdates: async () => null }) } }));

vi.mock('electron', () => ({
  app: h.app,
  powerMonitor: { on: () => {}, off: () => {} },
  BrowserWindow: h.FakeWindow,
  dialog: { showErrorBox: (title: string, message: string) => { throw new Error(`${title}: ${message}`); } },
  ipcMain: { handle: (channel: string, fn: (event: unknown, ...args: unknown[]) => Promise<unknown>) => { if (channel === CONTRACT_REQUEST_CHANNEL) h.recorded.ipcHandler = fn; }, removeHandler: () => {} },
  Menu: { buildFromTemplate: (template: unknown[]) => template, setApplicationMenu: () => {} },
  nativeImage: { createFromPath: (path: string) => ({ path }) },
  nativeTheme: { shouldUseDarkColors: false },
  Notification: Object.assign(class {}, { isSupported: () => false }),
  protocol: { registerSchemesAsPrivileged: () => {}, handle: () => {} },
  safeStorage: {
    isAsyncEncryptionAvailable: async () => true,
    encryptStringAsync: async (text: string) => Buffer.from(text).reverse(),
    decryptStringAsync: async (data: Buffer) => ({ result: Buffer.from(data).reverse().toString(), shouldReEncrypt: false }),
    getSelectedStorageBackend: () => 'gnome_libsecret',
  },
  session: {
    defaultSession: {
      setPermissionRequestHandler: () => {},
      setPermissionCheckHandler: () => {},
      setDevicePermissionHandler: () => {},
      on: () => {},
      webRequest: { onBeforeRequest: () => {} },
    },
  },
  shell: { openExternal: async () => {}, openPath: async () => '' },
  Tray: class {
    constructor() { h.tray.created += 1; }
    on() {}
    setImage() {}
    setToolTip() {}
    setContextMenu(menu: MenuItemConstructorOptions[]) { h.tray.menu = menu; }
  },
  utilityProcess: { fork: (entry: string) => h.recorded.fork!(entry) },
}));

let profile: string;
let configHome: string;
const argv = process.argv;
const xdg = process.env.XDG_CONFIG_HOME;

const trayItem = () => h.tray.menu.find((item) => item.id === 'start-at-login');
const entryPath = () => join(configHome, 'autostart', 'design-sync.desktop');

beforeAll(async () => {
  profile = tempDir('login-wiring-profile');
  configHome = tempDir('login-wiring-config');
  process.env.XDG_CONFIG_HOME = configHome;
  h.recorded.fork = () => {
    const channel = new MessageChannel();
    const child = Object.assign(new EventEmitter(), { postMessage: (message: HostToEngine) => channel.port1.postMessage(message), kill: () => {} });
    channel.port1.on('message', (message: EngineToHost) => child.emit('message', message));
    const served = serveEngine({
      post: (message) => channel.port2.postMessage(message),
      onMessage: (listener) => {
        channel.port2.on('message', listener);
        return () => channel.port2.off('message', listener);
      },
    }).then(() => {
      channel.port1.close();
      channel.port2.close();
      child.emit('exit', 0);
    });
    h.recorded.children.push({ served });
    return child;
  };
  process.argv = [process.execPath, '.', '--profile', profile, '--hidden'];
  await import('../../electron/shell/main/main');
  await until('the tray\'s menu', () => trayItem());
});

afterAll(async () => {
  process.argv = argv;
  if (xdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = xdg;
  if (h.recorded.children[0]) {
    h.app.quit();
    await h.recorded.children[0].served;
  }
  rmSync(profile, { recursive: true, force: true });
  rmSync(configHome, { recursive: true, force: true });
});

const fromWindow = (window: InstanceType<typeof h.FakeWindow>) => ({
  sender: { id: window.webContents.id, isDestroyed: () => false },
  senderFrame: { url: 'app://window/index.html', parent: null, isDestroyed: () => false, detached: false },
});

describe('start at login, wired in the main process', () => {
  it('started with --hidden, shows the tray only (no window), with Start at login off', () => {
    expect(h.tray.created).toBe(1);
    expect(h.windows).toHaveLength(0);
    expect(trayItem()).toMatchObject({ label: 'Start at login', type: 'checkbox', checked: false });
    // The login item launching the app again while it runs (started by hand first) does not pop the window up.
    h.app.emit('second-instance', {}, [process.execPath, '/checkout', '--hidden', '--profile', profile], process.cwd());
    expect(h.windows).toHaveLength(0);
  });

  it('the tray\'s checkbox writes the autostart entry, which starts this checkout hidden with this profile', async () => {
    (trayItem()!.click as () => void)();
    await until('the tray to show Start at login on', () => trayItem()?.checked);
    const keys = desktopEntryKeys(readFileSync(entryPath(), 'utf8'));
    expect(keys.get('Exec')).toBe(`${process.execPath} /checkout --hidden --profile ${profile}`);
    expect(keys.get('X-GNOME-Autostart-enabled')).toBe('true');
  });

  it('the window\'s Settings says so, and turning it off there removes the entry and unticks the tray', async () => {
    const open = h.tray.menu.find((item) => item.id === 'open-window')!;
    (open.click as () => void)();
    const window = await until('the window opened from the tray', () => h.windows[0]);
    const read = await h.recorded.ipcHandler!(fromWindow(window), 'settings.get', {}) as Outcome<SettingsView>;
    expect(read.ok && read.value.startAtLogin).toEqual({ available: true, on: true, asked: true, unavailableReason: null });
    const off = await h.recorded.ipcHandler!(fromWindow(window), 'settings.update', { startAtLogin: false }) as Outcome<SettingsView>;
    expect(off.ok && off.value.startAtLogin.on).toBe(false);
    expect(existsSync(entryPath())).toBe(false);
    expect(trayItem()?.checked).toBe(false);
  });

  it('a refusal from the system crosses back to the window as a problem saying why, and nothing changes', async () => {
    const window = h.windows[0]!;
    rmSync(join(configHome, 'autostart'), { recursive: true, force: true });
    writeFileSync(join(configHome, 'autostart'), 'a file where the folder should be');
    try {
      const refused = await h.recorded.ipcHandler!(fromWindow(window), 'settings.update', { startAtLogin: true }) as Outcome<SettingsView>;
      expect(refused).toMatchObject({ ok: false, problem: { kind: 'internal', message: expect.stringMatching(/^design-sync could not be set to start at login: .*(EEXIST|ENOTDIR)/) } });
      expect(trayItem()?.checked).toBe(false);
      const read = await h.recorded.ipcHandler!(fromWindow(window), 'settings.get', {}) as Outcome<SettingsView>;
      expect(read.ok && read.value.startAtLogin.on).toBe(false);
    } finally {
      rmSync(join(configHome, 'autostart'), { force: true });
    }
  });

  it('a launch by the person while it runs hidden shows the window', async () => {
    const window = h.windows[0]!;
    window.hide();
    h.app.emit('second-instance', {}, [process.execPath, '/checkout'], process.cwd());
    expect(window.isVisible()).toBe(true);
  });
});
