import type { BaseFile, BaseFiles } from '../sync-state/base-files';
import type { DesignFolders } from '../sync-state/design-folders';
import type { SyncDatabase } from '../sync-state/sync-database';
import type { QueueItem } from './queue-item';
import type { QueueItems, Retarget } from './queue-items';

/** The last synced state of files, as much of it as a job reads and writes (its `record` writes it). */
export type JobBaseFiles = Pick<BaseFiles, 'get' | 'byRemote' | 'record' | 'move' | 'remove'>;

/** The links of folders to designs, as much of them as a job reads and writes. */
export type JobDesignFolders = Pick<DesignFolders, 'get' | 'ofDesign' | 'link' | 'setState'>;

/**
 * What a job may change in the queue and the last synced state besides its own attempt (the job context's sending,
 * progress and log): a few single writes, and each change that must be whole after a crash as one named method, one
 * transaction. A job never sees the database.
 */
export interface JobStore {
  /** The item now stands for another kind of change, record or file version (an upload already done becomes a replace). */
  retarget(itemId: number, changes: Retarget): void;
  /** Merges into the item's payload (what the service answered, for the cache). */
  mergePayload(itemId: number, payload: Record<string, unknown>): void;
  /** Whether an edit of the same design queued before this one is being sent now (this one must wait for it). */
  earlierEditBeingSent(item: Pick<QueueItem, 'id' | 'designId'>): boolean;
  /**
   * A design was made for the item's folder (or found made by an attempt whose answer was lost): the folder is linked
   * to it, and its id kept in the item so that it is never made twice; the attempt is no longer in doubt.
   */
  adoptDesign(itemId: number, folder: string, designId: number): void;
  /**
   * What an attempt sent is on the service though its answer was lost, while a newer version of the file waits: `base`
   * (the version sent) becomes the last synced state, the attempt is no longer in doubt, and the item becomes `then`
   * (a replace of the record made) when given.
   */
  alreadySent(itemId: number, base: BaseFile, then?: Retarget): void;
  /** The service's record of the file is gone: the last synced state of `forgetPath` is forgotten, and the item uploads the file as a new one. */
  sendAsNew(itemId: number, forgetPath: string): void;
}

/** The JobStore of a runner: over the queue's items and the last synced state of the same sync database. */
export class QueueJobStore implements JobStore {
  constructor(
    private readonly db: SyncDatabase,
    private readonly items: QueueItems,
    private readonly baseFiles: BaseFiles,
    private readonly designFolders: DesignFolders,
  ) {}

  retarget(itemId: number, changes: Retarget): void {
    this.items.retarget(itemId, changes);
  }

  mergePayload(itemId: number, payload: Record<string, unknown>): void {
    this.items.mergePayload(itemId, payload);
  }

  earlierEditBeingSent(item: Pick<QueueItem, 'id' | 'designId'>): boolean {
    if (item.designId === null) return false;
    return this.items.pendingDesignEdits(item.designId).some((other) => other.id < item.id && other.state === 'running');
  }

  adoptDesign(itemId: number, folder: string, designId: number): void {
    this.db.transaction(() => {
      this.designFolders.link(folder, designId);
      this.items.mergePayload(itemId, { createdDesignId: designId });
      this.items.clearSent(itemId);
    })();
  }

  alreadySent(itemId: number, base: BaseFile, then?: Retarget): void {
    this.db.transaction(() => {
      this.baseFiles.record(base);
      this.items.clearSent(itemId);
      if (then) this.items.retarget(itemId, then);
    })();
  }

  sendAsNew(itemId: number, forgetPath: string): void {
    this.db.transaction(() => {
      this.baseFiles.remove(forgetPath);
      this.items.retarget(itemId, { kind: 'upload', remoteId: null });
    })();
  }
}
