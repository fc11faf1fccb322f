import { useState } from 'react';
import type { LicenseCode, QueueEntry } from '../../../../shared';
import { DEFAULT_LICENSE, LICENSE_CODES, LICENSES } from '../../../../shared/licenses/licenses';
import { contract } from '../../contract/contract';
import { useQueue } from '../../stores/queue-store';
import { ConflictChoice } from './ConflictChoice';

/** A new folder becomes a design only with its required fields, and a draft unless the person says publish. */
function ConfirmDesign({ item }: { item: QueueEntry }) {
  const act = useQueue((store) => store.act);
  const [name, setName] = useState(item.folder ?? '');
  const [excerpt, setExcerpt] = useState('');
  const [license, setLicense] = useState<LicenseCode>(DEFAULT_LICENSE);
  const [publish, setPublish] = useState(false);
  return (
    <form className="confirm-design" aria-label={`New design for the folder ${item.folder}`} onSubmit={(event) => {
      event.preventDefault();
      void act(() => contract.request('queue.confirmDesign', { id: item.id, name, excerpt, license, publish }));
    }}>
      <label>Name <input value={name} onChange={(event) => setName(event.target.value)} /></label>
      <label>Summary <input value={excerpt} onChange={(event) => setExcerpt(event.target.value)} /></label>
      <label>License
        <select value={license} onChange={(event) => setLicense(event.target.value as LicenseCode)}>
          {LICENSE_CODES.map((code) => <option key={code} value={code}>{LICENSES[code].title}</option>)}
        </select>
      </label>
      <label className="checkbox"><input type="checkbox" checked={publish} onChange={(event) => setPublish(event.target.checked)} /> Publish it now (otherwise a draft)</label>
      <button type="submit" className="primary">Create the design</button>
      <button type="button" onClick={() => void act(() => contract.request('queue.cancel', { target: item.id }))}>Not a design</button>
    </form>
  );
}

/** What only the person can decide: deletions to confirm, new designs to name, refused files and conflicts to look at. */
export function WaitingForYou({ items }: { items: QueueEntry[] }) {
  const act = useQueue((store) => store.act);
  if (items.length === 0) return null;
  return (
    <section className="panel panel-attention" aria-labelledby="waiting-title">
      <h3 id="waiting-title">Waiting for you</h3>
      <ul className="waiting-list">
        {items.map((item) => (
          <li key={item.id} data-testid="waiting-item">
            <p><strong>{item.path ?? item.folder}</strong>: {item.reason}</p>
            {item.attention === 'confirm-design' ? <ConfirmDesign item={item} />
              : item.attention === 'conflict' && item.conflict ? <ConflictChoice item={item} conflict={item.conflict} />
              : item.attention === 'confirm-delete' ? (
                <div className="form-actions">
                  <button type="button" className="danger" onClick={() => void act(() => contract.request('queue.confirmDelete', { id: item.id }))}>Delete on the service</button>
                  <button type="button" onClick={() => void act(() => contract.request('queue.cancel', { target: item.id }))}>Keep it on the service</button>
                </div>
              ) : (
                <div className="form-actions">
                  {item.attention === 'sign-in' ? <a className="button" href="#/settings">Sign in…</a> : null}
                  <button type="button" onClick={() => void act(() => contract.request('queue.cancel', { target: item.id }))}>Dismiss</button>
                </div>
              )}
          </li>
        ))}
      </ul>
    </section>
  );
}
