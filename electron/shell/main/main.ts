/**
 * The Electron main process: wiring only. The engine runs in a utility process (engine-process-host.ts); the
 * decisions are small modules beside this one (window options, CSP, navigation and permission policies, sender
 * checks, tray state, menus, notifications), each with its tests.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, nativeTheme, Notification, protocol, safeStorage, session, shell, Tray } from 'electron';
import Store from 'electron-store';
import type { AccountView, SyncView } from '../../../shared';
import { profilePaths } from '../../engine/profile/profile';
import { webAddressOf } from '../../engine/profile/web-address';
import type { EngineSettings } from '../../engine/settings/settings-store';
import { registerContractIpc, sendContractEvent } from '../ipc/contract-ipc';
import { senderRefusal } from '../ipc/trusted-sender';
import { revealWindow } from '../lifecycle/single-instance';
import { loginLaunch } from '../login-items/launch-command';
import { loginItemRecord, loginItemsFor } from '../login-items/login-items';
import { appMenuTemplate } from '../menu/app-menu';
import { createNotifier } from '../notifications/notifier';
import { appProtocolHandler } from '../protocol/app-protocol';
import { appDropHandler } from '../protocol/drop-handler';
import { appThumbnailHandler } from '../protocol/thumbnail-handler';
import { SafeStorageTokenStore } from '../secrets/safe-storage-token-store';
import { keyValueSettingsStore, settingsJsonSchema } from '../settings/settings-schema';
import { trayMenuTemplate } from '../tray/tray-menu';
import { trayView } from '../tray/tray-state';
import { createAppUpdates } from '../updates/app-updates';
import { answerUpdatesRequest, isUpdatesRequest } from '../updates/updates-contract';
import { APP_INDEX_URL, APP_ORIGIN, APP_SCHEME, appResponseHeaders } from '../window/content-security-policy';
import { decideNavigation, decideNewWindow } from '../window/navigation-policy';
import { hardenSession, shouldAllowDevTools } from '../window/permission-policy';
import { mainWindowOptions } from '../window/window-options';
import { resolveSystemProxy } from '../engine-bridge/system-proxy';
import { EngineProcessHost } from './engine-process-host';
import { parseShellArguments } from './shell-arguments';
import { shellPaths } from './shell-paths';
import { createShellWords } from './shell-words';

/** How long uploads under way may take to finish on quit, and how long the engine may take to stop at all. */
const QUIT_DRAIN_MS = 5_000;
const QUIT_TIMEOUT_MS = 15_000;

const log = (line: string) => process.stderr.write(`${line}\n`);

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } }]);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void main();
}

async function main(): Promise<void> {
  const args = parseShellArguments(process.argv.slice(1));
  const paths = shellPaths(import.meta.dirname);
  let window: BrowserWindow | null = null;
  let tray: Tray | null = null;
  let quitting = false;
  let lastSync: SyncView | null = null;
  let lastAccount: AccountView | null = null;

  await app.whenReady();
  const profileDir = args.profile ?? join(app.getPath('userData'), 'profile');
  mkdirSync(profileDir, { recursive: true, mode: 0o700 });
  const profile = profilePaths(profileDir);

  const store = new Store<Record<string, unknown>>({ cwd: profileDir, name: 'settings', schema: settingsJsonSchema() as never, clearInvalidConfig: false });
  const settings = keyValueSettingsStore(store);
  // The tray's, the menus', the notifications' and the dialogs' words: the profile's language setting, 'system' being
  // the system's languages; the window's Settings changes it through the engine (saveSettings below), and they follow.
  const systemLanguages = () => {
    const preferred = app.getPreferredSystemLanguages();
    return preferred.length > 0 ? preferred : [app.getLocale()];
  };
  // Set once the tray and the menu can be built (below): a language changed later shows in them at once.
  let languageChanged = () => {};
  const words = createShellWords(() => languageChanged());
  await words.follow(settings.read().language, systemLanguages());
  const tokens = new SafeStorageTokenStore(join(profileDir, 'token.safe'), safeStorage);
  // The manual proxy's password, kept like the token; the system's proxy for the service (Chromium's resolver).
  const proxyPassword = new SafeStorageTokenStore(join(profileDir, 'proxy-password.safe'), safeStorage);
  const systemProxy = { current: await resolveSystemProxy(session.defaultSession, args.service ?? settings.read().serviceUrl, log) };
  // Another service chosen: its proxy resolved again and handed to the engine (a PAC script may name another one).
  const proxyForService = (serviceUrl: string | undefined) => void resolveSystemProxy(session.defaultSession, serviceUrl, log).then((proxy) => {
    systemProxy.current = proxy;
    if (proxy !== undefined) engine.setSystemProxy(proxy);
  });
  // Starting at login (hidden, in the tray): Electron's login items on macOS and Windows, an autostart entry on Linux.
  const loginItems = loginItemsFor(process.platform, app, loginLaunch({
    execPath: process.execPath, isPackaged: app.isPackaged, appPath: app.getAppPath(), appImage: process.env.APPIMAGE, profileArgument: args.profile, profileDir,
  }));
  let startAtLogin = false;
  try {
    if (loginItems.refresh()) log(`design-sync: the app moved; starting at login now starts it from its new place (${loginItems.where})`);
    startAtLogin = loginItems.isOn();
    // The profile's record follows the system (what `design-sync status --diagnostics` tells on macOS and Windows).
    const record = loginItemRecord(settings.read().startAtLogin, startAtLogin);
    if (record) settings.update(record);
  } catch (error) {
    log(`design-sync: whether the app starts at login cannot be read from ${loginItems.where} (${error instanceof Error ? error.message : String(error)})`);
  }
  if (tokens.describe().includes('password built into the app')) log(`design-sync: the sign-in will be ${tokens.describe()}`);

  const showWindow = (route?: string) => {
    if (revealWindow(window) === 'create-window') window = createWindow();
    if (route && window) void window.loadURL(`${APP_INDEX_URL}${route}`);
  };
  const openOutside = (url: string, what: string) => {
    // Only the service's design pages and sign-in page leave the app (rule 1: never a design's files).
    const decision = decideNewWindow(url, { serviceUrl: settings.read().serviceUrl ?? null, webUrl: settings.read().webUrl ?? null });
    if (decision.openExternally) void shell.openExternal(decision.openExternally);
    else log(`design-sync: refused to open ${what} (${decision.refusal})`);
  };
  const notifier = createNotifier({
    words: () => words.current(),
    show(notice) {
      if (!Notification.isSupported()) return;
      const native = new Notification({ title: notice.title, body: notice.body });
      native.on('click', () => showWindow(notice.route));
      native.show();
    },
  });
  // Updates from the feed built into the app: checked at start and daily, installed on quit or "Restart now" (updates/).
  const updates = createAppUpdates({ log, open: (route) => showWindow(route), words: () => words.current(), changed: (view) => {
    updateTray();
    updateMenu();
    if (window && !window.isDestroyed()) sendContractEvent([window.webContents], { type: 'event', name: 'updates.changed', payload: view });
  } });
  const updateMenu = () => Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(
    { platform: process.platform, isPackaged: app.isPackaged, serviceUrl: settings.read().serviceUrl ?? null, webUrl: webAddressOf(settings.read()), updates: updates.view(), intl: words.current() },
    { openServiceSite: (url) => void shell.openExternal(new URL(url).origin), quit: () => app.quit(), checkForUpdates: () => updates.checkNow(), restartToUpdate: () => updates.restartNow() },
  )));

  const engine = new EngineProcessHost(
    paths.engineProcess,
    () => ({ profileDir, userAgent: `design-sync/${app.getVersion()} (Electron ${process.versions.electron})`, settings: settings.read(), tokenDescription: tokens.describe(), tokenKeptIn: tokens.keptIn(), systemLanguages: systemLanguages(), startAtLogin, ...(args.service ? { serviceUrl: args.service } : {}), ...(systemProxy.current !== undefined ? { systemProxy: systemProxy.current } : {}) }),
    {
      tokens,
      proxyPassword,
      saveSettings: (next: EngineSettings) => {
        const before = settings.read().serviceUrl;
        settings.update(next);
        if (next.serviceUrl && next.serviceUrl !== before) proxyForService(next.serviceUrl);
        void words.follow(next.language, systemLanguages());
      },
      openExternal: (url) => openOutside(url, 'an address in the browser'),
      log,
      setStartAtLogin: async (on) => {
        startAtLogin = await loginItems.set(on);
        updateTray();
        return startAtLogin;
      },
    },
    (problem) => dialog.showErrorBox('design-sync', problem.kind === 'keeps-stopping' ? words.current().formatMessage({ id: 'shell.engine.keepsStopping' }) : problem.message),
    app.isPackaged ? undefined : app.getAppPath(),
  );

  hardenSession(session.defaultSession, { appOrigin: APP_ORIGIN, allowDevTools: shouldAllowDevTools(app.isPackaged), log });
  protocol.handle(APP_SCHEME, appProtocolHandler({
    rendererDir: paths.renderer,
    headers: appResponseHeaders(),
    file: (address) => engine.file(address),
    drop: appDropHandler({ incomingDir: profile.incomingDir, headers: appResponseHeaders(), adopt: (drop) => engine.drop(drop) }),
    thumbnail: appThumbnailHandler({ incomingDir: profile.incomingDir, headers: appResponseHeaders(), adopt: (staged) => engine.thumbnail(staged) }),
  }));

  registerContractIpc(ipcMain, {
    isTrusted: (event) => {
      const refusal = senderRefusal(event, { webContentsIds: window && !window.isDestroyed() ? [window.webContents.id] : [], appOrigin: APP_ORIGIN });
      if (refusal) log(`design-sync: refused a contract request (${refusal})`);
      return refusal === null;
    },
    // Updates are the main process's own; everything else is the engine's.
    request: (name, input) => (isUpdatesRequest(name) ? Promise.resolve(answerUpdatesRequest(name, input, updates)) : engine.request(name, input)),
    openPath: (path) => shell.openPath(path),
    log,
  });

  const updateTray = () => {
    if (!tray) return;
    const view = trayView(lastSync, lastAccount, null, words.current());
    tray.setImage(nativeImage.createFromPath(join(paths.trayIcons, `${view.iconName}.png`)));
    tray.setToolTip(view.tooltip);
    tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(view, lastSync, {
      openWindow: () => showWindow(),
      openSyncFolder: (folder) => void shell.openPath(folder),
      // Its outcome shows as the tray's state (sync.changed); a refusal goes to the log.
      syncNow: () => void engine.request('sync.now', {}).then((outcome) => {
        if (!outcome.ok) log(`design-sync: Sync now was refused (${outcome.problem.message})`);
      }),
      pauseUploads: () => void engine.request('queue.pause', { target: 'all' }),
      pauseUploadsFor: (length) => void engine.request('queue.pause', { target: 'all', for: length }),
      resumeUploads: () => void engine.request('queue.resume', { target: 'all' }),
      quit: () => app.quit(),
      checkForUpdates: () => updates.checkNow(),
      restartToUpdate: () => updates.restartNow(),
    }, {
      startAtLogin,
      // Through the engine, as the window's Settings does, so that the profile records it (the tray follows the answer).
      setStartAtLogin: (on) => void engine.request('settings.update', { startAtLogin: on }).then((outcome) => {
        if (!outcome.ok) log(`design-sync: Start at login was not changed (${outcome.problem.message})`);
        updateTray();
      }),
    }, updates.view(), words.current())));
  };

  languageChanged = () => {
    updateTray();
    updateMenu();
  };

  engine.onEvent((event) => {
    if (window && !window.isDestroyed()) sendContractEvent([window.webContents], event);
    if (event.name === 'sync.changed') {
      lastSync = event.payload;
      notifier.syncChanged(event.payload);
      updates.syncChanged(event.payload);
    }
    if (event.name === 'account.changed') {
      lastAccount = event.payload;
      notifier.accountChanged(event.payload);
      updateMenu();
    }
    if (event.name === 'queue.item') notifier.queueItem(event.payload);
    if (event.name === 'sync.changed' || event.name === 'account.changed') updateTray();
  });

  function createWindow(): BrowserWindow {
    const created = new BrowserWindow(mainWindowOptions({ preloadPath: paths.preload, darkBackground: nativeTheme.shouldUseDarkColors }));
    const contents = created.webContents;
    const refuseNavigation = (event: { preventDefault(): void }, url: string) => {
      if (decideNavigation(url, { appOrigin: APP_ORIGIN }) === 'deny') {
        event.preventDefault();
        log('design-sync: the window tried to leave the app; refused');
      }
    };
    contents.on('will-navigate', refuseNavigation);
    contents.on('will-redirect', refuseNavigation);
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      openOutside(url, 'a window');
      return { action: 'deny' };
    });
    created.once('ready-to-show', () => created.show());
    // Closing the window keeps syncing in the background (the tray stays); quitting is in the tray and app menus.
    created.on('close', (event) => {
      if (!quitting && tray) {
        event.preventDefault();
        created.hide();
      }
    });
    void created.loadURL(APP_INDEX_URL);
    return created;
  }

  // Another launch reveals the window, unless it is the login item's (--hidden) finding the app already running.
  app.on('second-instance', (_event, argv) => {
    if (!parseShellArguments(argv.slice(1)).hidden) showWindow();
  });
  app.on('activate', () => showWindow());
  app.on('window-all-closed', () => {
    if (!tray) app.quit();
  });
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    notifier.dispose();
    updates.dispose();
    void engine.close(QUIT_DRAIN_MS, QUIT_TIMEOUT_MS).finally(() => updates.afterEngineClosed(() => app.quit()));
  });

  try {
    await engine.start();
  } catch (error) {
    dialog.showErrorBox(words.current().formatMessage({ id: 'notifications.startFailed.title' }), error instanceof Error ? error.message : String(error));
    app.exit(1);
    return;
  }
  try {
    tray = new Tray(nativeImage.createFromPath(join(paths.trayIcons, 'tray-not-set-up.png')));
    tray.on('click', () => showWindow());
  } catch (error) {
    log(`design-sync: no tray on this desktop (${error instanceof Error ? error.message : String(error)}); closing the window quits`);
  }
  updateTray();
  updateMenu();
  updates.start();
  // Started at login: the tray only (a desktop without a tray gets the window, or the app could not be reached).
  if (!tray || !(args.hidden || loginItems.startedAtLogin())) showWindow();
}
