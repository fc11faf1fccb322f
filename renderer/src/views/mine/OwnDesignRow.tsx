import { useEffect, useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ImageView, OwnDesignView } from '../../../../shared';
import { contract } from '../../contract/contract';
import { useMyDesigns } from '../../stores/my-designs-store';
import { designHref } from '../../stores/navigation-store';
import { editsWaitNote, type WindowAction } from '../availability';
import { DesignDropZone } from '../drops/DesignDropZone';
import { ownDesignNoteWords } from '../../../../shared/own-designs/own-design-note-words';
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
  const intl = useIntl();
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
  // What its waiting changes mean, in the window's language (the engine's English `note` is for the command line).
  const noteWords = ownDesignNoteWords(design.notes, intl);
  const actions: WindowAction[] = design.published ? ['edit-design', 'delete-design'] : ['edit-design', 'publish-design', 'delete-design'];
  const edit = can('edit-design');
  const [canPublish, canDelete] = [can('publish-design').enabled, can('delete-design').enabled];
  // Why some are off, and that an edit made now waits for the service: said once for the card's actions.
  const reason = [why(actions), edit.enabled && edit.waits ? editsWaitNote(intl) : null].filter(Boolean).join(' ') || null;
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
      setNotice(problemWords(outcome.problem, intl));
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
        <DesignForm title={intl.formatMessage({ id: 'mine.edit.title' }, { name: card.name })} submitLabel={intl.formatMessage({ id: 'mine.edit.submit' })}
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
    { label: intl.formatMessage({ id: 'mine.menu.open' }), onSelect: () => location.assign(designHref(card.id)) },
    { label: intl.formatMessage({ id: 'mine.menu.edit' }), disabled: !edit.enabled, describedBy, onSelect: () => void startEditing() },
    ...(design.published ? [] : [{ label: intl.formatMessage({ id: 'mine.menu.publish' }), disabled: !canPublish, describedBy, onSelect: () => setMode('confirm-publish') }]),
    { label: intl.formatMessage({ id: 'mine.menu.delete' }), disabled: !canDelete, describedBy, onSelect: () => setMode('confirm-delete') },
    // Its folder needs the person (a conflict, a file to confirm…): where that is done.
    ...(design.needsYou > 0 || design.folderState === 'failed' ? [{ label: intl.formatMessage({ id: 'mine.menu.showInSync' }), onSelect: () => location.assign('#/sync') }] : []),
  ];
  return (
    <li className="own-row" data-testid="own-design">
      <DesignDropZone className="own-main" designId={card.id} designName={card.name}>
        <OwnDesignCover design={design} />
        <div className="own-text">
          <h3 className="own-name"><a href={designHref(card.id)}>{card.name}</a></h3>
          <OwnDesignFacts design={design} />
          {design.folder ? <p className="own-folder"><FormattedMessage id="mine.row.folder" values={{ folder: design.folder }} /></p> : null}
          {noteWords ? <p className="own-note" data-testid="own-note">{noteWords}</p> : null}
          {notice ? <p className="own-note" role="alert">{notice}</p> : null}
        </div>
      </DesignDropZone>
      {mode === 'confirm-delete' ? (
        <InlineConfirm label={intl.formatMessage({ id: 'mine.delete.label' })} confirmText={intl.formatMessage({ id: 'mine.delete.confirm' })} confirmClass="danger"
          confirmDisabled={!canDelete} describedBy={describedBy}
          onConfirm={() => void remove(card.id)} cancelText={intl.formatMessage({ id: 'mine.delete.keep' })} onCancel={backToView}>
          <FormattedMessage id="mine.delete.question" values={{ name: card.name }} />
        </InlineConfirm>
      ) : mode === 'confirm-publish' ? (
        <InlineConfirm label={intl.formatMessage({ id: 'mine.publish.label' })} confirmText={intl.formatMessage({ id: 'mine.publish.confirm' })} confirmClass="primary"
          confirmDisabled={!canPublish} describedBy={describedBy}
          onConfirm={() => void publish(card.id).then(backToView)} cancelText={intl.formatMessage({ id: 'mine.publish.notNow' })} onCancel={backToView}>
          <FormattedMessage id="mine.publish.question" values={{ name: card.name }} />
        </InlineConfirm>
      ) : (
        <div className="own-actions">
          <ActionsMenu ref={menuButton} text={intl.formatMessage({ id: 'mine.row.actions' })}
            context={intl.formatMessage({ id: 'mine.row.actionsFor' }, { name: card.name })} actions={menu} />
        </div>
      )}
      {reason ? <p id={reasonId} className="action-reason" data-testid="action-reason">{reason}</p> : null}
    </li>
  );
}
