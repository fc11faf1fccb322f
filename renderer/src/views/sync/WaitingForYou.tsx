import { useId, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { FieldErrors, LicenseCode, QueueEntry } from '../../../../shared';
import { DEFAULT_LICENSE, LICENSE_CODES, LICENSES } from '../../../../shared/licenses/licenses';
import { contract } from '../../contract/contract';
import { useQueue } from '../../stores/queue-store';
import { licenseTitle } from '../design/license-words';
import { fieldLabelWords, fieldMessageWords, labelledFieldErrorWords, problemWords } from '../problem-words';
import { engineLine } from '../engine-line';
import { ConflictChoice } from './ConflictChoice';
import { ProposalPicture } from '../../thumbnails/ProposalPicture';
import { useDecisionControls, type DecisionControls } from './decision-controls';

/** Between two parts of a line, as in the text around them (whitespace, not a word). */
const SPACE = ' ';
const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;

/**
 * A new folder becomes a design only with its required fields, and a draft unless the person says publish. Confirming
 * records the design in the queue, which creates it on the service when it can: offered offline, saying it waits.
 */
function ConfirmDesign({ item, controls }: { item: QueueEntry; controls: DecisionControls }) {
  const intl = useIntl();
  const act = useQueue((store) => store.act);
  const [name, setName] = useState(item.folder ?? '');
  const [excerpt, setExcerpt] = useState('');
  const [license, setLicense] = useState<LicenseCode>(DEFAULT_LICENSE);
  const [publish, setPublish] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const id = useId();
  // A refused field is said beside it, with the label the form shows ("Summary can't be blank").
  const confirm = async () => {
    const outcome = await contract.request('queue.confirmDesign', { id: item.id, name, excerpt, license, publish });
    setErrors(!outcome.ok && outcome.problem.kind === 'validation' ? outcome.problem.fieldErrors : {});
    if (outcome.ok) return outcome;
    return { ok: false, problem: { message: outcome.problem.kind === 'validation' ? intl.formatMessage({ id: 'problems.fieldsNeedChange' }) : problemWords(outcome.problem, intl) } };
  };
  const errorOf = (field: string) => (errors[field] ? (
    <span id={`${id}-${field}-error`} className="field-error">{errors[field].map((text) => labelledFieldErrorWords(field, fieldMessageWords(text, intl), intl)).join('. ')}</span>
  ) : null);
  const invalid = (field: string) => (errors[field] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}-error` } : {});
  return (
    <form className="confirm-design" aria-label={intl.formatMessage({ id: 'sync.confirmDesign.label' }, { folder: item.folder })} onSubmit={(event) => {
      event.preventDefault();
      void act(confirm);
    }}>
      <ProposalPicture itemId={item.id} />
      <label>{fieldLabelWords('name', intl)} <input value={name} onChange={(event) => setName(event.target.value)} {...invalid('name')} />{errorOf('name')}</label>
      <label>{fieldLabelWords('excerpt', intl)} <input value={excerpt} onChange={(event) => setExcerpt(event.target.value)} {...invalid('excerpt')} />{errorOf('excerpt')}</label>
      <label>{fieldLabelWords('license', intl)}
        <select value={license} onChange={(event) => setLicense(event.target.value as LicenseCode)} {...invalid('license')}>
          {LICENSE_CODES.map((code) => <option key={code} value={code}>{licenseTitle(intl, LICENSES[code])}</option>)}
        </select>
        {errorOf('license')}
      </label>
      <label className="checkbox"><input type="checkbox" checked={publish} onChange={(event) => setPublish(event.target.checked)} />{SPACE}
        <FormattedMessage id="sync.confirmDesign.publish" />
      </label>
      <button type="submit" className="primary" disabled={controls.disabled} {...controls.describedBy}><FormattedMessage id="sync.confirmDesign.create" /></button>
      <button type="button" disabled={controls.disabled} {...controls.describedBy}
        onClick={() => void act(() => contract.request('queue.cancel', { target: item.id }))}>
        <FormattedMessage id="sync.confirmDesign.notADesign" />
      </button>
    </form>
  );
}

/** What only the person can decide: deletions to confirm, new designs to name, refused files and conflicts to look at. */
export function WaitingForYou({ items }: { items: QueueEntry[] }) {
  const intl = useIntl();
  const act = useQueue((store) => store.act);
  const controls = useDecisionControls();
  const { disabled, describedBy } = controls;
  if (items.length === 0) return null;
  const ready = items.filter((item) => item.attention === 'ready-to-publish').length;
  return (
    <section className="panel panel-attention" aria-labelledby="waiting-title">
      <h3 id="waiting-title"><FormattedMessage id="sync.waiting.title" /></h3>
      {controls.note ? <p id={controls.noteId} className="action-reason" data-testid="decision-note">{controls.note}</p> : null}
      {ready > 1 ? (
        <div className="form-actions">
          <button type="button" className="primary" disabled={disabled} {...describedBy}
            onClick={() => void act(() => contract.request('queue.sendReady', { target: 'all' }))}>
            <FormattedMessage id="sync.waiting.sendAll" values={{ count: ready }} />
          </button>
        </div>
      ) : null}
      <ul className="waiting-list">
        {items.map((item) => (
          <li key={item.id} data-testid="waiting-item">
            <p><FormattedMessage id="sync.waiting.item" values={{ name: item.path ?? item.folder, reason: engineLine(intl, item.reasonWords, item.reason), strong }} /></p>
            {item.attention === 'confirm-design' ? <ConfirmDesign item={item} controls={controls} />
              : item.attention === 'conflict' && item.conflict ? <ConflictChoice item={item} conflict={item.conflict} controls={controls} />
              : item.attention === 'ready-to-publish' ? (
                <div className="form-actions">
                  <button type="button" className="primary" disabled={disabled} {...describedBy}
                    onClick={() => void act(() => contract.request('queue.sendReady', { target: item.id }))}><FormattedMessage id="sync.waiting.send" /></button>
                  <button type="button" disabled={disabled} {...describedBy}
                    onClick={() => void act(() => contract.request('queue.cancel', { target: item.id }))}><FormattedMessage id="sync.waiting.dontSend" /></button>
                </div>
              )
              : item.attention === 'confirm-delete' ? (
                <div className="form-actions">
                  <button type="button" className="danger" disabled={disabled} {...describedBy}
                    onClick={() => void act(() => contract.request('queue.confirmDelete', { id: item.id }))}>
                    <FormattedMessage id="sync.waiting.deleteOnService" />
                  </button>
                  <button type="button" disabled={disabled} {...describedBy}
                    onClick={() => void act(() => contract.request('queue.cancel', { target: item.id }))}>
                    <FormattedMessage id="sync.waiting.keepOnService" />
                  </button>
                </div>
              ) : (
                <div className="form-actions">
                  {item.attention === 'sign-in' ? <a className="button" href="#/settings"><FormattedMessage id="sync.waiting.signIn" /></a> : null}
                  <button type="button" disabled={disabled} onClick={() => void act(() => contract.request('queue.cancel', { target: item.id }))}><FormattedMessage id="sync.waiting.dismiss" /></button>
                </div>
              )}
          </li>
        ))}
      </ul>
    </section>
  );
}
