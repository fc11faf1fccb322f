import { ENGLISH_INTL, type Words } from '../i18n/create-intl';

/**
 * What the desktop app knows about its own updates, as the tray, the app menu and Settings show it. The shell owns it
 * (electron/shell/updates/); a window served by `design-sync ui` has no updates of its own and says so.
 */
export type UpdateState =
  /** This copy cannot update itself (a development build, no feed built in, a Linux package that is not an AppImage, the browser window). */
  | 'unavailable'
  /** Nothing checked yet since start. */
  | 'idle'
  | 'checking'
  | 'up-to-date'
  /** A newer version is being downloaded in the background (`percent`). */
  | 'downloading'
  /** Downloaded and verified: installs when design-sync quits, or now with "Restart now". */
  | 'ready'
  /** "Restart now" was chosen while files are being sent: installs as soon as the queue is idle. */
  | 'waiting-for-uploads'
  /** Quitting to install. */
  | 'installing'
  /** The last check or download failed (`reason`); tried again at `nextCheckAt`. */
  | 'failed';

export interface UpdatesView {
  state: UpdateState;
  /** The version running now (null where it is not known: the browser window). */
  currentVersion: string | null;
  /** The newer version found, downloading, or ready (null otherwise). */
  version: string | null;
  /** How far the download is, 0–100 (null when not downloading). */
  percent: number | null;
  /** Why: the problem of a failed check in words, or why updates are unavailable. */
  reason: string | null;
  /** Where updates come from: the feed's address built into the app, or null when none. */
  feed: string | null;
  /** The release channel followed ('latest': stable releases). */
  channel: string;
  lastCheckedAt: string | null;
  /** When the next check happens by itself (null: none planned). */
  nextCheckAt: string | null;
}

/** "Check for updates" does something now (not while a check or download is under way, nor once one is ready). */
export function canCheckForUpdates(view: UpdatesView): boolean {
  return view.state === 'idle' || view.state === 'up-to-date' || view.state === 'failed';
}

/** "Restart now" installs (a verified update is waiting). */
export function canRestartToUpdate(view: UpdatesView): boolean {
  return view.state === 'ready';
}

/** The state in one line, as the tray's menu item and Settings say it. */
export function updatesStateWords(view: UpdatesView, intl: Words = ENGLISH_INTL): string {
  const version = view.version ?? '?';
  switch (view.state) {
    case 'unavailable': return intl.formatMessage({ id: 'updates.state.unavailable' });
    case 'idle': return view.currentVersion === null ? intl.formatMessage({ id: 'updates.state.notChecked' }) : intl.formatMessage({ id: 'updates.state.version' }, { version: view.currentVersion });
    case 'checking': return intl.formatMessage({ id: 'updates.state.checking' });
    case 'up-to-date': return view.currentVersion === null ? intl.formatMessage({ id: 'updates.state.upToDate' }) : intl.formatMessage({ id: 'updates.state.upToDateVersion' }, { version: view.currentVersion });
    case 'downloading': return view.percent === null
      ? intl.formatMessage({ id: 'updates.state.downloading' }, { version })
      : intl.formatMessage({ id: 'updates.state.downloadingPercent' }, { version, percent: Math.floor(view.percent) });
    case 'ready': return intl.formatMessage({ id: 'updates.state.ready' }, { version });
    case 'waiting-for-uploads': return intl.formatMessage({ id: 'updates.state.waitingForUploads' }, { version });
    case 'installing': return intl.formatMessage({ id: 'updates.state.installing' }, { version });
    case 'failed': return intl.formatMessage({ id: 'updates.state.failed' });
  }
}

/** What a window served by `design-sync ui` is told: the browser window has no updates of its own. */
export const BROWSER_UPDATES_REASON = 'Updates come with the desktop app. This window is served by design-sync ui, which does not update itself: update design-sync the way you installed it.';
