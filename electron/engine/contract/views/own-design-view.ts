import type { OwnDesignView } from '../../../../shared';
import type { OwnDesignState } from '../../own-designs/own-design-states';
import type { EngineServices } from '../../composition/engine-services';
import { designCard } from './design-card';
import { iso } from './iso';

/** What a design's waiting changes mean now, in words: whether they are being sent, or wait (and for what). */
function noteOf({ connection, sync }: Pick<EngineServices, 'connection' | 'sync'>, state: OwnDesignState): string | null {
  const offline = !connection.connectivity.state.online;
  const { editsWaiting, filesWaiting } = state;
  const notes = [
    editsWaiting > 0 ? (offline ? 'Saved here; it is sent when the service is back.' : 'Saved here; it is being sent to the service.') : null,
    // Rule 5 holds the whole queue, edits of what is published in the person's name included.
    editsWaiting > 0 && !sync.contentPolicyAccepted() ? 'Nothing is sent until you accept the content policy in Sync.' : null,
    filesWaiting > 0 && offline ? `${filesWaiting} file change${filesWaiting === 1 ? ' waits' : 's wait'} to be sent when the service is back.` : null,
  ].filter((note): note is string => note !== null);
  return notes.length > 0 ? notes.join(' ') : null;
}

/** Own designs as the window's My designs shows them (the library says what their cards credit and show). */
export async function ownDesignViews(services: Pick<EngineServices, 'connection' | 'sync' | 'account' | 'library'>, states: readonly OwnDesignState[]): Promise<OwnDesignView[]> {
  const { session } = services.account;
  const me = session.state.status !== 'signed-out' ? session.state.user : null;
  const summaries = states.map((state) => state.summary);
  const { authors, covers } = await services.library.cardFacts(summaries, me ? new Map([[me.id, me.screen_name]]) : undefined);
  return states.map((state) => ({
    card: designCard(state.summary, authors, covers),
    published: state.summary.state === 'published',
    folder: state.folder,
    syncState: state.syncState,
    pending: state.pending,
    note: noteOf(services, state),
    folderState: state.folderFacts.folderState,
    uploading: state.folderFacts.uploading,
    needsYou: state.folderFacts.needsYou,
    files: state.folderFacts.files,
    lastSyncedAt: iso(state.folderFacts.lastSyncedAt),
  }));
}

export async function ownDesignView(services: Pick<EngineServices, 'connection' | 'sync' | 'account' | 'library'>, state: OwnDesignState): Promise<OwnDesignView> {
  return (await ownDesignViews(services, [state]))[0]!;
}
