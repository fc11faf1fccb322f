import { useId, useState } from 'react';
import type { SyncView as SyncState } from '../../../../shared';
import { PAUSE_MORNING_WORDS } from '../../../../shared/sync/sync-state-words';
import { contract } from '../../contract/contract';
import { useQueue } from '../../stores/queue-store';
import { useSync } from '../../stores/sync-store';
import { useAvailability } from '../use-availability';

/** The overall state in words, the sync folder (or choosing one), and syncing now, starting, stopping, pausing. */
export function SyncFolderPanel({ sync }: { sync: SyncState }) {
  const act = useQueue((store) => store.act);
  const [path, setPath] = useState('');
  const [syncingNow, setSyncingNow] = useState(false);
  // A full pass asks the service at once: off while it cannot be reached or nobody is signed in, saying why.
  const syncing = useAvailability().can('sync-now');
  const syncReasonId = useId();
  const syncNow = () => {
    setSyncingNow(true);
    void act(() => contract.request('sync.now', {})).then(refresh).finally(() => setSyncingNow(false));
  };
  const refresh = () => void useSync.getState().load();
  return (
    <section className="panel" aria-label="Sync folder">
      <p className={`sync-state status-${sync.state}`}><strong>{sync.reason ?? 'Everything is in step.'}</strong></p>
      {sync.folder ? (
        <>
          <p>Sync folder: <code>{sync.folder}</code></p>
          <div className="form-actions">
            <button type="button" onClick={syncNow} disabled={syncingNow || !syncing.enabled} aria-busy={syncingNow}
              aria-describedby={syncing.enabled ? undefined : syncReasonId}
              title="Looks at the service and the folder now, instead of waiting for the next check">{syncingNow ? 'Syncing…' : 'Sync now'}</button>
            {sync.running
              ? <button type="button" onClick={() => void act(() => contract.request('sync.stop', {})).then(refresh)}>Stop syncing</button>
              : <button type="button" className="primary" onClick={() => void act(() => contract.request('sync.start', {})).then(refresh)}>Start syncing</button>}
            {sync.queuePaused
              ? <button type="button" onClick={() => void act(() => contract.request('queue.resume', { target: 'all' })).then(refresh)}>Resume uploads</button>
              : <>
                <button type="button" onClick={() => void act(() => contract.request('queue.pause', { target: 'all' })).then(refresh)}>Pause uploads</button>
                {/* Timed pauses resume by themselves: nothing to remember to undo. */}
                <button type="button" onClick={() => void act(() => contract.request('queue.pause', { target: 'all', for: 'hour' })).then(refresh)}>Pause for 1 hour</button>
                <button type="button" onClick={() => void act(() => contract.request('queue.pause', { target: 'all', for: 'tomorrow' })).then(refresh)}
                  title={`Uploads resume by themselves at the next ${PAUSE_MORNING_WORDS} of this computer's time`}>Pause until tomorrow ({PAUSE_MORNING_WORDS})</button>
              </>}
          </div>
          {syncing.enabled ? null : <p id={syncReasonId} className="action-reason" data-testid="action-reason">{syncing.reason}</p>}
          {sync.watcherWarning ? <p className="own-note">{sync.watcherWarning}</p> : null}
        </>
      ) : (
        <form className="form-actions" aria-label="Choose the sync folder" onSubmit={(event) => {
          event.preventDefault();
          void act(() => contract.request('sync.chooseFolder', { path })).then(refresh);
        }}>
          <label htmlFor="sync-folder-path">Sync folder (full path; made if missing)</label>
          <input id="sync-folder-path" value={path} onChange={(event) => setPath(event.target.value)} placeholder="/home/you/Designs" />
          <button type="submit" className="primary">Choose</button>
        </form>
      )}
    </section>
  );
}
