import { syncStateLabel } from '../../../../shared/sync/sync-state-words';
import { useSync } from '../../stores/sync-store';

/** The one overall state of sync; its reason (what to do) is always one hover or focus away. */
export function SyncStatusPill() {
  const sync = useSync((store) => store.sync);
  if (!sync) return null;
  return (
    <p className={`status-pill status-${sync.state}`} role="status" title={sync.reason ?? undefined}>
      <span className="status-dot" aria-hidden="true" />
      {syncStateLabel(sync)}
      {sync.reason ? <span className="visually-hidden">: {sync.reason}</span> : null}
    </p>
  );
}
