import { useRef, useState, type RefObject } from 'react';
import type { ConflictView, QueueEntry } from '../../../../shared';
import { contract } from '../../contract/contract';
import { useQueue } from '../../stores/queue-store';
import { useOpenedInPlace } from '../use-escape';
import type { DecisionControls } from './decision-controls';

const leaf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'an unknown time');

/** The question asked before the person's copy goes to the trash: the focus starts on "Not now", which Escape also means. */
function ConfirmKeepService({ item, conflict, controls, returnTo, onCancel }: {
  item: QueueEntry; conflict: ConflictView; controls: DecisionControls; returnTo: RefObject<HTMLButtonElement | null>; onCancel(): void;
}) {
  const act = useQueue((store) => store.act);
  const { focusRef, onKeyDown } = useOpenedInPlace<HTMLButtonElement>(onCancel, returnTo);
  return (
    <div className="form-actions" role="group" aria-label="Keep only the service's version?" onKeyDown={onKeyDown}>
      <span>Move “{leaf(conflict.copyPath)}” to the trash and keep only the service's version?</span>
      <button type="button" className="danger" disabled={controls.disabled} {...controls.describedBy} onClick={() => void act(() => contract.request('queue.resolveConflict', { id: item.id, keep: 'service' }))}>Move my copy to the trash</button>
      <button type="button" ref={focusRef} onClick={onCancel}>Not now</button>
    </div>
  );
}

/**
 * A file changed both here and on the service: both versions side by side, with when each was changed, and the
 * two ways out. Keeping only the service's version asks once more (the person's copy goes to the trash).
 */
export function ConflictChoice({ item, conflict, controls }: { item: QueueEntry; conflict: ConflictView; controls: DecisionControls }) {
  const act = useQueue((store) => store.act);
  const { disabled, describedBy } = controls;
  const [confirming, setConfirming] = useState(false);
  const keepServiceButton = useRef<HTMLButtonElement>(null);
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
        <ConfirmKeepService item={item} conflict={conflict} controls={controls} returnTo={keepServiceButton} onCancel={() => setConfirming(false)} />
      ) : (
        <div className="form-actions">
          <button type="button" className="primary" disabled={disabled} {...describedBy} onClick={() => void act(() => contract.request('queue.resolveConflict', { id: item.id, keep: 'both' }))}>Keep both (upload my copy as a new file)</button>
          <button type="button" ref={keepServiceButton} disabled={disabled} {...describedBy} onClick={() => setConfirming(true)}>Keep only the service's version…</button>
        </div>
      )}
    </div>
  );
}
