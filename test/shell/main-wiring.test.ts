import { EventEmitter } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTRACT_EVENT_CHANNEL, CONTRACT_REQUEST_CHANNEL } from '../../shared';
import type { EngineToHost, HostToEngine } from '../../electron/shell/engine-bridge/messages';
import { serveEngine } from '../../electron/shell/engine-process/serve-engine';
import { tempDir } from '../engine/cache/cache-fixtures';
import { startTestService, type TestService } from '../../harness/local-service';

/**
 * main.ts wired against a stand-in for Electron (the real module would download its binary): the app's lifecycle,
 * the protocol, the IPC handler, the tray and the windows are fakes that record what main does with them, and the
 * "utility process" runs the real engine over a MessageChannel against the local service.
 */
const h = await vi.hoisted(async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  const app = Object.assign(new Emitter(), {
    isPackaged: false,
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    getPath: () => '/nonexistent-user-data',
    getVersion: () => '0.1.0',
    getAppPath: () => process.cwd(),
    // A German system: the shell speaks German until the profile's language setting says otherwise.
    getPreferredSystemLanguages: () => ['de-DE', 'en-US'],
    getLocale: () => 'de',
    quitCalls: 0,
    quit() {
      app.quitCalls += 1;
      const event = { defaultPrevented: false, preventDefault() { event.defaultPrevented = true; } };
      app.emit('before-quit', event);
    },
    exit: (code: number) => { throw new Error(`app.exit(${code})`); },
  });
  const windows: FakeWindow[] = [];
  class FakeWindow extends Emitter {
    static nextId = 1;
    destroyed = false;
    visible = false;
    loaded: string[] = [];
    readonly webContents: { id: number; sent: [string, unknown][]; openHandler: ((details: { url: string }) => unknown) | null; listeners: Map<string, unknown>;
      on(name: string, fn: unknown): void; setWindowOpenHandler(fn: (details: { url: string }) => unknown): void; send(channel: string, message: unknown): void; isDestroyed(): boolean };
    constructor(readonly options: Record<string, unknown>) {
      super();
      this.webContents = {
        id: FakeWindow.nextId++, sent: [], openHandler: null, listeners: new Map(),
        on(name, fn) { this.listeners.set(name, fn); },
        setWindowOpenHandler(fn) { this.openHandler = fn; },
        send(channel, message) { this.sent.push([channel, message]); },
        isDestroyed: () => this.destroyed,
      };
      windows.push(this);
      queueMicrotask(() => this.emit('ready-to-show'));
    }
    loadURL(url: string) { this.loaded.push(url); return Promise.resolve(); }
    show() { this.visible = true; }
    hide() { this.visible = false; }
    focus() {}
    restore() {}
    isMinimized() { return false; }
    isVisible() { return this.visible; }
    isDestroyed() { return this.destroyed; }
  }
  const tray = { tooltips: [] as string[], menus: 0 };
  const recorded = {
    protocolHandler: null as ((request: Request) => Promise<Response>) | null,
    ipcHandler: null as ((event: unknown, ...args: unknown[]) => Promise<unknown>) | null,
    opened: [] as string[],
    children: [] as { child: EventEmitter; served: Promise<void> }[],
    hardened: [] as string[],
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

vi.mock('electron', () => ({
  app: h.app,
  BrowserWindow: h.FakeWindow,
  dialog: { showErrorBox: (title: string, message: string) => { throw new Error(`${title}: ${message}`); } },
  ipcMain: { handle: (channel: string, fn: (event: unknown, ...args: unknown[]) => Promise<unknown>) => { if (channel === CONTRACT_REQUEST_CHANNEL) h.recorded.ipcHandler = fn; }, removeHandler: () => {} },
  Menu: { buildFromTemplate: (template: unknown[]) => template, setApplicationMenu: () => {} },
  nativeImage: { createFromPath: (path: string) => ({ path }) },
  nativeTheme: { shouldUseDarkColors: false },
  Notification: Object.assign(class {}, { isSupported: () => false }),
  protocol: { registerSchemesAsPrivileged: () => {}, handle: (_scheme: string, fn: (request: Request) => Promise<Response>) => { h.recorded.protocolHandler = fn; } },
  safeStorage: {
    isAsyncEncryptionAvailable: async () => true,
    encryptStringAsync: async (text: string) => Buffer.from(text).reverse(),
    decryptStringAsync: async (data: Buffer) => ({ result: Buffer.from(data).reverse().toString(), shouldReEncrypt: false }),
    getSelectedStorageBackend: () => 'gnome_libsecret',
  },
  session: {
    defaultSession: {
      setPermissionRequestHandler: () => h.recorded.hardened.push('permission-request'),
      setPermissionCheckHandler: () => h.recorded.hardened.push('permission-check'),
      setDevicePermissionHandler: () => h.recorded.hardened.push('device'),
      on: (name: string) => h.recorded.hardened.push(name),
      webRequest: { onBeforeRequest: () => h.recorded.hardened.push('before-request') },
    },
  },
  shell: { openExternal: async (url: string) => { h.recorded.opened.push(url); }, openPath: async () => '' },
  Tray: class {
    on() {}
    setImage() {}
    setToolTip(tooltip: string) { h.tray.tooltips.push(tooltip); }
    setContextMenu() { h.tray.menus += 1; }
  },
  utilityProcess: { fork: (entry: string) => h.recorded.fork!(entry) },
}));

async function until<T>(read: () => T | undefined | null | false, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let service: TestService;
let profile: string;
const argv = process.argv;

beforeAll(async () => {
  service = await startTestService();
  const token = service.addUser('maker').token;
  profile = tempDir('main-wiring');
  writeFileSync(join(profile, 'token.safe'), Buffer.from(token).reverse(), { mode: 0o600 });
  h.recorded.fork = (entry: string) => {
    expect(entry).toMatch(/engine-process\.mjs$/);
    const channel = new MessageChannel();
    const child = Object.assign(new EventEmitter(), {
      postMessage: (message: HostToEngine) => channel.port1.postMessage(message),
      kill: () => {},
    });
    channel.port1.on('message', (message: EngineToHost) => child.emit('message', message));
    const served = serveEngine({
      post: (message) => channel.port2.postMessage(message),
      onMessage: (listener) => {
        channel.port2.on('message', listener);
        return () => channel.port2.off('message', listener);
      },
    }, { tune: { settleMs: 100, trash: 'folder' } }).then(() => {
      channel.port1.close();
      channel.port2.close();
      child.emit('exit', 0);
    });
    h.recorded.children.push({ child, served });
    return child;
  };
  process.argv = [process.execPath, '.', '--profile', profile, '--service', service.url];
  await import('../../electron/shell/main/main');
  await until(() => h.windows[0]?.visible, 'the window to be shown');
});

afterAll(async () => {
  process.argv = argv;
  await service?.stop();
  rmSync(profile, { recursive: true, force: true });
});

const fromWindow = (window: InstanceType<typeof h.FakeWindow>, url = 'app://window/index.html') => ({
  sender: { id: window.webContents.id, isDestroyed: () => false },
  senderFrame: { url, parent: null, isDestroyed: () => false, detached: false },
});

describe('the main process, wired', () => {
  it('hardens the session and loads the window from app://, with the secure options', () => {
    expect(h.recorded.hardened).toEqual(expect.arrayContaining(['permission-request', 'permission-check', 'device', 'will-download', 'before-request']));
    const window = h.windows[0]!;
    expect(window.loaded).toEqual(['app://window/index.html']);
    expect(window.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(String((window.options.webPreferences as { preload: string }).preload)).toMatch(/preload\.cjs$/);
  });

  it('answers the window\'s contract requests through the engine process, with the token read from safeStorage', async () => {
    const window = h.windows[0]!;
    const outcome = await h.recorded.ipcHandler!(fromWindow(window), 'account.get', {}) as { ok: boolean; value: { status: string; user: { screenName: string } } };
    expect(outcome.ok).toBe(true);
    expect(outcome.value.status).toBe('signed-in');
    expect(outcome.value.user.screenName).toBe('maker');
  });

  it('refuses a request from a frame that is not the window\'s own page', async () => {
    const window = h.windows[0]!;
    const outcome = await h.recorded.ipcHandler!(fromWindow(window, 'https://evil.example/'), 'account.signOut', {}) as { ok: boolean; problem: { kind: string } };
    expect(outcome).toMatchObject({ ok: false, problem: { kind: 'forbidden' } });
    const still = await h.recorded.ipcHandler!(fromWindow(window), 'account.get', {}) as { value: { status: string } };
    expect(still.value.status).toBe('signed-in');
  });

  it('answers the window\'s update requests in the main process (a development build: unavailable, with why), never for another frame', async () => {
    const window = h.windows[0]!;
    const outcome = await h.recorded.ipcHandler!(fromWindow(window), 'updates.get', {});
    expect(outcome).toMatchObject({ ok: true, value: { state: 'unavailable', currentVersion: '0.1.0', reason: expect.stringContaining('development build') } });
    expect(await h.recorded.ipcHandler!(fromWindow(window), 'updates.check', {})).toMatchObject({ ok: true, value: { state: 'unavailable' } });
    expect(await h.recorded.ipcHandler!(fromWindow(window), 'updates.restart', { now: true })).toMatchObject({ ok: false, problem: { kind: 'validation' } });
    expect(await h.recorded.ipcHandler!(fromWindow(window, 'https://evil.example/'), 'updates.restart', {})).toMatchObject({ ok: false, problem: { kind: 'forbidden' } });
  });

  it('sends the engine\'s events to the window and shows the sync state in the tray', async () => {
    const window = h.windows[0]!;
    await h.recorded.ipcHandler!(fromWindow(window), 'catalogue.pull', {});
    await until(() => window.webContents.sent.some(([channel, message]) => channel === CONTRACT_EVENT_CHANNEL && (message as { name: string }).name === 'pull.finished'), 'pull.finished in the window');
    await h.recorded.ipcHandler!(fromWindow(window), 'sync.status', {});
    expect(h.tray.tooltips.length).toBeGreaterThan(0);
  });

  it('speaks the system\'s language in the tray, and the one chosen in the window\'s Settings at once', async () => {
    const window = h.windows[0]!;
    await h.recorded.ipcHandler!(fromWindow(window), 'sync.status', {});
    await until(() => /^design-sync: (Aktuell|Synchronisierung nicht eingerichtet|Wird synchronisiert|Abgemeldet|Pausiert|Fehler|Wartet auf Sie|Wird gestartet)\b/.test(h.tray.tooltips.at(-1) ?? ''), 'the tray in German');
    expect(await h.recorded.ipcHandler!(fromWindow(window), 'settings.update', { language: 'nl' })).toMatchObject({ ok: true });
    const menusBefore = h.tray.menus;
    await until(() => h.tray.menus > menusBefore && /^design-sync: (Bijgewerkt|Synchronisatie niet ingesteld|Bezig met synchroniseren|Synchroniseren|Gepauzeerd|Fout|Wacht op jou|Uitgelogd|Bezig met starten)\b/.test(h.tray.tooltips.at(-1) ?? ''), 'the tray in Dutch');
    expect(await h.recorded.ipcHandler!(fromWindow(window), 'settings.update', { language: 'system' })).toMatchObject({ ok: true });
  });

  it('serves the app:// protocol and opens only the service\'s design pages outside', async () => {
    const missing = await h.recorded.protocolHandler!(new Request('app://window/no-such-file.js'));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    const window = h.windows[0]!;
    expect(window.webContents.openHandler!({ url: `${service.url}/designs/12` })).toEqual({ action: 'deny' });
    expect(window.webContents.openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(h.recorded.opened).toEqual([`${service.url}/designs/12`]);
    const navigate = window.webContents.listeners.get('will-navigate') as (event: { preventDefault(): void }, url: string) => void;
    const event = { prevented: false, preventDefault() { this.prevented = true; } };
    navigate(event, 'https://evil.example/');
    expect(event.prevented).toBe(true);
  });

  it('hides the window on close while the tray lives, and quits by closing the engine first', async () => {
    const window = h.windows[0]!;
    const close = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    window.emit('close', close);
    expect(close.defaultPrevented).toBe(true);
    expect(window.visible).toBe(false);
    h.app.quit();
    await h.recorded.children[0]!.served;
    await until(() => h.app.quitCalls >= 2, 'the quit after the engine closed');
  });
});
