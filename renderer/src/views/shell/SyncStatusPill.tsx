import type { OverallSyncState } from '../../../../shared';
import { useSync } from '../../stores/sync-store';

const LABELS: Record<OverallSyncState, string> = {
  'not-set-up': 'Sync not set up',
  'up-to-date': 'Up to date',
  syncing: 'Syncing',
  paused: 'Paused',
  offline: 'Offline',
  attention: 'Needs attention',
  error: 'Error',
};

/** The one overall state of sync; its reason (what to do) is always one hover or focus away. */
export function SyncStatusPill() {
  const sync = useSync((store) => store.sync);
  if (!sync) return null;
  const progress = sync.state === 'syncing' && sync.bytesTotal > 0 ? ` ${Math.floor((sync.bytesSent / sync.bytesTotal) * 100)}%` : '';
  return (
    <p className={`status-pill status-${sync.state}`} role="status" title={sync.reason ?? undefined}>
      <span className="status-dot" aria-hidden="true" />
      {LABELS[sync.state]}{progress}
      {sync.reason ? <span className="visually-hidden">: {sync.reason}</span> : null}
    </p>
  );
}
