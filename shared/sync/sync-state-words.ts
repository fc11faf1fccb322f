import type { OverallSyncState, SyncReasonCode, SyncView } from '../contract/views';
import { ENGLISH_INTL, type Words } from '../i18n/create-intl';
import { engineWordsText } from '../i18n/engine-words';
import type { MessageId } from '../i18n/messages';

/** The overall sync state's words, by state: the same in the window's status pill, the tray and `design-sync status`. */
const SYNC_STATE_MESSAGES: Record<OverallSyncState, MessageId> = {
  'not-set-up': 'sync.state.notSetUp',
  'up-to-date': 'sync.state.upToDate',
  syncing: 'sync.state.syncing',
  paused: 'sync.state.paused',
  attention: 'sync.state.attention',
  offline: 'sync.state.offline',
  'signed-out': 'sync.state.signedOut',
  error: 'sync.state.error',
};

/** The overall sync state in words ("Up to date", "Waiting for you"), in the locale of `intl` (English by default). */
export function syncStateName(state: OverallSyncState, intl: Words = ENGLISH_INTL): string {
  return intl.formatMessage({ id: SYNC_STATE_MESSAGES[state] });
}

/** The overall sync state in English words, by state (syncStateName in another locale). */
export const SYNC_STATE_LABELS: Record<OverallSyncState, string> = Object.fromEntries(
  Object.keys(SYNC_STATE_MESSAGES).map((state) => [state, syncStateName(state as OverallSyncState)]),
) as Record<OverallSyncState, string>;

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
export function syncStateLabel(sync: Pick<SyncView, 'state' | 'bytesSent' | 'bytesTotal' | 'uploads'>, intl: Words = ENGLISH_INTL): string {
  const percent = syncProgressPercent(sync);
  return percent === null ? syncStateName(sync.state, intl) : intl.formatMessage({ id: 'sync.state.syncingPercent' }, { percent });
}

/** What syncReasonWords needs: the reason's code and its facts. */
export type SyncReasonFacts = Pick<SyncView, 'reasonCode' | 'counts' | 'folder' | 'serviceUrl' | 'until' | 'detail' | 'detailWords'>;

/** "10:42:05", local time, 24-hour (or as the locale writes a time of day). */
function clockTime(iso: string, intl: Words): string {
  return intl.formatTime(Date.parse(iso), { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** "Pause until tomorrow" ends at the next 08:00 of the computer's time (at 01:00, that same morning). */
export const PAUSE_MORNING_HOUR = 8;
/** That hour in the menus' words. */
export const PAUSE_MORNING_WORDS = `${PAUSE_MORNING_HOUR}:00`;

/**
 * When a timed pause ends, local time: "14:30" today, "tomorrow 08:00", else "Mon 3 Dec 08:00" (`now` for tests).
 */
export function pauseEndWords(iso: string, now: Date = new Date(), intl: Words = ENGLISH_INTL): string {
  const at = new Date(iso);
  const time = intl.formatTime(at, { hour: '2-digit', minute: '2-digit' });
  const day = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).getTime();
  if (day(at) === day(now)) return time;
  if (day(at) === tomorrow) return intl.formatMessage({ id: 'sync.pause.tomorrow' }, { time });
  return intl.formatMessage({ id: 'sync.pause.onDay' }, { day: intl.formatDate(at, { weekday: 'short', day: 'numeric', month: 'short' }), time });
}

/** "The service at http://127.0.0.1:4010 cannot be reached." — said once, without the network's codes (they are in the engine log). */
export function connectivityWords(serviceUrl: string | null, intl: Words = ENGLISH_INTL): string {
  return serviceUrl ? intl.formatMessage({ id: 'sync.connectivity.at' }, { url: serviceUrl }) : intl.formatMessage({ id: 'sync.connectivity.unknown' });
}

/**
 * What the state means and what to do, in words, from its code and facts: the only place these sentences are made,
 * so the window's pill, its Sync view, the tray, notifications and `design-sync status` say the same thing. Null when
 * there is nothing to add to the label ("Up to date").
 */
export function syncReasonWords(sync: SyncReasonFacts, intl: Words = ENGLISH_INTL): string | null {
  const { counts } = sync;
  const pending = counts.waiting + counts.running;
  const say = (id: MessageId, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  // The engine's detail in the locale's words when it came with its facts; else as it came (a proxy's words).
  const detail = sync.detailWords ? engineWordsText(intl, sync.detailWords) : sync.detail;
  switch (sync.reasonCode as SyncReasonCode) {
    case 'no-service': return say('sync.reason.noService');
    case 'no-folder': return say('sync.reason.noFolder');
    case 'in-step': return null;
    case 'watcher-degraded': return detail ?? say('sync.reason.watcherDegraded');
    case 'looking': return say('sync.reason.looking');
    case 'sending': return pending > 0 ? say('sync.reason.sendingCount', { count: pending }) : say('sync.reason.sending');
    case 'rate-limited':
      return sync.until ? say('sync.reason.rateLimitedUntil', { time: clockTime(sync.until, intl) }) : say('sync.reason.rateLimited');
    case 'uploads-paused':
      return sync.until ? say('sync.reason.pausedUntil', { until: pauseEndWords(sync.until, new Date(), intl) }) : say('sync.reason.paused');
    case 'not-running': return say('sync.reason.notRunning');
    case 'content-policy': return say('sync.reason.contentPolicy');
    case 'items-need-you': return say('sync.reason.itemsNeedYou', { count: counts.attention });
    // A proxy's failure is said in its own words (they name the proxy and what to check), not as the service's.
    case 'service-unreachable': return say('sync.reason.serviceUnreachable', { why: detail ?? connectivityWords(sync.serviceUrl, intl) });
    case 'signed-out': return say('sync.reason.signedOut');
    case 'sign-in-refused': return say('sync.reason.signInRefused');
    case 'folder-unavailable': return detail ?? say('sync.reason.folderUnavailable', { folder: sync.folder ?? '' });
    case 'changes-failed': return say('sync.reason.changesFailed', { count: counts.failed });
    case 'queue-locked': return detail ?? say('sync.reason.queueLocked');
    case 'sync-failed': return say('sync.reason.syncFailed');
    case 'service-failed': return say('sync.reason.serviceFailed');
  }
}
