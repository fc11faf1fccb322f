import type { MenuItemConstructorOptions } from 'electron';
import { ENGLISH_INTL, type Words } from '../../../shared/i18n/create-intl';
import type { MessageId } from '../../../shared/i18n/messages';
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
  /** The words' locale (createTranslator): every item, the roles' too, is labelled from the catalogs. English by default. */
  intl?: Words;
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
 * items (Check for Updates…, Restart to Update) are in the app menu on macOS, in Help elsewhere. Every label comes
 * from the catalogs in the locale of `intl`, the roles' too (Electron's own labels for them are English).
 */
export function appMenuTemplate({ platform, isPackaged, appName = 'design-sync', serviceUrl: apiUrl, webUrl, updates = null, intl = ENGLISH_INTL }: AppMenuInput, actions: AppMenuActions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const serviceUrl = apiUrl === null ? null : webUrl ?? apiUrl;
  const say = (id: MessageId, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const role = (name: NonNullable<MenuItemConstructorOptions['role']>, id: MessageId, values?: Record<string, string>): MenuItemConstructorOptions => ({ role: name, label: say(id, values) });
  const quit: MenuItemConstructorOptions = { id: 'quit', label: mac ? say('menu.app.quit', { app: appName }) : say('menu.file.quit'), accelerator: 'CmdOrCtrl+Q', click: () => actions.quit() };
  const template: MenuItemConstructorOptions[] = [];
  const updateItems = updates ? updateMenuItems(updates, actions, intl) : [];
  if (mac) {
    template.push({
      label: appName,
      submenu: [
        role('about', 'menu.app.about', { app: appName }),
        ...updateItems,
        { type: 'separator' },
        role('services', 'menu.app.services'),
        { type: 'separator' },
        role('hide', 'menu.app.hide', { app: appName }),
        role('hideOthers', 'menu.app.hideOthers'),
        role('unhide', 'menu.app.showAll'),
        { type: 'separator' },
        quit,
      ],
    });
  }
  const close = role('close', 'menu.file.closeWindow');
  template.push({ label: say('menu.file.title'), submenu: mac ? [close] : [close, { type: 'separator' }, quit] });
  template.push({
    label: say('menu.edit.title'),
    submenu: [
      role('undo', 'menu.edit.undo'),
      role('redo', 'menu.edit.redo'),
      { type: 'separator' },
      role('cut', 'menu.edit.cut'),
      role('copy', 'menu.edit.copy'),
      role('paste', 'menu.edit.paste'),
      ...(mac ? [role('pasteAndMatchStyle', 'menu.edit.pasteAndMatchStyle')] : []),
      role('delete', 'menu.edit.delete'),
      { type: 'separator' },
      role('selectAll', 'menu.edit.selectAll'),
    ],
  });
  const development: MenuItemConstructorOptions[] = isPackaged ? [] : [role('reload', 'menu.view.reload'), role('forceReload', 'menu.view.forceReload'), role('toggleDevTools', 'menu.view.toggleDevTools'), { type: 'separator' }];
  template.push({
    label: say('menu.view.title'),
    submenu: [...development, role('resetZoom', 'menu.view.actualSize'), role('zoomIn', 'menu.view.zoomIn'), role('zoomOut', 'menu.view.zoomOut'), { type: 'separator' }, role('togglefullscreen', 'menu.view.fullScreen')],
  });
  template.push({
    role: 'windowMenu',
    label: say('menu.window.title'),
    submenu: mac
      ? [role('minimize', 'menu.window.minimize'), role('zoom', 'menu.window.zoom'), { type: 'separator' }, role('front', 'menu.window.front')]
      : [role('minimize', 'menu.window.minimize'), role('close', 'menu.window.close')],
  });
  template.push({
    role: 'help',
    label: say('menu.help.title'),
    submenu: [{
      id: 'service-site',
      label: serviceUrl ? say('menu.help.openSite', { site: siteName(serviceUrl) ?? serviceUrl }) : say('menu.help.openServiceSite'),
      enabled: serviceUrl !== null,
      click: () => { if (serviceUrl) actions.openServiceSite(serviceUrl); },
    }, ...(mac || updateItems.length === 0 ? [] : [{ type: 'separator' } as const, ...updateItems])],
  });
  return template;
}

/** "Check for Updates…" (its state in words, greyed out, while it cannot be used) and "Restart to Update" once one is ready. */
function updateMenuItems(updates: UpdatesView, actions: AppMenuActions, intl: Words): MenuItemConstructorOptions[] {
  const check: MenuItemConstructorOptions = canCheckForUpdates(updates)
    ? { id: 'check-for-updates', label: intl.formatMessage({ id: 'menu.updates.check' }), click: () => actions.checkForUpdates?.() }
    : { id: 'check-for-updates', label: updatesStateWords(updates, intl), enabled: false };
  const restart = updates.version ? intl.formatMessage({ id: 'menu.updates.restart' }, { version: updates.version }) : intl.formatMessage({ id: 'menu.updates.restartNew' });
  return canRestartToUpdate(updates)
    ? [check, { id: 'restart-to-update', label: restart, click: () => actions.restartToUpdate?.() }]
    : [check];
}

/** The site's host ("designs.example"), or null when the address cannot be read. */
function siteName(serviceUrl: string): string | null {
  try {
    return new URL(serviceUrl).host;
  } catch {
    return null;
  }
}
