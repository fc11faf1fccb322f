import { useRef, useState, type ReactNode, type RefObject } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ConflictView, QueueEntry } from '../../../../shared';
import { formatDateTime } from '../../../../shared/i18n/format';
import { contract } from '../../contract/contract';
import { useQueue } from '../../stores/queue-store';
import { useOpenedInPlace } from '../use-escape';
import type { DecisionControls } from './decision-controls';

const leaf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;

/** "side.stl, changed 29 Nov 2026, 10:48", the time as the window's language writes it. */
function Changed({ path, at }: { path: string; at: string | null }) {
  const intl = useIntl();
  return at
    ? <FormattedMessage id="sync.conflict.changed" values={{ file: leaf(path), when: formatDateTime(intl, at), strong }} />
    : <FormattedMessage id="sync.conflict.changedUnknown" values={{ file: leaf(path), strong }} />;
}

/** The question asked before the person's copy goes to the trash: the focus starts on "Not now", which Escape also means. */
function ConfirmKeepService({ item, conflict, controls, returnTo, onCancel }: {
  item: QueueEntry; conflict: ConflictView; controls: DecisionControls; returnTo: RefObject<HTMLButtonElement | null>; onCancel(): void;
}) {
  const intl = useIntl();
  const act = useQueue((store) => store.act);
  const { focusRef, onKeyDown } = useOpenedInPlace<HTMLButtonElement>(onCancel, returnTo);
  return (
    <div className="form-actions" role="group" aria-label={intl.formatMessage({ id: 'sync.conflict.confirmLabel' })} onKeyDown={onKeyDown}>
      <span><FormattedMessage id="sync.conflict.confirmQuestion" values={{ file: leaf(conflict.copyPath) }} /></span>
      <button type="button" className="danger" disabled={controls.disabled} {...controls.describedBy} onClick={() => void act(() => contract.request('queue.resolveConflict', { id: item.id, keep: 'service' }))}>
        <FormattedMessage id="sync.conflict.trashMine" />
      </button>
      <button type="button" ref={focusRef} onClick={onCancel}><FormattedMessage id="sync.conflict.notNow" /></button>
    </div>
  );
}

/**
 * A file changed both here and on the service: both versions side by side, with when each was changed, and the
 * two ways out. Keeping only the service's version asks once more (the person's copy goes to the trash).
 */
export function ConflictChoice({ item, conflict, controls }: { item: QueueEntry; conflict: ConflictView; controls: DecisionControls }) {
  const intl = useIntl();
  const act = useQueue((store) => store.act);
  const { disabled, describedBy } = controls;
  const [confirming, setConfirming] = useState(false);
  const keepServiceButton = useRef<HTMLButtonElement>(null);
  return (
    <div className="conflict" role="group" aria-label={intl.formatMessage({ id: 'sync.conflict.label' }, { file: leaf(conflict.servicePath) })}>
      <dl className="conflict-versions">
        <div>
          <dt><FormattedMessage id="sync.conflict.serviceVersion" /></dt>
          <dd><Changed path={conflict.servicePath} at={conflict.serviceChangedAt} /></dd>
        </div>
        <div>
          <dt><FormattedMessage id="sync.conflict.yourVersion" /></dt>
          <dd><Changed path={conflict.copyPath} at={conflict.copyChangedAt} /></dd>
        </div>
      </dl>
      {confirming ? (
        <ConfirmKeepService item={item} conflict={conflict} controls={controls} returnTo={keepServiceButton} onCancel={() => setConfirming(false)} />
      ) : (
        <div className="form-actions">
          <button type="button" className="primary" disabled={disabled} {...describedBy} onClick={() => void act(() => contract.request('queue.resolveConflict', { id: item.id, keep: 'both' }))}>
            <FormattedMessage id="sync.conflict.keepBoth" />
          </button>
          <button type="button" ref={keepServiceButton} disabled={disabled} {...describedBy} onClick={() => setConfirming(true)}>
            <FormattedMessage id="sync.conflict.keepService" />
          </button>
        </div>
      )}
    </div>
  );
}
