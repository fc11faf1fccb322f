import { EventEmitter, setMaxListeners } from 'node:events';
import { isServiceError } from '../api/service-error';
import type { ServiceClient } from '../api/service-client';
import type { WritableDB } from '../cache/cache-database';
import { refreshDesignFiles } from '../cache/child-lists';
import { getCachedDesign, summariesByIds } from '../cache/design-reads';
import type { FileCache } from '../cache/file-cache';
import type { EngineWords, EngineWordValue } from '../../../shared/i18n/engine-words';
import { englishOf, errorWords } from '../../../shared/i18n/worded-error';
import { engineLog } from '../log/engine-log';
import { systemErrorFacts } from '../log/error-words';
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
  /** What stopped it, in English; `problemWords` its facts, which a front end words (null: `problem` as it is). */
  problem: string | null;
  problemWords: EngineWords | null;
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
/** Files downloaded at once, of whichever designs are being brought (each file waits its turn in the order queued). */
const DOWNLOADS_AT_ONCE = 8;
/**
 * Designs brought at once: while one design's last files download, the next one's lists are read and its files wait
 * in the queue, so that no download lane waits for a design to end.
 */
const DESIGNS_AT_ONCE = 3;

/** A design being brought: its files downloading now (the first of them is told as `current`). */
interface Working {
  controller: AbortController;
  inFlight: Set<NonNullable<KeptDesignStatus['current']>>;
  /** When its progress was last told (told at most every `progressEveryMs` while files download). */
  toldAt: number;
}

/** A file waiting for a download lane. */
interface QueuedFile {
  client: ServiceClient;
  designId: number;
  file: KeptFile;
  signal: AbortSignal;
  settle: (error: unknown) => void;
}

/** A designs' change as the engine tells it (runtime/design-changes.ts). */
export interface DesignsChangeLike {
  ids: readonly number[];
  all: boolean;
}

/**
 * Designs kept offline: the person chose them, so all their images (the renditions the window shows) and documents
 * are downloaded into the file cache and never evicted (the cache's bound applies to the rest). The one writer of
 * `kept_designs` and `kept_files`. Designs are brought in the order asked, a few at a time, their files queued for
 * DOWNLOADS_AT_ONCE download lanes shared by all of them; while the service cannot be reached they wait and resume by
 * themselves when it can (`resume`). A kept design is
 * checked again when the service says it changed (its `updated_at` moved) or a pull of the catalogue ended: its
 * lists are read again (two conditional GETs) and what is new or changed is downloaded. Tells `progress` while it
 * works and `changed` (ids) when a design became kept, released, or its files changed here.
 */
export class KeepOffline extends EventEmitter<{ progress: [KeptDesignStatus]; changed: [{ ids: number[] }] }> {
  private readonly now: () => number;
  private readonly progressEveryMs: number;
  private readonly pending: number[] = [];
  /** The designs being brought now. */
  private readonly working = new Map<number, Working>();
  /** Files waiting for a download lane, first queued first; `lanes` lanes take them. */
  private readonly queued: QueuedFile[] = [];
  private lanes = 0;
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
      this.working.get(id)?.controller.abort(new Error('released'));
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
    for (const working of this.working.values()) working.controller.abort(new Error('closing'));
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
    if (!this.pending.includes(designId) && !this.working.has(designId)) this.pending.push(designId);
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
    const running = new Set<Promise<void>>();
    while (!this.closed) {
      while (!this.closed && this.pending.length > 0 && running.size < DESIGNS_AT_ONCE) {
        const designId = this.pending.shift()!;
        if (!keptDesign(this.db, designId)) continue;
        const client = this.options.client();
        if (!client || !this.options.online()) {
          this.waitUntilReachable(designId);
          continue;
        }
        const work = this.work(client, designId).finally(() => running.delete(work));
        running.add(work);
      }
      if (running.size === 0) break;
      await Promise.race(running);
    }
    await Promise.all(running);
  }

  /** Brings one design, telling what became of it. */
  private async work(client: ServiceClient, designId: number): Promise<void> {
    const controller = new AbortController();
    this.working.set(designId, { controller, inFlight: new Set(), toldAt: 0 });
    try {
      await this.bring(client, designId, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return;
      if (isServiceError(error, 'offline')) {
        engineLog.info('keep-offline', `design ${designId}: the service could not be reached; it waits for it`, error);
        this.waitUntilReachable(designId);
      } else {
        engineLog.warn('keep-offline', `design ${designId} could not be brought offline`, error);
        const facts = errorWords(error);
        keptWrites.checked(this.db, designId, { checkedAt: this.now(), problem: problemWords(error), problemWords: facts });
        this.emit('changed', { ids: [designId] });
      }
    } finally {
      this.working.delete(designId);
      this.tell(designId);
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
      const gone: EngineWords = { id: 'engine.refusal.kept.gone' };
      keptWrites.checked(this.db, designId, { checkedAt: this.now(), problem: englishOf(gone), problemWords: gone });
      return;
    }
    const design = getCachedDesign(this.db, designId);
    if (!design) return;
    const plan = planKeptFiles(keptFilesOf(design), (url, version) => this.options.files.has(url, version));
    keptWrites.setFiles(this.db, designId, plan.needed);
    const working = this.working.get(designId);
    if (working) working.toldAt = this.now();
    this.tell(designId);
    const failures: { file: KeptFile; error: unknown }[] = [];
    // The service going away stops this design's other files too.
    const lanes = new AbortController();
    const stop = AbortSignal.any([signal, lanes.signal]);
    // Each download under way listens to it (its fetch and the file's writing).
    setMaxListeners(DOWNLOADS_AT_ONCE * 4 + plan.missing.length, stop);
    let stopping: unknown = null;
    await Promise.all(plan.missing.map(async (file) => {
      try {
        await this.queueDownload(client, designId, file, stop);
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
    }));
    if (signal.aborted) return;
    if (stopping) throw stopping;
    const failed: EngineWords | null = failures.length === 0 ? null
      : failures.length === 1 ? { id: 'engine.refusal.kept.fileFailed', values: { file: failures[0]!.file.name, problem: problemFacts(failures[0]!.error) } }
        : { id: 'engine.refusal.kept.filesFailed', values: { count: failures.length, files: failures.map((failure) => failure.file.name).join(', '), problem: problemFacts(failures[0]!.error) } };
    keptWrites.checked(this.db, designId, {
      filesVersion: failures.length === 0 ? design.summary.updatedAt : null, checkedAt: this.now(), problem: failed ? englishOf(failed) : null, problemWords: failed,
    });
    this.emit('changed', { ids: [designId] });
  }

  /** Queues a file for a download lane; settles once it is stored (or failed, or its signal aborted). */
  private queueDownload(client: ServiceClient, designId: number, file: KeptFile, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      // Stopped while waiting: out of the queue at once, not when a lane comes to it (a download under way settles
      // once it has stopped, so that nothing is left running when the design's work ends).
      const onAbort = () => {
        const at = this.queued.indexOf(item);
        if (at < 0) return;
        this.queued.splice(at, 1);
        reject(signal.reason);
      };
      const item: QueuedFile = {
        client, designId, file, signal,
        settle: (error) => {
          signal.removeEventListener('abort', onAbort);
          if (error === null) resolve();
          else reject(error);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.queued.push(item);
      while (this.lanes < DOWNLOADS_AT_ONCE && this.lanes < this.queued.length) void this.lane();
    });
  }

  /** One download lane: takes queued files, first queued first, until none is left. */
  private async lane(): Promise<void> {
    this.lanes++;
    try {
      for (let item = this.queued.shift(); item; item = this.queued.shift()) {
        try {
          await this.download(item.client, item.designId, item.file, item.signal);
          item.settle(null);
        } catch (error) {
          item.settle(error ?? new Error(`${item.file.name} could not be downloaded`));
        }
      }
    } finally {
      this.lanes--;
    }
  }

  private async download(client: ServiceClient, designId: number, file: KeptFile, signal: AbortSignal): Promise<void> {
    const working = this.working.get(designId);
    const current = { name: file.name, bytesDone: 0, bytesTotal: null as number | null };
    working?.inFlight.add(current);
    const fetcher = async (url: string, s?: AbortSignal) => {
      // The connection's chunks straight into the file cache (no web stream between: a kept design's files are many).
      const answer = await client.downloadChunks(url, s);
      const length = Number(answer.headers.get('content-length'));
      current.bytesTotal = Number.isFinite(length) && length > 0 ? length : null;
      return answer;
    };
    const onBytes = (bytes: number) => {
      current.bytesDone += bytes;
      this.tellNowAndThen(designId);
    };
    this.tellNowAndThen(designId);
    try {
      await this.options.files.ensure(file.url, fetcher, { version: file.version, signal, onBytes });
    } finally {
      working?.inFlight.delete(current);
    }
  }

  /** Tells a design's progress while its files download, at most every `progressEveryMs`. */
  private tellNowAndThen(designId: number): void {
    const working = this.working.get(designId);
    if (!working) return;
    const at = this.now();
    if (at - working.toldAt < this.progressEveryMs) return;
    working.toldAt = at;
    this.tell(designId);
  }

  private tell(designId: number): void {
    const status = this.status(designId);
    if (status) this.emit('progress', status);
  }

  private statusOf(row: KeptDesignRow, name: string | null): KeptDesignStatus {
    const files = keptFilesHere(this.db, row.designId);
    const here = files.filter((entry) => entry.current);
    const working = this.working.get(row.designId) ?? null;
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
      problemWords: row.problemWords,
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

/** A failure inside a sentence: the engine's facts when it has them (a system error's too), else its words as they are. */
function problemFacts(error: unknown): EngineWordValue {
  return errorWords(error) ?? (isServiceError(error) ? null : systemErrorFacts(error)) ?? problemWords(error);
}
