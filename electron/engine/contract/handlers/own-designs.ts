import { describeFieldErrors, validateDesignInput, type FieldErrors, type OwnDesignView, type OwnSyncState, type QueueState } from '../../../../shared';
import type { DesignFields } from '../../api/service-client';
import { getCachedDesign, listCachedDesigns, type DesignSummary } from '../../cache/design-reads';
import { deleteDesigns, upsertDesign } from '../../cache/design-writes';
import type { QueueItem } from '../../queue/queue-store';
import type { Engine } from '../../runtime/engine';
import { EngineError } from '../../runtime/engine-error';
import type { Handlers } from '../handler-types';
import { designCard } from '../views/design-card';

const NOT_DONE: QueueState[] = ['running', 'waiting', 'attention', 'failed'];

function syncStateOf(items: QueueItem[], folder: string | null, hasRoot: boolean): OwnSyncState {
  if (!hasRoot || !folder) return 'not-synced';
  if (items.some((item) => item.state === 'failed')) return 'error';
  if (items.some((item) => item.state === 'attention')) return 'attention';
  if (items.length > 0) return 'syncing';
  return 'synced';
}

function ownViews(engine: Engine, summaries: DesignSummary[]): OwnDesignView[] {
  const parts = engine.serviceUrl() ? engine.syncParts() : null;
  const hasRoot = parts?.sync.root.current() != null;
  const open = engine.queue.list({ states: NOT_DONE });
  const me = engine.session.state.status !== 'signed-out' ? engine.session.state.user : null;
  const authors = me ? new Map([[me.id, me.screen_name]]) : new Map<number, string>();
  return summaries.map((summary) => {
    const folder = parts?.sync.folders.ofDesign(summary.id)?.folder ?? null;
    const items = open.filter((item) => item.designId === summary.id || (folder !== null && item.folder === folder));
    const syncState = syncStateOf(items, folder, hasRoot);
    const waiting = items.filter((item) => item.state === 'waiting').length;
    return {
      card: designCard(summary, authors),
      published: summary.state === 'published',
      folder,
      syncState,
      pending: items.length,
      note: waiting > 0 && !engine.connectivity.state.online ? `${waiting} change${waiting === 1 ? ' waits' : 's wait'} to be sent when the service is back.` : null,
    };
  });
}

function requireSignedIn(engine: Engine): void {
  if (!engine.session.canWrite()) {
    throw new EngineError({ kind: 'not-signed-in', message: engine.session.state.status === 'needs-sign-in' ? engine.session.state.reason : 'Sign in to create and edit your designs.' });
  }
}

/** The service's own field names in the contract's words. */
function contractFieldErrors(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([field, messages]) => [field === 'primary_image_id' ? 'primaryImageId' : field, messages]));
}

function checked(input: Record<string, unknown>, mode: 'create' | 'update'): DesignFields {
  const present = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const result = validateDesignInput(present, mode);
  if (!result.ok) throw new EngineError({ kind: 'validation', message: `The design was not saved: ${describeFieldErrors(result.errors)}.`, fieldErrors: contractFieldErrors(result.errors) });
  return result.value as DesignFields;
}

/** A design of the signed-in user's, from the cache; refused when it is someone else's. */
function ownDesign(engine: Engine, id: number): DesignSummary {
  const cached = getCachedDesign(engine.cache.reader, id);
  if (!cached) throw new EngineError({ kind: 'not-found', message: `There is no design ${id} among your designs here: pull first.` });
  if (!cached.summary.own) throw new EngineError({ kind: 'conflict', message: `The design "${cached.summary.name}" is not yours: only its author can change it.` });
  return cached.summary;
}

/** Reads the design back from the service and stores it as own: the view then shows what the service holds. */
async function refreshed(engine: Engine, id: number): Promise<OwnDesignView> {
  const design = await engine.client().getDesign(id);
  const me = engine.session.state.status !== 'signed-out' ? engine.session.state.user : null;
  upsertDesign(engine.cache.db, design, 'list', Date.now(), { own: true, ...(me ? { ownScreenName: me.screen_name } : {}) });
  return ownViews(engine, [getCachedDesign(engine.cache.reader, id)!.summary])[0]!;
}

export const OWN_DESIGN_HANDLERS: Handlers<'own.list' | 'own.create' | 'own.update' | 'own.publish' | 'own.delete'> = {
  'own.list': (engine) => ownViews(engine, listCachedDesigns(engine.cache.reader, { ownOnly: true, sort: 'updated', limit: 500 })),
  /** A new design starts unpublished: publishing is its own request, on the person's word (rule 4). */
  'own.create': async (engine, { name, excerpt, license, description }) => {
    requireSignedIn(engine);
    const fields = checked({ name, excerpt, license, description }, 'create');
    const created = await engine.client().createDesign(fields);
    return refreshed(engine, created.id);
  },
  'own.update': async (engine, { id, name, excerpt, license, description, primaryImageId }) => {
    requireSignedIn(engine);
    ownDesign(engine, id);
    const fields = checked({ name, excerpt, license, description, primary_image_id: primaryImageId }, 'update');
    await engine.client().updateDesign(id, fields);
    return refreshed(engine, id);
  },
  'own.publish': async (engine, { id }) => {
    requireSignedIn(engine);
    ownDesign(engine, id);
    await engine.client().publishDesign(id);
    return refreshed(engine, id);
  },
  'own.delete': async (engine, { id }) => {
    requireSignedIn(engine);
    ownDesign(engine, id);
    await engine.client().deleteDesign(id);
    deleteDesigns(engine.cache.db, [id]);
    return { id };
  },
};
