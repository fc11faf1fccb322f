import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { QueueEntry } from '../../../../shared';
import type { MessageId } from '../../../../shared/i18n/messages';
import { contract } from '../../contract/contract';
import { fileProgressWords, percentOf } from '../../../../shared/sync/upload-progress-words';
import { useQueue } from '../../stores/queue-store';
import { engineLine } from '../engine-line';
import { useDecisionControls } from './decision-controls';

const KINDS: Record<QueueEntry['kind'], MessageId> = {
  upload: 'sync.queue.kind.upload',
  replace: 'sync.queue.kind.replace',
  rename: 'sync.queue.kind.rename',
  'delete-remote': 'sync.queue.kind.deleteRemote',
  'create-design': 'sync.queue.kind.createDesign',
  'update-design': 'sync.queue.kind.updateDesign',
};

/** Between two parts of a line, as in the text around them (whitespace, not a word). */
const SPACE = ' ';
const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;

/** What is being sent or waits its turn, with its progress; failures with their reason, and retry or cancel. */
export function QueueList({ items }: { items: QueueEntry[] }) {
  const intl = useIntl();
  const act = useQueue((store) => store.act);
  const controls = useDecisionControls();
  const { disabled, describedBy } = controls;
  const failed = items.some((item) => item.state === 'failed');
  return (
    <section className="panel" aria-labelledby="queue-title">
      <h3 id="queue-title"><FormattedMessage id="sync.queue.title" /></h3>
      {failed && controls.note ? <p id={controls.noteId} className="action-reason" data-testid="decision-note">{controls.note}</p> : null}
      {items.length === 0 ? <p className="empty-inline"><FormattedMessage id="sync.queue.empty" /></p> : (
        <ul className="queue-list">
          {items.map((item) => {
            const percent = item.bytesTotal ? percentOf(item.bytesSent, item.bytesTotal) : null;
            const progress = item.state === 'running' ? fileProgressWords(item, intl) : null;
            const percentWords = percent === null ? '' : intl.formatNumber(percent / 100, { style: 'percent' });
            const state = item.state === 'running' ? 'sending' : item.paused ? 'paused' : item.state;
            return (
              <li key={item.id} data-testid="queue-item">
                <p>
                  <span className="badge"><FormattedMessage id="sync.queue.state" values={{ state }} /></span>{SPACE}
                  <FormattedMessage id="sync.queue.item" values={{ kind: intl.formatMessage({ id: KINDS[item.kind] }), name: item.path ?? item.folder ?? item.title, strong }} />
                </p>
                {item.state === 'running' && percent !== null ? (
                  <div className="upload-progress">
                    <progress max={100} value={percent} aria-valuetext={progress ?? percentWords}
                      aria-label={item.path ? intl.formatMessage({ id: 'sync.queue.fileSent' }, { name: item.path }) : intl.formatMessage({ id: 'sync.queue.someFileSent' })}>
                      {percentWords}
                    </progress>
                    <span className="upload-progress-words" data-testid="file-progress">{progress}</span>
                  </div>
                ) : null}
                {item.reason ? <p className={item.state === 'failed' ? 'field-error' : 'field-help'}>{engineLine(intl, item.reasonWords, item.reason)}</p> : null}
                {item.state === 'failed' ? (
                  <div className="form-actions">
                    <button type="button" disabled={disabled} {...describedBy}
                      onClick={() => void act(() => contract.request('queue.retry', { target: item.id }))}><FormattedMessage id="sync.queue.retry" /></button>
                    <button type="button" disabled={disabled} {...describedBy}
                      onClick={() => void act(() => contract.request('queue.cancel', { target: item.id }))}><FormattedMessage id="sync.queue.cancel" /></button>
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
