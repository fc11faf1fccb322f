import type { OverallSyncState, SyncView } from '../contract/views';

/** The overall sync state in words: the same in the window's status pill and the tray. */
export const SYNC_STATE_LABELS: Record<OverallSyncState, string> = {
  'not-set-up': 'Sync not set up',
  'up-to-date': 'Up to date',
  syncing: 'Syncing',
  paused: 'Paused',
  offline: 'Offline',
  attention: 'Needs attention',
  error: 'Error',
};

/** How much of what is uploading now is sent, in whole percent; null when not syncing or the size is unknown. */
export function syncProgressPercent(sync: Pick<SyncView, 'state' | 'bytesSent' | 'bytesTotal'>): number | null {
  if (sync.state !== 'syncing' || !(sync.bytesTotal > 0)) return null;
  return Math.min(100, Math.max(0, Math.floor((sync.bytesSent / sync.bytesTotal) * 100)));
}

/** "Syncing 42%", "Up to date", "Needs attention"… */
export function syncStateLabel(sync: Pick<SyncView, 'state' | 'bytesSent' | 'bytesTotal'>): string {
  const percent = syncProgressPercent(sync);
  return percent === null ? SYNC_STATE_LABELS[sync.state] : `${SYNC_STATE_LABELS[sync.state]} ${percent}%`;
}
