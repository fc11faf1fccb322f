import { EventEmitter } from 'node:events';
import type { DroppedFileView } from '../../../shared';
import type { DesignFields, ServiceClient } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import { getCachedDesign, listCachedDesigns, readSyncState, summariesByIds, type DesignSummary } from '../cache/design-reads';
import { pullOwnDesigns } from '../cache/pull';
import { engineLog } from '../log/engine-log';
import type { QueueEvent } from '../queue/queue-item';
import type { OwnChange } from '../runtime/design-changes';
import { showEditInCache } from '../runtime/design-edits';
import { EngineError } from '../runtime/engine-error';
import { addDroppedFile, type DroppedFile } from './dropped-files';
import { createdLine, deletedLine, editQueuedLine, editSentLine, notPublishedLine, publishedLine } from './own-activity';
import { checkedFields, ownDesign, requireSignedIn, sent, storeOwn } from './own-design-rules';
import { signedInUserOf, type OwnDesignsDeps } from './own-designs-deps';
import { designOfItem, designsWithOpenItems, ownDesignStates, type OwnDesignState } from './own-design-states';

/** Own designs listed at most (the window's list). */
const LIST_LIMIT = 500;
/** Queue changes come in bursts (a scan queues thousands of items): told once per burst. */
const COALESCE_MS = 100;
/** Opening the list reads the own designs from the service again when the last read is older than this. */
const STALE_AFTER_MS = 30_000;

export interface OwnDesignFields {
  name?: string;
  excerpt?: string;
  license?: string;
  description?: string;
  primaryImageId?: number | null;
}

/**
 * The signed-in user's own designs, with the rules of publishing (a new design is a draft; publishing and deleting
 * are asked for; an edit the service certainly did not get waits in the durable queue) and of a file dropped on one
 * (dropped-files.ts). What it writes of them goes through the cache's designs store. Writes use the interactive
 * client (a person waits: offline is said at once); a POST is never repeated once it may have arrived. Every action
 * taken in the person's name is written to the activity list. Emits 'changed' with the ids whose view changed (the
 * cache, or their queue items) and those removed.
 */
export class OwnDesigns extends EventEmitter<{ changed: [OwnChange] }> {
  private readonly offs: (() => void)[] = [];
  private pending = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private pulling: Promise<void> | null = null;
  private readonly abort = new AbortController();
  private lastPullStartedAt = 0;

  constructor(private readonly deps: OwnDesignsDeps) {
    super();
    const { changes, queue, connectivity, session } = deps;
    const onOwn = (change: OwnChange) => this.emit('changed', change);
    changes.on('own', onOwn);
    this.offs.push(() => changes.off('own', onOwn));
    const onQueue = (event: QueueEvent) => {
      if (event.type !== 'item') return;
      const id = designOfItem(deps, event.item);
      if (id !== null) this.soon([id]);
    };
    queue.on('change', onQueue);
    this.offs.push(() => queue.off('change', onQueue));
    // Notes of designs with waiting changes say whether the service is there and whether rule 5 holds them.
    const onSituation = () => this.soon(designsWithOpenItems(deps));
    connectivity.on('change', onSituation);
    this.offs.push(() => connectivity.off('change', onSituation));
    this.offs.push(deps.onStateChange(onSituation));
    // Right after a sign-in, the own designs (drafts included, which the public listing lacks) are read.
    let wasSignedIn = session.canWrite();
    this.offs.push(session.subscribe(() => {
      const signedIn = session.canWrite();
      if (signedIn && !wasSignedIn) this.refreshFromService();
      // Whose designs are own changed: compared again.
      if (!signedIn && wasSignedIn) changes.checkOwn();
      wasSignedIn = signedIn;
    }));
  }

  /**
   * The own designs the cache holds, drafts included; unless `refresh` is false, read again from the service in the
   * background when stale (what changes is told through 'changed').
   */
  async list(options: { refresh?: boolean } = {}): Promise<OwnDesignState[]> {
    await this.deps.confirmUser();
    const reader = this.deps.cache.reader;
    const last = readSyncState(reader).lastOwnPullAt ?? 0;
    if (options.refresh !== false && Date.now() - Math.max(last, this.lastPullStartedAt) > STALE_AFTER_MS) this.refreshFromService();
    const summaries = listCachedDesigns(reader, { ownOnly: true, ownerId: signedInUserOf(this.deps.session)?.id ?? null, sort: 'updated', limit: LIST_LIMIT });
    return ownDesignStates(this.deps, summaries);
  }

  /** The states of these own designs (those the cache no longer has are left out). */
  states(ids: readonly number[]): OwnDesignState[] {
    return ownDesignStates(this.deps, summariesByIds(this.deps.cache.reader, ids));
  }

  /** A new design starts unpublished: publishing is its own request, on the person's word (rule 4). */
  async create(input: OwnDesignFields): Promise<OwnDesignState> {
    await requireSignedIn(this.deps);
    const fields = checkedFields({ name: input.name, excerpt: input.excerpt, license: input.license, description: input.description }, 'create');
    const created = await sent(this.deps.interactiveClient().createDesign(fields));
    storeOwn(this.deps, created);
    this.deps.queue.log('info', createdLine(created.name ?? fields.name ?? String(created.id)));
    return this.stateOf(created.id);
  }

  /**
   * Offline (the service certainly did not get it), the edit waits in the durable queue and says so; so does one made
   * while an earlier edit of the design waits. A change of the cover image needs the service: it is not queued.
   */
  async update(id: number, input: OwnDesignFields): Promise<OwnDesignState> {
    await requireSignedIn(this.deps);
    const fields = checkedFields({ name: input.name, excerpt: input.excerpt, license: input.license, description: input.description, primary_image_id: input.primaryImageId }, 'update');
    const summary = await ownDesign(this.deps, id);
    const queueable = input.primaryImageId === undefined;
    if (queueable && this.deps.queue.pendingDesignEdits(id).length > 0) return this.queueEdit(summary, fields);
    try {
      await sent(this.deps.interactiveClient().updateDesign(id, fields));
    } catch (error) {
      if (!queueable || !isServiceError(error) || error.problem.kind !== 'offline' || error.problem.maybeApplied) throw error;
      return this.queueEdit(summary, fields);
    }
    this.deps.queue.supersedeFailedDesignEdits(id);
    const design = await this.readBack(id);
    this.deps.queue.log('info', editSentLine(design.summary.name, fields), design.folder);
    return design;
  }

  /**
   * Publishes a draft: only on the person's explicit request (rule 4). The service's forms of publishing are tried
   * in turn, each confirmed by reading the design back; when none publishes it, that is said (here and in the
   * activity list) and the design stays a draft.
   */
  async publish(id: number): Promise<OwnDesignState> {
    await requireSignedIn(this.deps);
    await ownDesign(this.deps, id);
    const outcome = await sent(this.deps.interactiveClient().publishDesign(id));
    storeOwn(this.deps, outcome.design);
    const design = this.stateOf(id);
    if (!outcome.published) {
      const line = notPublishedLine(design.summary.name);
      this.deps.queue.log('warning', line, design.folder);
      throw new EngineError({ kind: 'conflict', message: line.text, ...(line.words ? { words: line.words } : {}) });
    }
    this.deps.queue.log('info', publishedLine(design.summary.name), design.folder);
    return design;
  }

  /** Deletes a design on the service (the person confirmed it), then from the cache. */
  async delete(id: number): Promise<{ id: number; name: string; folder: string | null }> {
    await requireSignedIn(this.deps);
    const summary = await ownDesign(this.deps, id);
    const folder = this.stateOf(id).folder;
    await this.deps.interactiveClient().deleteDesign(id);
    this.deps.cache.designs.remove([id], true);
    this.deps.queue.log('info', deletedLine(summary.name), folder);
    // Its folder in the sync folder is handled at once (to the trash, or kept when changed here: docs/sync.md).
    if (folder !== null) {
      this.deps.designDeleted(id).catch((error: unknown) =>
        engineLog.warn('own-designs', `the folder ${folder} of the deleted design ${id} could not be handled now; the next pass does it`, error));
    }
    return { id, name: summary.name, folder };
  }

  /**
   * A file given to one of the person's own designs (dropped in the window, or a picture used as its cover), its
   * bytes staged by the contract: placed in the design's folder by the rules of dropped-files.ts.
   */
  addDroppedFile(drop: DroppedFile): Promise<DroppedFileView> {
    return addDroppedFile(this.deps, drop);
  }

  /**
   * Reads the own designs from the service in the background (one read at a time); what changed is told through
   * 'changed'. A failure is logged: the list shows what the cache has.
   */
  refreshFromService(): void {
    const client: ServiceClient | null = this.abort.signal.aborted ? null : this.deps.client();
    if (this.pulling || !client || !this.deps.session.canWrite()) return;
    this.lastPullStartedAt = Date.now();
    const { cache } = this.deps;
    // The pull writes on its own path (cache/pull-writer.ts); its end is told through the designs store.
    this.pulling = pullOwnDesigns(client, cache.db, cache.files, { signal: this.abort.signal })
      .then(() => cache.designs.pulled({ own: true, all: false }))
      .catch((error: unknown) => {
        (isServiceError(error, 'offline') || isServiceError(error, 'cancelled') ? engineLog.info : engineLog.warn)
          .call(engineLog, 'own-designs', 'the own designs could not be read from the service', error);
      })
      .finally(() => {
        this.pulling = null;
      });
  }

  /** Stops following the engine; a read from the service under way is stopped and waited for. */
  async close(): Promise<void> {
    for (const off of this.offs.splice(0)) off();
    clearTimeout(this.timer);
    this.abort.abort();
    await this.pulling;
  }

  private queueEdit(summary: DesignSummary, fields: DesignFields): OwnDesignState {
    this.deps.queue.enqueueDesignEdit(summary.id, fields as Record<string, unknown>, fields.name ?? summary.name);
    showEditInCache(this.deps.cache.designs, summary.id, fields as Record<string, unknown>);
    this.deps.queueWorkAdded();
    const design = this.stateOf(summary.id);
    this.deps.queue.log('info', editQueuedLine(design.summary.name, fields), design.folder);
    return design;
  }

  /** Reads the design back from the service and stores it as own: the state then shows what the service holds. */
  private async readBack(id: number): Promise<OwnDesignState> {
    storeOwn(this.deps, await this.deps.interactiveClient().getDesign(id));
    return this.stateOf(id);
  }

  private stateOf(id: number): OwnDesignState {
    const cached = getCachedDesign(this.deps.cache.reader, id);
    if (!cached) throw new Error(`The design ${id} is not in the cache after it was written`);
    return ownDesignStates(this.deps, [cached.summary])[0]!;
  }

  private soon(ids: readonly number[]): void {
    for (const id of ids) this.pending.add(id);
    if (this.timer || this.pending.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const changed = [...this.pending];
      this.pending = new Set();
      this.emit('changed', { ids: changed, removed: [] });
    }, COALESCE_MS);
    this.timer.unref();
  }
}
