import type { OwnDesignView } from '../../../../shared';
import type { Library } from '../../library/library';
import type { OwnDesignState } from '../../own-designs/own-design-states';
import type { Engine } from '../../runtime/engine';
import { designCard } from './design-card';
import { iso } from './iso';

/** What a design's waiting changes mean now, in words: whether they are being sent, or wait (and for what). */
function noteOf(engine: Engine, state: OwnDesignState): string | null {
  const offline = !engine.connectivity.state.online;
  const { editsWaiting, filesWaiting } = state;
  const notes = [
    editsWaiting > 0 ? (offline ? 'Saved here; it is sent when the service is back.' : 'Saved here; it is being sent to the service.') : null,
    // Rule 5 holds the whole queue, edits of what is published in the person's name included.
    editsWaiting > 0 && !engine.contentPolicyAccepted() ? 'Nothing is sent until you accept the content policy in Sync.' : null,
    filesWaiting > 0 && offline ? `${filesWaiting} file change${filesWaiting === 1 ? ' waits' : 's wait'} to be sent when the service is back.` : null,
  ].filter((note): note is string => note !== null);
  return notes.length > 0 ? notes.join(' ') : null;
}

/** Own designs as the window's My designs shows them (the library says what their cards credit and show). */
export async function ownDesignViews(engine: Engine, library: Library, states: readonly OwnDesignState[]): Promise<OwnDesignView[]> {
  const me = engine.session.state.status !== 'signed-out' ? engine.session.state.user : null;
  const summaries = states.map((state) => state.summary);
  const { authors, covers } = await library.cardFacts(summaries, me ? new Map([[me.id, me.screen_name]]) : undefined);
  return states.map((state) => ({
    card: designCard(state.summary, authors, covers),
    published: state.summary.state === 'published',
    folder: state.folder,
    syncState: state.syncState,
    pending: state.pending,
    note: noteOf(engine, state),
    folderState: state.folderFacts.folderState,
    uploading: state.folderFacts.uploading,
    needsYou: state.folderFacts.needsYou,
    files: state.folderFacts.files,
    lastSyncedAt: iso(state.folderFacts.lastSyncedAt),
  }));
}

export async function ownDesignView(engine: Engine, library: Library, state: OwnDesignState): Promise<OwnDesignView> {
  return (await ownDesignViews(engine, library, [state]))[0]!;
}
