import type { OwnSyncState, QueueState } from '../../../shared';
import type { DesignSummary } from '../cache/design-reads';
import type { QueueItem } from '../queue/queue-item';
import type { OwnDesignsDeps } from './own-designs-deps';
import { ownFolderFacts, type OwnFolderFacts } from './own-folder-facts';

const NOT_DONE: QueueState[] = ['running', 'waiting', 'attention', 'failed'];

/** One own design as the person's list shows it: the cached design with its waiting edits, and how its sync goes. */
export interface OwnDesignState {
  /** The cached design, with the fields of edits waiting in the queue (they win over an older pull). */
  summary: DesignSummary;
  /** Its folder in the sync folder, or null. */
  folder: string | null;
  syncState: OwnSyncState;
  /** Queue items of this design not done yet. */
  pending: number;
  /** Edits of its fields saved here that wait to be sent. */
  editsWaiting: number;
  /** File changes of its folder that wait to be sent. */
  filesWaiting: number;
  /** Its folder's state, files and last sync, as My designs shows them. */
  folderFacts: OwnFolderFacts;
}

function syncStateOf(items: QueueItem[], folder: string | null, hasRoot: boolean): OwnSyncState {
  if (!hasRoot || !folder) return 'not-synced';
  if (items.some((item) => item.state === 'failed')) return 'error';
  if (items.some((item) => item.state === 'attention')) return 'attention';
  if (items.length > 0) return 'syncing';
  return 'synced';
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

/** What a design's state is made from: the cache, the queue's open items, the sync folder. */
export type StateDeps = Pick<OwnDesignsDeps, 'cache' | 'queue' | 'sync'>;

/** The folders of the sync folder by design, when a service is chosen (no folder otherwise). */
function foldersOf(deps: Pick<OwnDesignsDeps, 'sync'>) {
  const sync = deps.sync();
  return {
    hasRoot: sync?.root.current() != null,
    folderOf: (id: number) => sync?.folders.ofDesign(id)?.folder ?? null,
    designOf: (folder: string) => sync?.folders.get(folder)?.designId ?? null,
    syncedFiles: (id: number) => sync?.base.ofDesign(id) ?? [],
  };
}

/** The states of these cached own designs, from the queue's open items and the sync folder's links. */
export function ownDesignStates(deps: StateDeps, summaries: readonly DesignSummary[]): OwnDesignState[] {
  const { hasRoot, folderOf, syncedFiles } = foldersOf(deps);
  const open = deps.queue.list({ states: NOT_DONE });
  const lastScanAt = hasRoot ? deps.queue.status().lastScanAt : null;
  return summaries.map((cached) => {
    const folder = folderOf(cached.id);
    const items = open.filter((item) => item.designId === cached.id || (folder !== null && item.folder === folder));
    const edits = items.filter((item) => item.kind === 'update-design' && item.state !== 'failed');
    // A pull between the edit and its sending must not show the service's older values: the waiting edit wins.
    const summary = edits.reduce((shown, edit) => withEdit(shown, edit), cached);
    const files = items.filter((item) => item.kind !== 'update-design');
    return {
      summary,
      folder,
      syncState: syncStateOf(items, folder, hasRoot || edits.length > 0),
      pending: items.length,
      editsWaiting: edits.length,
      filesWaiting: files.filter((item) => item.state === 'waiting').length,
      folderFacts: ownFolderFacts(deps.cache.reader, cached.id, hasRoot ? folder : null, items, folder !== null ? syncedFiles(cached.id) : [], lastScanAt),
    };
  });
}

/** The own design a queue item is about (its design, or the design its folder stands for), or null. */
export function designOfItem(deps: Pick<OwnDesignsDeps, 'sync'>, item: { designId: number | null; folder: string | null }): number | null {
  if (item.designId !== null) return item.designId;
  return item.folder !== null ? foldersOf(deps).designOf(item.folder) : null;
}

/** Own designs with queue items not done yet (their notes follow connectivity and the content policy). */
export function designsWithOpenItems(deps: Pick<OwnDesignsDeps, 'sync' | 'queue'>): number[] {
  const ids = new Set<number>();
  for (const item of deps.queue.list({ states: NOT_DONE })) {
    const id = designOfItem(deps, item);
    if (id !== null) ids.add(id);
  }
  return [...ids];
}
