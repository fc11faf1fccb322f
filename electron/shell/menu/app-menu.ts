import type { MenuItemConstructorOptions } from 'electron';
import { canCheckForUpdates, canRestartToUpdate, updatesStateWords, type UpdatesView } from '../../../shared/updates/updates-view';

export interface AppMenuInput {
  platform: NodeJS.Platform;
  /** `app.isPackaged`: a shipped app has no Reload and no DevTools. */
  isPackaged: boolean;
  appName?: string;
  /** The service's address (null: none configured, Help's item is greyed out). */
  serviceUrl: string | null;
  /** The service's web site, opened by Help (profile/web-address.ts); the service's address when not given. */
  webUrl?: string | null;
  /** The app's updates (electron/shell/updates/): absent, the menu has no update items. */
  updates?: UpdatesView | null;
}

export interface AppMenuActions {
  /** Opens the service's site in the system browser (through the new-window policy's checks). */
  openServiceSite(url: string): void;
  /** Quits the way the tray does: uploads in flight finish or stop safely first. */
  quit(): void;
  /** Asks the update feed now. */
  checkForUpdates?(): void;
  /** Installs the downloaded update and starts it again (waiting for files being sent to finish). */
  restartToUpdate?(): void;
}

/**
 * The application menu with the usual roles. macOS gets its app menu (About, Services, Hide…, Quit) and a Window menu
 * with "Bring All to Front"; other platforms put Quit in File. Reload and DevTools only in a development build. The update
 * items (Check for Updates…, Restart to Update) are in the app menu on macOS, in Help elsewhere.
 */
export function appMenuTemplate({ platform, isPackaged, appName = 'design-sync', serviceUrl: apiUrl, webUrl, updates = null }: AppMenuInput, actions: AppMenuActions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const serviceUrl = apiUrl === null ? null : webUrl ?? apiUrl;
  const quit: MenuItemConstructorOptions = { id: 'quit', label: mac ? `Quit ${appName}` : 'Quit', accelerator: 'CmdOrCtrl+Q', click: () => actions.quit() };
  const template: MenuItemConstructorOptions[] = [];
  const updateItems = updates ? updateMenuItems(updates, actions) : [];
  if (mac) {
    template.push({
      label: appName,
      submenu: [
        { role: 'about' },
        ...updateItems,
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        quit,
      ],
    });
  }
  template.push({ label: '&File', submenu: mac ? [{ role: 'close' }] : [{ role: 'close' }, { type: 'separator' }, quit] });
  template.push({
    label: '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      { type: 'separator' },
      { role: 'selectAll' },
    ],
  });
  const development: MenuItemConstructorOptions[] = isPackaged ? [] : [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }];
  template.push({
    label: '&View',
    submenu: [...development, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }],
  });
  template.push({
    role: 'windowMenu',
    submenu: mac
      ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close' }],
  });
  template.push({
    role: 'help',
    submenu: [{
      id: 'service-site',
      label: serviceUrl ? `Open ${siteName(serviceUrl)}` : 'Open the service\'s site',
      enabled: serviceUrl !== null,
      click: () => { if (serviceUrl) actions.openServiceSite(serviceUrl); },
    }, ...(mac || updateItems.length === 0 ? [] : [{ type: 'separator' } as const, ...updateItems])],
  });
  return template;
}

/** "Check for Updates…" (its state in words, greyed out, while it cannot be used) and "Restart to Update" once one is ready. */
function updateMenuItems(updates: UpdatesView, actions: AppMenuActions): MenuItemConstructorOptions[] {
  const check: MenuItemConstructorOptions = canCheckForUpdates(updates)
    ? { id: 'check-for-updates', label: 'Check for Updates…', click: () => actions.checkForUpdates?.() }
    : { id: 'check-for-updates', label: updatesStateWords(updates), enabled: false };
  return canRestartToUpdate(updates)
    ? [check, { id: 'restart-to-update', label: `Restart to Update to ${updates.version ?? 'the New Version'}`, click: () => actions.restartToUpdate?.() }]
    : [check];
}

function siteName(serviceUrl: string): string {
  try {
    return new URL(serviceUrl).host;
  } catch {
    return 'the service\'s site';
  }
}
