import { describeFieldErrors, validateDesignInput, type FieldErrors, type OwnDesignView, type OwnSyncState, type QueueState } from '../../../../shared';
import type { DesignFields } from '../../api/service-client';
import { isServiceError } from '../../api/service-error';
import type { SignedInUser } from '../../authorization/signed-in-user';
import { getCachedDesign, listCachedDesigns, type DesignSummary } from '../../cache/design-reads';
import { deleteDesigns, upsertDesign } from '../../cache/design-writes';
import type { QueueItem } from '../../queue/queue-item';
import type { Engine } from '../../runtime/engine';
import { showEditInCache } from '../../runtime/design-edits';
import { EngineError } from '../../runtime/engine-error';
import type { Handlers } from '../handler-types';
import { resolveAuthors } from '../resolve-authors';
import { designCard } from '../views/design-card';

const NOT_DONE: QueueState[] = ['running', 'waiting', 'attention', 'failed'];

function syncStateOf(items: QueueItem[], folder: string | null, hasRoot: boolean): OwnSyncState {
  if (!hasRoot || !folder) return 'not-synced';
  if (items.some((item) => item.state === 'failed')) return 'error';
  if (items.some((item) => item.state === 'attention')) return 'attention';
  if (items.length > 0) return 'syncing';
  return 'synced';
}

const signedInUser = (engine: Engine): SignedInUser | null => (engine.session.state.status !== 'signed-out' ? engine.session.state.user : null);

async function ownViews(engine: Engine, summaries: DesignSummary[]): Promise<OwnDesignView[]> {
  const parts = engine.serviceUrl() ? engine.syncParts() : null;
  const hasRoot = parts?.sync.root.current() != null;
  const open = engine.queue.list({ states: NOT_DONE });
  const me = signedInUser(engine);
  const authors = me ? new Map([[me.id, me.screen_name]]) : await resolveAuthors(engine, summaries);
  return summaries.map((cached) => {
    const folder = parts?.sync.folders.ofDesign(cached.id)?.folder ?? null;
    const items = open.filter((item) => item.designId === cached.id || (folder !== null && item.folder === folder));
    const edits = items.filter((item) => item.kind === 'update-design' && item.state !== 'failed');
    // A pull between the edit and its sending must not show the service's older values: the waiting edit wins.
    const summary = edits.reduce((shown, edit) => withEdit(shown, edit), cached);
    const files = items.filter((item) => item.kind !== 'update-design');
    const syncState = syncStateOf(items, folder, hasRoot || edits.length > 0);
    const waiting = files.filter((item) => item.state === 'waiting').length;
    const offline = !engine.connectivity.state.online;
    const notes = [
      edits.length > 0 ? (offline ? 'Saved here; it is sent when the service is back.' : 'Saved here; it is being sent to the service.') : null,
      // Rule 5 holds the whole queue, edits of what is published in the person's name included.
      edits.length > 0 && !engine.contentPolicyAccepted() ? 'Nothing is sent until you accept the content policy in Sync.' : null,
      waiting > 0 && offline ? `${waiting} file change${waiting === 1 ? ' waits' : 's wait'} to be sent when the service is back.` : null,
    ].filter((note): note is string => note !== null);
    return {
      card: designCard(summary, authors),
      published: summary.state === 'published',
      folder,
      syncState,
      pending: items.length,
      note: notes.length > 0 ? notes.join(' ') : null,
      editWaiting: edits.length > 0,
    };
  });
}

/** A design's summary with the fields of an edit that waits in the queue. */
function withEdit(summary: DesignSummary, edit: QueueItem): DesignSummary {
  const fields = (edit.payload.fields ?? {}) as { name?: string; excerpt?: string; license?: string };
  return {
    ...summary,
    ...(fields.name !== undefined ? { name: fields.name } : {}),
    ...(fields.excerpt !== undefined ? { excerpt: fields.excerpt } : {}),
    ...(fields.license !== undefined ? { license: fields.license } : {}),
  };
}

/**
 * An edit the service certainly did not get (it could not be reached), or any edit while an earlier one of the same
 * design still waits (sent directly, it would be overwritten by the older one): kept in the durable queue, merged
 * with the one waiting, shown in the cache at once, and sent when the service is back.
 */
function queueEdit(engine: Engine, summary: DesignSummary, fields: DesignFields): void {
  engine.queue.enqueueDesignEdit(summary.id, fields as Record<string, unknown>, fields.name ?? summary.name);
  showEditInCache(engine.cache, summary.id, fields as Record<string, unknown>);
  engine.queueWorkAdded();
}

/** Signed in, and who that is when the service can say (a token read from storage names nobody): ownership is by id. */
export async function requireSignedIn(engine: Engine): Promise<void> {
  if (!engine.session.canWrite()) {
    throw new EngineError({ kind: 'not-signed-in', message: engine.session.state.status === 'needs-sign-in' ? engine.session.state.reason : 'Sign in to create and edit your designs.' });
  }
  await engine.confirmUser();
}

/** The service's own field names in the contract's words. */
function contractFieldErrors(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([field, messages]) => [field === 'primary_image_id' ? 'primaryImageId' : field, messages]));
}

/** The shared validation, so that the messages are the service's own; refused before anything is sent. */
function checked(input: Record<string, unknown>, mode: 'create' | 'update'): DesignFields {
  const present = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const result = validateDesignInput(present, mode);
  if (!result.ok) throw new EngineError({ kind: 'validation', message: `The design was not saved: ${describeFieldErrors(result.errors)}.`, fieldErrors: contractFieldErrors(result.errors) });
  return result.value as DesignFields;
}

/** A write the service refused for a field (a primary image not of this design…), named as the contract names it. */
async function sent<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const problem = isServiceError(error) ? error.problem : null;
    if (problem?.kind === 'validation') throw new EngineError({ ...problem, fieldErrors: contractFieldErrors(problem.fieldErrors) });
    throw error;
  }
}

/** Whether a design is the signed-in user's: its owner when the user is known, else what an own pull marked. */
const isMine = (engine: Engine, summary: DesignSummary) => {
  const me = signedInUser(engine);
  return me ? summary.userId === me.id : summary.own;
};

/** Stores a design as the service answered it, as one of the user's own. */
function storeOwn(engine: Engine, design: unknown): void {
  const me = signedInUser(engine);
  upsertDesign(engine.cache.db, design, 'list', Date.now(), { own: true, ...(me ? { ownScreenName: me.screen_name } : {}) });
}

/** A design of the signed-in user's (read from the service when the cache lacks it); refused when it is someone else's. */
export async function ownDesign(engine: Engine, id: number): Promise<DesignSummary> {
  let cached = getCachedDesign(engine.cache.reader, id);
  if (!cached) {
    upsertDesign(engine.cache.db, await engine.interactiveClient().getDesign(id), 'list', Date.now());
    cached = getCachedDesign(engine.cache.reader, id);
    if (!cached) throw new EngineError({ kind: 'not-found', message: `There is no design ${id} on the service.` });
  }
  if (!isMine(engine, cached.summary)) throw new EngineError({ kind: 'conflict', message: `The design "${cached.summary.name}" is not yours: only its author can change it.` });
  return cached.summary;
}

async function viewOf(engine: Engine, id: number): Promise<OwnDesignView> {
  return (await ownViews(engine, [getCachedDesign(engine.cache.reader, id)!.summary]))[0]!;
}

/** Reads the design back from the service and stores it as own: the view then shows what the service holds. */
async function refreshed(engine: Engine, id: number): Promise<OwnDesignView> {
  storeOwn(engine, await engine.interactiveClient().getDesign(id));
  return viewOf(engine, id);
}

/**
 * The signed-in user's designs, drafts included, and their edits. Writes use the interactive client (a person waits:
 * offline is said at once, and the window keeps the form); a POST is never repeated once it may have arrived.
 */
export const OWN_DESIGN_HANDLERS: Handlers<'own.list' | 'own.create' | 'own.update' | 'own.publish' | 'own.delete'> = {
  'own.list': async (engine) => {
    await engine.confirmUser();
    return ownViews(engine, listCachedDesigns(engine.cache.reader, { ownOnly: true, ownerId: signedInUser(engine)?.id ?? null, sort: 'updated', limit: 500 }));
  },
  /** A new design starts unpublished: publishing is its own request, on the person's word (rule 4). */
  'own.create': async (engine, { name, excerpt, license, description }) => {
    await requireSignedIn(engine);
    const fields = checked({ name, excerpt, license, description }, 'create');
    const created = await sent(engine.interactiveClient().createDesign(fields));
    storeOwn(engine, created);
    return viewOf(engine, created.id);
  },
  /**
   * Offline (the service certainly did not get it), the edit waits in the durable queue and says so; so does one made
   * while an earlier edit of the design waits. A change of the cover image needs the service: it is not queued.
   */
  'own.update': async (engine, { id, name, excerpt, license, description, primaryImageId }) => {
    await requireSignedIn(engine);
    const fields = checked({ name, excerpt, license, description, primary_image_id: primaryImageId }, 'update');
    const summary = await ownDesign(engine, id);
    const queueable = primaryImageId === undefined;
    if (queueable && engine.queue.pendingDesignEdits(id).length > 0) {
      queueEdit(engine, summary, fields);
      return viewOf(engine, id);
    }
    try {
      await sent(engine.interactiveClient().updateDesign(id, fields));
    } catch (error) {
      if (!queueable || !isServiceError(error) || error.problem.kind !== 'offline' || error.problem.maybeApplied) throw error;
      queueEdit(engine, summary, fields);
      return viewOf(engine, id);
    }
    engine.queue.supersedeFailedDesignEdits(id);
    return refreshed(engine, id);
  },
  'own.publish': async (engine, { id }) => {
    await requireSignedIn(engine);
    await ownDesign(engine, id);
    await sent(engine.interactiveClient().publishDesign(id));
    return refreshed(engine, id);
  },
  'own.delete': async (engine, { id }) => {
    await requireSignedIn(engine);
    await ownDesign(engine, id);
    await engine.interactiveClient().deleteDesign(id);
    deleteDesigns(engine.cache.db, [id]);
    return { id };
  },
};
