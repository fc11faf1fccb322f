import { useEffect, useId, useRef, useState } from 'react';
import type { ImageView, OwnDesignView } from '../../../../shared';
import { contract } from '../../contract/contract';
import { useMyDesigns } from '../../stores/my-designs-store';
import { designHref } from '../../stores/navigation-store';
import { EDITS_WAIT_NOTE, type WindowAction } from '../availability';
import { DesignDropZone } from '../drops/DesignDropZone';
import { problemWords } from '../problem-words';
import { useAvailability } from '../use-availability';
import { ActionsMenu, type MenuAction } from './ActionsMenu';
import { DesignForm } from './DesignForm';
import { InlineConfirm } from './InlineConfirm';
import { OwnDesignCover, OwnDesignFacts } from './OwnDesignFacts';

type Mode = 'view' | 'edit' | 'confirm-delete' | 'confirm-publish';

/**
 * One of my designs as a card: its cover, state, files, folder and last sync, and what can be done to it in a menu.
 * Publishing and deleting ask first; what cannot be done now (signed out, the service out of reach) stays in the menu,
 * with why beside it. Whatever the menu opened gives the focus back to the menu's button when it closes.
 */
export function OwnDesignRow({ design }: { design: OwnDesignView }) {
  const { update, publish, remove } = useMyDesigns();
  const { can, why } = useAvailability();
  const reasonId = useId();
  const [mode, setMode] = useState<Mode>('view');
  const [description, setDescription] = useState<string | null>(null);
  const [cover, setCover] = useState<{ images: ImageView[]; primaryImageId: number | null }>({ images: [], primaryImageId: null });
  const [notice, setNotice] = useState<string | null>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const [focusMenu, setFocusMenu] = useState(false);
  const { card } = design;
  const actions: WindowAction[] = design.published ? ['edit-design', 'delete-design'] : ['edit-design', 'publish-design', 'delete-design'];
  const edit = can('edit-design');
  const [canPublish, canDelete] = [can('publish-design').enabled, can('delete-design').enabled];
  // Why some are off, and that an edit made now waits for the service: said once for the card's actions.
  const reason = [why(actions), edit.enabled && edit.waits ? EDITS_WAIT_NOTE : null].filter(Boolean).join(' ') || null;
  const describedBy = reason ? reasonId : undefined;

  useEffect(() => {
    if (focusMenu && mode === 'view') {
      menuButton.current?.focus();
      setFocusMenu(false);
    }
  }, [focusMenu, mode]);
  const backToView = () => {
    setMode('view');
    setFocusMenu(true);
  };

  /** The list does not carry the description: it is read first, so that saving never wipes it. */
  async function startEditing() {
    const outcome = await contract.request('design.get', { id: card.id });
    if (!outcome.ok) {
      setNotice(problemWords(outcome.problem));
      setFocusMenu(true);
      return;
    }
    setNotice(null);
    setDescription(outcome.value.descriptionHtml);
    setCover({ images: outcome.value.images, primaryImageId: outcome.value.primaryImageId });
    setMode('edit');
  }
  if (mode === 'edit') {
    return (
      <li className="own-row own-row-editing">
        <DesignForm title={`Edit “${card.name}”`} submitLabel="Save changes"
          initial={{ name: card.name, excerpt: card.excerpt, license: card.license?.code, description: description ?? '', primaryImageId: cover.primaryImageId }}
          images={cover.images} availability={edit}
          onCancel={backToView}
          onSubmit={async (fields) => {
            const result = await update(card.id, fields);
            if (result.ok) backToView();
            return result;
          }} />
      </li>
    );
  }
  const menu: MenuAction[] = [
    { label: 'Open', onSelect: () => location.assign(designHref(card.id)) },
    { label: 'Edit', disabled: !edit.enabled, describedBy, onSelect: () => void startEditing() },
    ...(design.published ? [] : [{ label: 'Publish…', disabled: !canPublish, describedBy, onSelect: () => setMode('confirm-publish') }]),
    { label: 'Delete…', disabled: !canDelete, describedBy, onSelect: () => setMode('confirm-delete') },
    // Its folder needs the person (a conflict, a file to confirm…): where that is done.
    ...(design.needsYou > 0 || design.folderState === 'failed' ? [{ label: 'Show in Sync', onSelect: () => location.assign('#/sync') }] : []),
  ];
  return (
    <li className="own-row" data-testid="own-design">
      <DesignDropZone className="own-main" designId={card.id} designName={card.name}>
        <OwnDesignCover design={design} />
        <div className="own-text">
          <h3 className="own-name"><a href={designHref(card.id)}>{card.name}</a></h3>
          <OwnDesignFacts design={design} />
          {design.folder ? <p className="own-folder">Folder “{design.folder}”</p> : null}
          {design.note ? <p className="own-note" data-testid="own-note">{design.note}</p> : null}
          {notice ? <p className="own-note" role="alert">{notice}</p> : null}
        </div>
      </DesignDropZone>
      {mode === 'confirm-delete' ? (
        <InlineConfirm label="Confirm deletion" confirmText="Delete" confirmClass="danger" confirmDisabled={!canDelete} describedBy={describedBy}
          onConfirm={() => void remove(card.id)} cancelText="Keep it" onCancel={backToView}>
          Delete “{card.name}” from the service, with its images and files? This cannot be undone. It needs the service now: a deletion is never saved for later.
        </InlineConfirm>
      ) : mode === 'confirm-publish' ? (
        <InlineConfirm label="Confirm publishing" confirmText="Publish" confirmClass="primary" confirmDisabled={!canPublish} describedBy={describedBy}
          onConfirm={() => void publish(card.id).then(backToView)} cancelText="Not now" onCancel={backToView}>
          Publish “{card.name}” under your name, for everyone to see? It needs the service now: publishing is never saved for later.
        </InlineConfirm>
      ) : (
        <div className="own-actions">
          <ActionsMenu ref={menuButton} label={`Actions for “${card.name}”`} text="Actions" actions={menu} />
        </div>
      )}
      {reason ? <p id={reasonId} className="action-reason" data-testid="action-reason">{reason}</p> : null}
    </li>
  );
}
