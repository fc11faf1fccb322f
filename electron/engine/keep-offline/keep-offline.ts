import { EventEmitter, setMaxListeners } from 'node:events';
import { isServiceError } from '../api/service-error';
import type { ServiceClient } from '../api/service-client';
import type { WritableDB } from '../cache/cache-database';
import { refreshDesignFiles } from '../cache/child-lists';
import { getCachedDesign, summariesByIds } from '../cache/design-reads';
import type { FileCache } from '../cache/file-cache';
import { engineLog } from '../log/engine-log';
import { keptFilesOf, planKeptFiles, type KeptFile } from './kept-files-plan';
import { keptAmong, keptDesign, keptDesigns, keptFilesHere, keptWrites, type KeptDesignRow } from './kept-store';

/**
 * Where a kept design is: every file here ('ready'); being downloaded now ('downloading'); waiting its turn
 * ('queued'); waiting for the service to be reachable ('waiting'); or stopped by a problem that a later check may
 * clear ('problem', with its words).
 */
export type KeptState = 'ready' | 'downloading' | 'queued' | 'waiting' | 'problem';

export interface KeptDesignStatus {
  designId: number;
  /** Its name as the cache has it (null when the cache no longer has the design). */
  name: string | null;
  keptAt: number;
  state: KeptState;
  /** Files it needs, as last listed (0 before the first listing). */
  filesTotal: number;
  filesHere: number;
  /** Bytes on disk of the files here. */
  bytesHere: number;
  /** The file being downloaded now, with its bytes so far (and its size when the answer says). */
  current: { name: string; bytesDone: number; bytesTotal: number | null } | null;
  problem: string | null;
  checkedAt: number | null;
}

export interface KeepOfflineOptions {
  db: WritableDB;
  files: FileCache;
  /** The service's client, or null when no service is chosen. */
  client: () => ServiceClient | null;
  /** Whether the service answers now (connectivity): while it does not, kept designs wait. */
  online: () => boolean;
  now?: () => number;
  /** How often a design's progress is told while one file downloads (default 250 ms). */
  progressEveryMs?: number;
}

/** A design that waited for the service while connectivity said it answers is tried again after this long. */
const RETRY_WHILE_ONLINE_MS = 15_000;
/** Files of one design downloaded at once. */
const DOWNLOADS_AT_ONCE = 8;

/** A designs' change as the engine tells it (runtime/design-changes.ts). */
export interface DesignsChangeLike {
  ids: readonly number[];
  all: boolean;
}

/**
 * Designs kept offline: the person chose them, so all their images (the renditions the window shows) and documents
 * are downloaded into the file cache and never evicted (the cache's bound applies to the rest). The one writer of
 * `kept_designs` and `kept_files`. Downloads run one file at a time, one design after another, in the order asked;
 * while the service cannot be reached they wait and resume by themselves when it can (`resume`). A kept design is
 * checked again when the service says it changed (its `updated_at` moved) or a pull of the catalogue ended: its
 * lists are read again (two conditional GETs) and what is new or changed is downloaded. Tells `progress` while it
 * works and `changed` (ids) when a design became kept, released, or its files changed here.
 */
export class KeepOffline extends EventEmitter<{ progress: [KeptDesignStatus]; changed: [{ ids: number[] }] }> {
  private readonly now: () => number;
  private readonly progressEveryMs: number;
  private readonly pending: number[] = [];
  /** The design being brought, and its files downloading now (the first of them is told as `current`). */
  private working: { designId: number; controller: AbortController; inFlight: Set<NonNullable<KeptDesignStatus['current']>> } | null = null;
  private loop: Promise<void> | null = null;
  private waitingForService = false;
  private closed = false;
  private readonly idleWaiters: (() => void)[] = [];
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: KeepOfflineOptions) {
    super();
    this.now = options.now ?? Date.now;
    this.progressEveryMs = options.progressEveryMs ?? 250;
  }

  private get db(): WritableDB {
    return this.options.db;
  }

  /** Whether this design is kept offline. */
  isKept(designId: number): boolean {
    return keptDesign(this.db, designId) !== null;
  }

  /**
   * Keeps these designs (they must be in the cache: the front end reads a design it lacks first) and starts
   * bringing their files; returns once they are recorded, not downloaded (see `whenIdle` and `progress`). Designs
   * already kept are checked again.
   */
  keep(designIds: readonly number[]): KeptDesignStatus[] {
    const ids = [...new Set(designIds)];
    const added = keptWrites.keep(this.db, ids, this.now());
    for (const id of ids) this.schedule(id);
    if (added.length > 0) this.emit('changed', { ids: added });
    return ids.map((id) => this.status(id)).filter((status): status is KeptDesignStatus => status !== null);
  }

  /** No longer kept: its files stay in the cache, now evictable as any other (nothing is deleted at once). */
  release(designIds: readonly number[]): number[] {
    const ids = [...new Set(designIds)];
    for (const id of ids) {
      const at = this.pending.indexOf(id);
      if (at >= 0) this.pending.splice(at, 1);
      if (this.working?.designId === id) this.working.controller.abort(new Error('released'));
    }
    const removed = keptWrites.release(this.db, ids);
    if (removed.length > 0) {
      this.options.files.evict();
      this.emit('changed', { ids: removed });
    }
    return removed;
  }

  /** Every kept design with where it is, in the order they were kept. */
  list(): KeptDesignStatus[] {
    const rows = keptDesigns(this.db);
    const names = new Map(summariesByIds(this.db, rows.map((row) => row.designId)).map((summary) => [summary.id, summary.name]));
    return rows.map((row) => this.statusOf(row, names.get(row.designId) ?? null));
  }

  status(designId: number): KeptDesignStatus | null {
    const row = keptDesign(this.db, designId);
    if (!row) return null;
    return this.statusOf(row, summariesByIds(this.db, [designId])[0]?.name ?? null);
  }

  /** Bytes on disk the kept designs' files take (each stored file once). */
  keptBytes(): number {
    return this.options.files.keptBytes();
  }

  /** Resolves when nothing is left to do now (all here, waiting for the service, or stopped by a problem). */
  whenIdle(): Promise<void> {
    if (!this.loop) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** The service can be reached again: kept designs waiting for it are brought. */
  resume(): void {
    if (!this.waitingForService || this.closed) return;
    this.waitingForService = false;
    this.bringWhatIsMissing();
  }

  /** Every kept design whose files are not all here (a run stopped mid-way, a file evicted by hand) is brought. */
  bringWhatIsMissing(): void {
    for (const row of keptDesigns(this.db)) if (this.needsWork(row)) this.schedule(row.designId);
  }

  /**
   * Designs changed in the cache: a kept one whose `updated_at` moved since its files were listed is checked again;
   * after a pull of the catalogue (`all`), every kept design is (its lists are read with conditional GETs).
   */
  designsChanged(change: DesignsChangeLike): void {
    if (this.closed) return;
    const rows = change.all ? keptDesigns(this.db) : (() => {
      const kept = keptAmong(this.db, change.ids);
      return [...kept].map((id) => keptDesign(this.db, id)).filter((row): row is KeptDesignRow => row !== null);
    })();
    if (rows.length === 0) return;
    const updated = new Map(summariesByIds(this.db, rows.map((row) => row.designId)).map((summary) => [summary.id, summary.updatedAt]));
    for (const row of rows) {
      if (change.all || row.filesVersion !== (updated.get(row.designId) ?? null) || this.needsWork(row)) this.schedule(row.designId);
    }
  }

  /** Stops what is being downloaded (the part is thrown away; the next start brings it again). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.pending.length = 0;
    this.working?.controller.abort(new Error('closing'));
    await this.loop;
  }

  /** Whether a kept design lacks a file, here and now: its last listing was not whole, or its cached lists name a file not here. */
  private needsWork(row: KeptDesignRow): boolean {
    if (row.filesVersion === null) return true;
    if (keptFilesHere(this.db, row.designId).some((entry) => !entry.current)) return true;
    const design = getCachedDesign(this.db, row.designId);
    return design !== null && planKeptFiles(keptFilesOf(design), (url, version) => this.options.files.has(url, version)).missing.length > 0;
  }

  private schedule(designId: number): void {
    if (this.closed) return;
    if (!this.pending.includes(designId) && this.working?.designId !== designId) this.pending.push(designId);
    if (!this.loop) {
      this.loop = this.run().finally(() => {
        this.loop = null;
        for (const resolve of this.idleWaiters.splice(0)) resolve();
      });
    }
  }

  private async run(): Promise<void> {
    // A turn first, so that designs kept together are recorded before the first is worked on.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (!this.closed && this.pending.length > 0) {
      const designId = this.pending.shift()!;
      if (!keptDesign(this.db, designId)) continue;
      const client = this.options.client();
      if (!client || !this.options.online()) {
        this.waitUntilReachable(designId);
        continue;
      }
      const controller = new AbortController();
      this.working = { designId, controller, inFlight: new Set() };
      try {
        await this.bring(client, designId, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) continue;
        if (isServiceError(error, 'offline')) {
          engineLog.info('keep-offline', `design ${designId}: the service could not be reached; it waits for it`, error);
          this.waitUntilReachable(designId);
        } else {
          engineLog.warn('keep-offline', `design ${designId} could not be brought offline`, error);
          keptWrites.checked(this.db, designId, { checkedAt: this.now(), problem: problemWords(error) });
          this.emit('changed', { ids: [designId] });
        }
      } finally {
        this.working = null;
        this.tell(designId);
      }
    }
  }

  private waitUntilReachable(designId: number): void {
    this.waitingForService = true;
    // Back already (connectivity told it before this wait began): tried again in a while rather than never.
    if (this.options.online() && !this.retryTimer) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        this.resume();
      }, RETRY_WHILE_ONLINE_MS);
      this.retryTimer.unref();
    }
    for (const id of [designId, ...this.pending.splice(0)]) {
      keptWrites.checked(this.db, id, { checkedAt: keptDesign(this.db, id)?.checkedAt ?? this.now(), problem: null });
      this.tell(id);
    }
  }

  /** One design's lists read again and every file it needs that is not here (at its version) downloaded. */
  private async bring(client: ServiceClient, designId: number, signal: AbortSignal): Promise<void> {
    try {
      await refreshDesignFiles(client, this.db, designId, signal, this.now);
    } catch (error) {
      if (!isServiceError(error, 'not-found')) throw error;
      // Gone from the service: what was kept stays here, with words that say so.
      keptWrites.checked(this.db, designId, { checkedAt: this.now(), problem: 'It is no longer on the service: the files kept here stay.' });
      return;
    }
    const design = getCachedDesign(this.db, designId);
    if (!design) return;
    const plan = planKeptFiles(keptFilesOf(design), (url, version) => this.options.files.has(url, version));
    keptWrites.setFiles(this.db, designId, plan.needed);
    this.tell(designId);
    const failures: { file: KeptFile; error: unknown }[] = [];
    // A few at a time (a design's many small files would otherwise wait on each other's round trips); the service
    // going away stops the others too.
    const lanes = new AbortController();
    const stop = AbortSignal.any([signal, lanes.signal]);
    // Each lane's download listens to it (its fetch and the file's pipeline).
    setMaxListeners(DOWNLOADS_AT_ONCE * 4, stop);
    const waiting = [...plan.missing];
    let stopping: unknown = null;
    const lane = async () => {
      for (let file = waiting.shift(); file && !stop.aborted; file = waiting.shift()) {
        try {
          await this.download(client, designId, file, stop);
        } catch (error) {
          if (stop.aborted) return;
          if (isServiceError(error, 'offline')) {
            stopping = error;
            lanes.abort(error);
            return;
          }
          failures.push({ file, error });
          engineLog.warn('keep-offline', `${file.name} (${file.url}) of design ${designId} could not be downloaded`, error);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(DOWNLOADS_AT_ONCE, waiting.length) }, lane));
    if (signal.aborted) return;
    if (stopping) throw stopping;
    const problem = failures.length === 0 ? null
      : `${failures.length === 1 ? `${failures[0]!.file.name} could not be downloaded` : `${failures.length} files could not be downloaded (${failures.map((failure) => failure.file.name).join(', ')})`}: ${problemWords(failures[0]!.error)}`;
    keptWrites.checked(this.db, designId, { filesVersion: failures.length === 0 ? design.summary.updatedAt : null, checkedAt: this.now(), problem });
    this.emit('changed', { ids: [designId] });
  }

  private async download(client: ServiceClient, designId: number, file: KeptFile, signal: AbortSignal): Promise<void> {
    const current = { name: file.name, bytesDone: 0, bytesTotal: null as number | null };
    this.working?.inFlight.add(current);
    let lastTold = 0;
    const fetcher = async (url: string, s?: AbortSignal) => {
      const response = await client.download(url, s);
      const length = Number(response.headers.get('content-length'));
      current.bytesTotal = Number.isFinite(length) && length > 0 ? length : null;
      return response;
    };
    const onBytes = (bytes: number) => {
      current.bytesDone += bytes;
      const at = this.now();
      if (at - lastTold >= this.progressEveryMs) {
        lastTold = at;
        this.tell(designId);
      }
    };
    this.tell(designId);
    try {
      await this.options.files.ensure(file.url, fetcher, { version: file.version, signal, onBytes });
    } finally {
      this.working?.inFlight.delete(current);
    }
  }

  private tell(designId: number): void {
    const status = this.status(designId);
    if (status) this.emit('progress', status);
  }

  private statusOf(row: KeptDesignRow, name: string | null): KeptDesignStatus {
    const files = keptFilesHere(this.db, row.designId);
    const here = files.filter((entry) => entry.current);
    const working = this.working?.designId === row.designId ? this.working : null;
    const complete = row.filesVersion !== null && here.length === files.length;
    const state: KeptState = working ? 'downloading'
      : this.pending.includes(row.designId) ? 'queued'
        : row.problem !== null ? 'problem'
          : complete ? 'ready'
            : 'waiting';
    return {
      designId: row.designId,
      name,
      keptAt: row.keptAt,
      state,
      filesTotal: files.length,
      filesHere: here.length,
      bytesHere: here.reduce((sum, entry) => sum + (entry.size ?? 0), 0),
      current: working ? firstOf(working.inFlight) : null,
      problem: row.problem,
      checkedAt: row.checkedAt,
    };
  }
}

/** The first of the files downloading now, as it stands, or null. */
function firstOf(inFlight: ReadonlySet<NonNullable<KeptDesignStatus['current']>>): KeptDesignStatus['current'] {
  for (const file of inFlight) return { ...file };
  return null;
}

/** A failure in the person's words: the service's problem as it says it, else the error's message. */
function problemWords(error: unknown): string {
  if (isServiceError(error)) return error.problem.message;
  return error instanceof Error ? error.message : String(error);
}
