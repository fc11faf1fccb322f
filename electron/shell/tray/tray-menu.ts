import type { MenuItemConstructorOptions } from 'electron';
import type { SyncView } from '../../../shared';
import { canCheckForUpdates, canRestartToUpdate, updatesStateWords, type UpdatesView } from '../../../shared/updates/updates-view';
import { ENGLISH_INTL, type Words } from '../../../shared/i18n/create-intl';
import type { MessageId } from '../../../shared/i18n/messages';
import { PAUSE_MORNING_HOUR, pauseEndWords } from '../../../shared/sync/sync-state-words';
import type { TrayView } from './tray-state';

export interface TrayMenuActions {
  openWindow(): void;
  openSyncFolder(folder: string): void;
  /** A full pass at once: the service's changes into the folder, the folder's into the queue. */
  syncNow(): void;
  pauseUploads(): void;
  /** Pauses all uploads for an hour, or until tomorrow (the next 08:00): they resume by themselves (absent: not offered). */
  pauseUploadsFor?(length: 'hour' | 'tomorrow'): void;
  resumeUploads(): void;
  /** Quits the way the app menu does: uploads in flight finish or stop safely first. */
  quit(): void;
  /** Asks the update feed now (electron/shell/updates/). */
  checkForUpdates?(): void;
  /** Installs the downloaded update and starts it again (waiting for files being sent to finish). */
  restartToUpdate?(): void;
}

/** Starting at login, as the tray shows and changes it (absent: the item is not shown). */
export interface TrayStartAtLogin {
  startAtLogin: boolean;
  setStartAtLogin(on: boolean): void;
}

/**
 * The tray's menu: the state in words (not clickable), open the window, open the sync folder and sync now (greyed out
 * when there is no sync folder), pause (until resumed, for 1 hour, until tomorrow) or resume uploads (greyed out until
 * sync is set up), start at login (a
 * checkbox), updates (when given: check for updates, restart to update), quit; in the locale of `intl` (English by
 * default), as `tray` was made.
 */
export function trayMenuTemplate(tray: TrayView, sync: SyncView | null, actions: TrayMenuActions, login?: TrayStartAtLogin, updates: UpdatesView | null = null, intl: Words = ENGLISH_INTL): MenuItemConstructorOptions[] {
  const folder = sync?.folder ?? null;
  const paused = sync?.queuePaused ?? false;
  const say = (id: MessageId) => intl.formatMessage({ id });
  return [
    { id: 'status', label: tray.label, enabled: false },
    { type: 'separator' },
    { id: 'open-window', label: say('tray.menu.open'), click: () => actions.openWindow() },
    { id: 'open-folder', label: say('tray.menu.openFolder'), enabled: folder !== null, click: () => { if (folder !== null) actions.openSyncFolder(folder); } },
    { id: 'sync-now', label: say('tray.menu.syncNow'), enabled: folder !== null, click: () => { if (folder !== null) actions.syncNow(); } },
    { type: 'separator' },
    ...(paused ? [resumeItem(sync, folder, actions, intl)] : pauseItems(folder, actions, intl)),
    { type: 'separator' },
    ...(login ? [{ id: 'start-at-login', label: say('tray.menu.startAtLogin'), type: 'checkbox' as const, checked: login.startAtLogin, click: () => login.setStartAtLogin(!login.startAtLogin) }] : []),
    ...(updates ? updateItems(updates, actions, intl) : []),
    { id: 'quit', label: say('tray.menu.quit'), click: () => actions.quit() },
  ];
}

/** "Resume uploads", saying until when a timed pause lasts. */
function resumeItem(sync: SyncView | null, folder: string | null, actions: TrayMenuActions, intl: Words): MenuItemConstructorOptions {
  const until = sync?.queuePausedUntil ?? null;
  const label = until
    ? intl.formatMessage({ id: 'tray.menu.resumePausedUntil' }, { end: pauseEndWords(until, new Date(), intl) })
    : intl.formatMessage({ id: 'tray.menu.resume' });
  return { id: 'resume', label, enabled: folder !== null, click: () => actions.resumeUploads() };
}

/** "Pause uploads" (until resumed), and, when the host can, for an hour or until tomorrow morning. */
function pauseItems(folder: string | null, actions: TrayMenuActions, intl: Words): MenuItemConstructorOptions[] {
  const enabled = folder !== null;
  const items: MenuItemConstructorOptions[] = [{ id: 'pause', label: intl.formatMessage({ id: 'tray.menu.pause' }), enabled, click: () => actions.pauseUploads() }];
  if (actions.pauseUploadsFor) {
    // The morning's hour as the locale writes a time of day, as the Sync view says it ("8:00").
    const morning = intl.formatTime(new Date(2000, 0, 1, PAUSE_MORNING_HOUR), { hour: 'numeric', minute: '2-digit' });
    items.push(
      { id: 'pause-hour', label: intl.formatMessage({ id: 'tray.menu.pauseHour' }), enabled, click: () => actions.pauseUploadsFor?.('hour') },
      { id: 'pause-tomorrow', label: intl.formatMessage({ id: 'tray.menu.pauseTomorrow' }, { time: morning }), enabled, click: () => actions.pauseUploadsFor?.('tomorrow') },
    );
  }
  return items;
}

/**
 * The update items (given `updates`): "Restart to update" once a verified update waits, "Check for updates" (its state
 * in words, greyed out, while a check or download is under way or the copy cannot update itself).
 */
function updateItems(updates: UpdatesView, actions: TrayMenuActions, intl: Words): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] = [];
  if (canRestartToUpdate(updates)) {
    const label = updates.version ? intl.formatMessage({ id: 'tray.menu.restartToUpdate' }, { version: updates.version }) : intl.formatMessage({ id: 'tray.menu.restartToUpdateNew' });
    items.push({ id: 'restart-to-update', label, click: () => actions.restartToUpdate?.() });
  }
  items.push(canCheckForUpdates(updates)
    ? { id: 'check-for-updates', label: intl.formatMessage({ id: 'tray.menu.checkForUpdates' }), click: () => actions.checkForUpdates?.() }
    : { id: 'check-for-updates', label: updatesStateWords(updates, intl), enabled: false });
  items.push({ type: 'separator' });
  return items;
}
