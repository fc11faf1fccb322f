import { useState } from 'react';
import type { ConflictView, QueueEntry } from '../../../../shared';
import { contract } from '../../contract/contract';
import { useQueue } from '../../stores/queue-store';
import type { DecisionControls } from './decision-controls';

const leaf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'an unknown time');

/**
 * A file changed both here and on the service: both versions side by side, with when each was changed, and the
 * two ways out. Keeping only the service's version asks once more (the person's copy goes to the trash).
 */
export function ConflictChoice({ item, conflict, controls }: { item: QueueEntry; conflict: ConflictView; controls: DecisionControls }) {
  const act = useQueue((store) => store.act);
  const { disabled, describedBy } = controls;
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="conflict" role="group" aria-label={`Conflict on ${leaf(conflict.servicePath)}`}>
      <dl className="conflict-versions">
        <div>
          <dt>The service's version</dt>
          <dd><strong>{leaf(conflict.servicePath)}</strong>, changed {when(conflict.serviceChangedAt)}</dd>
        </div>
        <div>
          <dt>Your version, kept as</dt>
          <dd><strong>{leaf(conflict.copyPath)}</strong>, changed {when(conflict.copyChangedAt)}</dd>
        </div>
      </dl>
      {confirming ? (
        <div className="form-actions">
          <span>Move “{leaf(conflict.copyPath)}” to the trash and keep only the service's version?</span>
          <button type="button" className="danger" disabled={disabled} {...describedBy} onClick={() => void act(() => contract.request('queue.resolveConflict', { id: item.id, keep: 'service' }))}>Move my copy to the trash</button>
          <button type="button" onClick={() => setConfirming(false)}>Not now</button>
        </div>
      ) : (
        <div className="form-actions">
          <button type="button" className="primary" disabled={disabled} {...describedBy} onClick={() => void act(() => contract.request('queue.resolveConflict', { id: item.id, keep: 'both' }))}>Keep both (upload my copy as a new file)</button>
          <button type="button" disabled={disabled} {...describedBy} onClick={() => setConfirming(true)}>Keep only the service's version…</button>
        </div>
      )}
    </div>
  );
}
