import { useId, useState } from 'react';
import type { ImageView, OwnDesignView, OwnSyncState } from '../../../../shared';
import { contract } from '../../contract/contract';
import { useMyDesigns } from '../../stores/my-designs-store';
import { designHref } from '../../stores/navigation-store';
import { EDITS_WAIT_NOTE, type WindowAction } from '../availability';
import { DesignDropZone } from '../drops/DesignDropZone';
import { problemWords } from '../problem-words';
import { useAvailability } from '../use-availability';
import { DesignForm } from './DesignForm';

const SYNC_LABELS: Record<OwnSyncState, string> = {
  synced: 'In the sync folder', syncing: 'Syncing', attention: 'Needs you', error: 'A change failed', 'not-synced': 'Not in a sync folder',
};

/**
 * One of my designs: its state, and what can be done to it. Publishing and deleting ask first; what cannot be done now
 * (signed out, the service out of reach) is offered disabled, with why beside it.
 */
export function OwnDesignRow({ design }: { design: OwnDesignView }) {
  const { update, publish, remove } = useMyDesigns();
  const { can, why } = useAvailability();
  const reasonId = useId();
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-delete' | 'confirm-publish'>('view');
  const [description, setDescription] = useState<string | null>(null);
  const [cover, setCover] = useState<{ images: ImageView[]; primaryImageId: number | null }>({ images: [], primaryImageId: null });
  const [notice, setNotice] = useState<string | null>(null);
  const { card } = design;
  const actions: WindowAction[] = design.published ? ['edit-design', 'delete-design'] : ['edit-design', 'publish-design', 'delete-design'];
  const edit = can('edit-design');
  const [canPublish, canDelete] = [can('publish-design').enabled, can('delete-design').enabled];
  // Why some are off, and that an edit made now waits for the service: said once for the row's buttons.
  const reason = [why(actions), edit.enabled && edit.waits ? EDITS_WAIT_NOTE : null].filter(Boolean).join(' ') || null;
  const describedBy = reason ? reasonId : undefined;

  /** The list does not carry the description: it is read first, so that saving never wipes it. */
  async function startEditing() {
    const outcome = await contract.request('design.get', { id: card.id });
    if (!outcome.ok) {
      setNotice(problemWords(outcome.problem));
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
          images={cover.images} availability={edit}
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
          <button type="button" className="danger" disabled={!canDelete} aria-describedby={describedBy} onClick={() => void remove(card.id)}>Delete</button>
          <button type="button" onClick={() => setMode('view')}>Keep it</button>
        </div>
      ) : mode === 'confirm-publish' ? (
        <div className="own-confirm" role="group" aria-label="Confirm publishing">
          <span>Publish “{card.name}” under your name, for everyone to see? It needs the service now: publishing is never saved for later.</span>
          <button type="button" className="primary" disabled={!canPublish} aria-describedby={describedBy} onClick={() => void publish(card.id).then(() => setMode('view'))}>Publish</button>
          <button type="button" onClick={() => setMode('view')}>Not now</button>
        </div>
      ) : (
        <div className="own-actions">
          <button type="button" disabled={!edit.enabled} aria-describedby={describedBy} onClick={() => void startEditing()}>Edit</button>
          {design.published ? null : <button type="button" disabled={!canPublish} aria-describedby={describedBy} onClick={() => setMode('confirm-publish')}>Publish…</button>}
          <button type="button" disabled={!canDelete} aria-describedby={describedBy} onClick={() => setMode('confirm-delete')}>Delete…</button>
        </div>
      )}
      {reason ? <p id={reasonId} className="action-reason" data-testid="action-reason">{reason}</p> : null}
    </li>
  );
}
