import { useState } from 'react';
import type { ImageView, OwnDesignView, OwnSyncState } from '../../../../shared';
import { contract } from '../../contract/contract';
import { useMyDesigns } from '../../stores/my-designs-store';
import { designHref } from '../../stores/navigation-store';
import { DesignDropZone } from '../drops/DesignDropZone';
import { DesignForm } from './DesignForm';

const SYNC_LABELS: Record<OwnSyncState, string> = {
  synced: 'In the sync folder', syncing: 'Syncing', attention: 'Needs you', error: 'A change failed', 'not-synced': 'Not in a sync folder',
};

/** One of my designs: its state, and what can be done to it. Publishing and deleting ask first. */
export function OwnDesignRow({ design }: { design: OwnDesignView }) {
  const { update, publish, remove } = useMyDesigns();
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-delete' | 'confirm-publish'>('view');
  const [description, setDescription] = useState<string | null>(null);
  const [cover, setCover] = useState<{ images: ImageView[]; primaryImageId: number | null }>({ images: [], primaryImageId: null });
  const [notice, setNotice] = useState<string | null>(null);
  const { card } = design;

  /** The list does not carry the description: it is read first, so that saving never wipes it. */
  async function startEditing() {
    const outcome = await contract.request('design.get', { id: card.id });
    if (!outcome.ok) {
      setNotice(outcome.problem.message);
      return;
    }
    setNotice(null);
    setDescription(outcome.value.descriptionHtml);
    setCover({ images: outcome.value.images, primaryImageId: outcome.value.primaryImageId });
    setMode('edit');
  }
  if (mode === 'edit') {
    return (
      <li className="own-row">
        <DesignForm title={`Edit “${card.name}”`} submitLabel="Save changes"
          initial={{ name: card.name, excerpt: card.excerpt, license: card.license?.code, description: description ?? '', primaryImageId: cover.primaryImageId }}
          images={cover.images}
          onCancel={() => setMode('view')}
          onSubmit={async (fields) => {
            const result = await update(card.id, fields);
            if (result.ok) setMode('view');
            return result;
          }} />
      </li>
    );
  }
  return (
    <li className="own-row" data-testid="own-design">
      <DesignDropZone className="own-main" designId={card.id} designName={card.name}>
        <h3 className="own-name"><a href={designHref(card.id)}>{card.name}</a></h3>
        <p className="own-meta">
          <span className={design.published ? 'badge' : 'badge draft'}>{design.published ? 'Published' : 'Draft'}</span>
          <span className="badge">{SYNC_LABELS[design.syncState]}{design.pending > 0 ? ` (${design.pending})` : ''}</span>
          {design.folder ? <span className="own-folder">folder “{design.folder}”</span> : null}
        </p>
        {design.note ? <p className="own-note" data-testid="own-note">{design.note}</p> : null}
        {notice ? <p className="own-note" role="alert">{notice}</p> : null}
      </DesignDropZone>
      {mode === 'confirm-delete' ? (
        <div className="own-confirm" role="group" aria-label="Confirm deletion">
          <span>Delete “{card.name}” from the service, with its images and files? This cannot be undone. It needs the service now: a deletion is never saved for later.</span>
          <button type="button" className="danger" onClick={() => void remove(card.id)}>Delete</button>
          <button type="button" onClick={() => setMode('view')}>Keep it</button>
        </div>
      ) : mode === 'confirm-publish' ? (
        <div className="own-confirm" role="group" aria-label="Confirm publishing">
          <span>Publish “{card.name}” under your name, for everyone to see? It needs the service now: publishing is never saved for later.</span>
          <button type="button" className="primary" onClick={() => void publish(card.id).then(() => setMode('view'))}>Publish</button>
          <button type="button" onClick={() => setMode('view')}>Not now</button>
        </div>
      ) : (
        <div className="own-actions">
          <button type="button" onClick={() => void startEditing()}>Edit</button>
          {design.published ? null : <button type="button" onClick={() => setMode('confirm-publish')}>Publish…</button>}
          <button type="button" onClick={() => setMode('confirm-delete')}>Delete…</button>
        </div>
      )}
    </li>
  );
}
