import type { MenuItemConstructorOptions } from 'electron';

export interface AppMenuInput {
  platform: NodeJS.Platform;
  /** `app.isPackaged`: a shipped app has no Reload and no DevTools. */
  isPackaged: boolean;
  appName?: string;
  /** The service's address (null: none configured, Help's item is greyed out). */
  serviceUrl: string | null;
  /** The service's web site, opened by Help (profile/web-address.ts); the service's address when not given. */
  webUrl?: string | null;
}

export interface AppMenuActions {
  /** Opens the service's site in the system browser (through the new-window policy's checks). */
  openServiceSite(url: string): void;
  /** Quits the way the tray does: uploads in flight finish or stop safely first. */
  quit(): void;
}

/**
 * The application menu with the usual roles. macOS gets its app menu (About, Services, Hide…, Quit) and a Window menu
 * with "Bring All to Front"; other platforms put Quit in File. Reload and DevTools only in a development build.
 */
export function appMenuTemplate({ platform, isPackaged, appName = 'design-sync', serviceUrl: apiUrl, webUrl }: AppMenuInput, actions: AppMenuActions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const serviceUrl = apiUrl === null ? null : webUrl ?? apiUrl;
  const quit: MenuItemConstructorOptions = { id: 'quit', label: mac ? `Quit ${appName}` : 'Quit', accelerator: 'CmdOrCtrl+Q', click: () => actions.quit() };
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: appName,
      submenu: [
        { role: 'about' },
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
    }],
  });
  return template;
}

function siteName(serviceUrl: string): string {
  try {
    return new URL(serviceUrl).host;
  } catch {
    return 'the service\'s site';
  }
}
