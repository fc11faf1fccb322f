import type { QueueEntry } from '../../../../shared';
import { contract } from '../../contract/contract';
import { fileProgressWords, percentOf } from '../../../../shared/sync/upload-progress-words';
import { useQueue } from '../../stores/queue-store';
import { windowWords } from '../problem-words';
import { useDecisionControls } from './decision-controls';

const VERBS: Record<QueueEntry['kind'], string> = { upload: 'Upload', replace: 'Update', rename: 'Rename', 'delete-remote': 'Delete on the service', 'create-design': 'New design', 'update-design': 'Edit of a design' };

/** What is being sent or waits its turn, with its progress; failures with their reason, and retry or cancel. */
export function QueueList({ items }: { items: QueueEntry[] }) {
  const act = useQueue((store) => store.act);
  const controls = useDecisionControls();
  const { disabled, describedBy } = controls;
  const failed = items.some((item) => item.state === 'failed');
  return (
    <section className="panel" aria-labelledby="queue-title">
      <h3 id="queue-title">Uploads</h3>
      {failed && controls.note ? <p id={controls.noteId} className="action-reason" data-testid="decision-note">{controls.note}</p> : null}
      {items.length === 0 ? <p className="empty-inline">Nothing to send.</p> : (
        <ul className="queue-list">
          {items.map((item) => {
            const percent = item.bytesTotal ? percentOf(item.bytesSent, item.bytesTotal) : null;
            const progress = item.state === 'running' ? fileProgressWords(item) : null;
            return (
              <li key={item.id} data-testid="queue-item">
                <p><span className="badge">{item.state === 'running' ? 'sending' : item.paused ? 'paused' : item.state}</span> {VERBS[item.kind]}: <strong>{item.path ?? item.folder ?? item.title}</strong></p>
                {item.state === 'running' && percent !== null ? (
                  <div className="upload-progress">
                    <progress max={100} value={percent} aria-label={`${item.path ?? 'File'} sent`} aria-valuetext={progress ?? `${percent}%`}>{percent}%</progress>
                    <span className="upload-progress-words" data-testid="file-progress">{progress}</span>
                  </div>
                ) : null}
                {item.reason ? <p className={item.state === 'failed' ? 'field-error' : 'field-help'}>{windowWords(item.reason)}</p> : null}
                {item.state === 'failed' ? (
                  <div className="form-actions">
                    <button type="button" disabled={disabled} {...describedBy}
                      onClick={() => void act(() => contract.request('queue.retry', { target: item.id }))}>Retry</button>
                    <button type="button" disabled={disabled} {...describedBy}
                      onClick={() => void act(() => contract.request('queue.cancel', { target: item.id }))}>Cancel</button>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
