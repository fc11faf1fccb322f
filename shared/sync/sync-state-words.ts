import type { OverallSyncState, SyncReasonCode, SyncView } from '../contract/views';

/** The overall sync state in words: the same in the window's status pill, the tray and `design-sync status`. */
export const SYNC_STATE_LABELS: Record<OverallSyncState, string> = {
  'not-set-up': 'Sync not set up',
  'up-to-date': 'Up to date',
  syncing: 'Syncing',
  paused: 'Paused',
  attention: 'Waiting for you',
  offline: 'Offline',
  'signed-out': 'Signed out',
  error: 'Error',
};

/**
 * How much is sent, in whole percent: of the current burst of uploads when there is one (so it agrees with "Uploading
 * 3 of 7 · 12 MB of 40 MB"), else of what is uploading now; null when not syncing or the size is unknown.
 */
export function syncProgressPercent(sync: Pick<SyncView, 'state' | 'bytesSent' | 'bytesTotal' | 'uploads'>): number | null {
  if (sync.state !== 'syncing') return null;
  const { bytesSent, bytesTotal } = sync.uploads && sync.uploads.bytesTotal > 0 ? sync.uploads : sync;
  if (!(bytesTotal > 0)) return null;
  // Still syncing: every byte handed over is not yet every file on the service.
  return Math.min(99, Math.max(0, Math.floor((bytesSent / bytesTotal) * 100)));
}

/** "Syncing 42%", "Up to date", "Waiting for you"… */
export function syncStateLabel(sync: Pick<SyncView, 'state' | 'bytesSent' | 'bytesTotal' | 'uploads'>): string {
  const percent = syncProgressPercent(sync);
  return percent === null ? SYNC_STATE_LABELS[sync.state] : `${SYNC_STATE_LABELS[sync.state]} ${percent}%`;
}

/** What syncReasonWords needs: the reason's code and its facts. */
export type SyncReasonFacts = Pick<SyncView, 'reasonCode' | 'counts' | 'folder' | 'serviceUrl' | 'until' | 'detail'>;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "10:42", local time. */
function clockTime(iso: string): string {
  const at = new Date(iso);
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}:${String(at.getSeconds()).padStart(2, '0')}`;
}

/** "Pause until tomorrow" ends at the next 08:00 of the computer's time (at 01:00, that same morning). */
export const PAUSE_MORNING_HOUR = 8;
/** That hour in the menus' words. */
export const PAUSE_MORNING_WORDS = `${PAUSE_MORNING_HOUR}:00`;

/**
 * When a timed pause ends, local time: "14:30" today, "tomorrow 08:00", else "Mon 3 Dec 08:00" (`now` for tests).
 */
export function pauseEndWords(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  const time = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  const day = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).getTime();
  if (day(at) === day(now)) return time;
  if (day(at) === tomorrow) return `tomorrow ${time}`;
  return `${at.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short' })} ${time}`;
}

/** "The service at http://127.0.0.1:4010 cannot be reached." — said once, without the network's codes (they are in the engine log). */
export function connectivityWords(serviceUrl: string | null): string {
  return serviceUrl ? `The service at ${serviceUrl} cannot be reached.` : 'The service cannot be reached.';
}

/**
 * What the state means and what to do, in words, from its code and facts: the only place these sentences are made,
 * so the window's pill, its Sync view, the tray, notifications and `design-sync status` say the same thing. Null when
 * there is nothing to add to the label ("Up to date").
 */
export function syncReasonWords(sync: SyncReasonFacts): string | null {
  const { counts } = sync;
  const pending = counts.waiting + counts.running;
  switch (sync.reasonCode as SyncReasonCode) {
    case 'no-service': return 'Choose the service to sync with.';
    case 'no-folder': return 'Choose a sync folder to sync your designs with.';
    case 'in-step': return null;
    case 'watcher-degraded': return sync.detail ?? 'Watching the sync folder failed: changes are still found by periodic rescans.';
    case 'looking': return 'Looking for changes.';
    case 'sending': return pending > 0 ? `${plural(pending, 'change', 'changes')} to send.` : 'Sending your changes.';
    case 'rate-limited':
      return sync.until ? `The service asked to slow down: sending resumes at ${clockTime(sync.until)}.` : 'The service asked to slow down: sending resumes shortly.';
    case 'uploads-paused':
      return sync.until ? `Paused until ${pauseEndWords(sync.until)}, then uploads resume by themselves.` : 'Uploads are paused: resume to send your changes.';
    case 'not-running': return 'Sync is not running: start it to keep the folder in step.';
    case 'content-policy':
      return 'Confirm that you upload only designs and files you have the right to publish, under the service\'s content policy. Nothing is sent until you do.';
    case 'items-need-you': return `${plural(counts.attention, 'change waits', 'changes wait')} for you in the queue.`;
    // A proxy's failure is said in its own words (they name the proxy and what to check), not as the service's.
    case 'service-unreachable': return `${sync.detail ?? connectivityWords(sync.serviceUrl)} Changes are kept and sent when it is back.`;
    case 'signed-out': return 'Sign in to sync your designs.';
    case 'sign-in-refused': return 'The service no longer accepts your sign-in: sign in again. Changes here are kept meanwhile.';
    case 'folder-unavailable': return sync.detail ?? `The sync folder ${sync.folder ?? ''} is not there as it was: nothing is sent until it is back.`;
    case 'changes-failed': return `${plural(counts.failed, 'change', 'changes')} failed: retry or cancel ${counts.failed === 1 ? 'it' : 'them'} in the queue.`;
    case 'queue-locked': return sync.detail ?? 'Another design-sync process sends this profile\'s queue.';
    case 'sync-failed': return 'Sync could not start: the engine log says why. Stop and start syncing to try again.';
    case 'service-failed': return 'The service had a problem when it was read for changes: it is tried again by itself.';
  }
}
