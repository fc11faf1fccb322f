import type { OwnDesignNote, OwnDesignView } from '../../../../shared';
import { ownDesignNoteWords } from '../../../../shared/own-designs/own-design-note-words';
import type { OwnDesignState } from '../../own-designs/own-design-states';
import type { EngineServices } from '../../composition/engine-services';
import { designCard } from './design-card';
import { iso } from './iso';

/** What a design's waiting changes mean now, as codes: whether they are being sent, or wait (and for what). */
function notesOf({ connection, sync }: Pick<EngineServices, 'connection' | 'sync'>, state: OwnDesignState): OwnDesignNote[] {
  const offline = !connection.connectivity.state.online;
  const { editsWaiting, filesWaiting } = state;
  const notes: OwnDesignNote[] = [];
  if (editsWaiting > 0) notes.push({ kind: offline ? 'edits-waiting' : 'edits-sending' });
  // Rule 5 holds the whole queue, edits of what is published in the person's name included.
  if (editsWaiting > 0 && !sync.contentPolicyAccepted()) notes.push({ kind: 'content-policy' });
  if (filesWaiting > 0 && offline) notes.push({ kind: 'files-waiting', count: filesWaiting });
  return notes;
}

/** Own designs as the window's My designs shows them (the library says what their cards credit and show). */
export async function ownDesignViews(services: Pick<EngineServices, 'connection' | 'sync' | 'account' | 'library'>, states: readonly OwnDesignState[]): Promise<OwnDesignView[]> {
  const { session } = services.account;
  const me = session.state.status !== 'signed-out' ? session.state.user : null;
  const summaries = states.map((state) => state.summary);
  const { authors, covers } = await services.library.cardFacts(summaries, me ? new Map([[me.id, me.screen_name]]) : undefined);
  return states.map((state) => {
    const notes = notesOf(services, state);
    return {
      card: designCard(state.summary, authors, covers),
      published: state.summary.state === 'published',
      folder: state.folder,
      syncState: state.syncState,
      pending: state.pending,
      note: ownDesignNoteWords(notes),
      notes,
      folderState: state.folderFacts.folderState,
      uploading: state.folderFacts.uploading,
      needsYou: state.folderFacts.needsYou,
      files: state.folderFacts.files,
      lastSyncedAt: iso(state.folderFacts.lastSyncedAt),
    };
  });
}

export async function ownDesignView(services: Pick<EngineServices, 'connection' | 'sync' | 'account' | 'library'>, state: OwnDesignState): Promise<OwnDesignView> {
  return (await ownDesignViews(services, [state]))[0]!;
}
