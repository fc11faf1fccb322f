import { Worker } from 'node:worker_threads';
import { sqliteNativeBinding } from '../sqlite/open-sqlite';
import { workerEntry } from '../sqlite/worker-entry';
import {
  beginBulkFill, BULK_FILL_FROM, endBulkFill, endBulkFillAs, INDEXES_BEHIND_UP_TO, isInBulkFill, remakeSetAsideIndexQuietly,
  resumeSearchIndexMerges, setAsideIndexesLeft, shouldFillInBulk, type BulkFillEnd,
} from './bulk-fill';
import { opensAgain, type WritableDB } from './cache-database';
import { DesignWriteSession, upsertDesigns, type DesignForm, type UpsertFlags, type UpsertResult } from './design-writes';
import type { SearchRowsTiming } from './pull-types';
import { writeBackloggedSearchRows } from './search-backlog';
import { optimizeSearchIndex } from './search-rows';
import {
  PULL_COMMIT_EVERY_DESIGNS, PULL_COMMIT_IDLE_MS, PULL_WAL_CHECKPOINT_PAGES, type WriterData, type WriterReply, type WriterRequest,
} from './pull-writer-protocol';

/**
 * From this many designs in a listing, its pages are written on a thread of their own. Below it the thread costs more
 * than it spares: at 10,000 designs (nine pulls each way, in alternating runs) the pull took 689–1,274 ms and 80–140
 * µs of CPU a design with it, against 557–775 ms and 44–62 µs without, and held the engine's thread no less (16–21 ms
 * at most without it, 21–29 with it). At 100,000 it costs CPU too (56–63 µs a design against 39–45 without it, with
 * the set-aside indexes left behind the pull) but is kept: without it the engine's thread was held 457–494 ms at once,
 * by the WAL's checkpoint at PULL_WAL_CHECKPOINT_PAGES (checkpoints every 16 or 32 MiB held it 90–171 ms each), against
 * 37–42 ms with it.
 */
export const DEFAULT_WORKER_FROM = 50_000;

/** A page handed to the writer: `settled` turns true once `results` has settled. */
export interface PageWrite {
  readonly results: Promise<UpsertResult[]>;
  readonly settled: boolean;
}

/**
 * Where a pull's design rows are written. A walk over a large listing must not spend the main thread on SQLite
 * (index pages, commits, checkpoints) while the next pages could be fetched: once a listing is known to hold at least
 * `workerFrom` designs, a worker thread with its own connection to the same WAL database (pull-writer-worker.ts) is
 * started, and from the moment it is ready the pages go there. Until then, and for small listings (a sync pass's own
 * designs), pages are written here, at once, each in a savepoint of a transaction committed every
 * PULL_COMMIT_EVERY_DESIGNS designs, when no page came for PULL_COMMIT_IDLE_MS (the write lock is not held while
 * the walk waits on the network) and when the walk ends (a commit per page rewrote the same index pages into the WAL
 * again and again). Whoever writes, pages are written in order, each only when the one before it was; close() always
 * commits and ends the thread (the pull's `finally`).
 */
export class PullWriter {
  private session = new DesignWriteSession({ deferSearchRows: true });
  private worker: WorkerChannel | null = null;
  private starting: WorkerChannel | null = null;
  private writtenHere = 0;
  /**
   * Whether this writer's walk fills the cache in bulk: only that walk undoes it (a sync pass's walk of own designs,
   * which may run meanwhile, leaves it as it is).
   */
  private inBulk = false;
  /** In a bulk fill: the designs its listing holds, those handed to write() so far, and the indexes still set aside. */
  private bulk = { listingTotal: 0, handed: 0, indexesAside: 0 };
  private savedAutocheckpoint: number | null = null;
  /** Whether this writer began the connection's open transaction, and how many designs it wrote in it. */
  private transactionOpen = false;
  private uncommitted = 0;
  /** Commits the open transaction when no page came for PULL_COMMIT_IDLE_MS. */
  private idleCommit: ReturnType<typeof setTimeout> | null = null;
  /** Threads no longer written to, ended by close(). */
  private readonly retired: WorkerChannel[] = [];

  private readonly workerFrom: number;
  private readonly bulkFillFrom: number;
  private readonly searchRows: SearchRowsTiming;
  private readonly indexesBehindUpTo: number;
  /** Whether this writer's bulk fill leaves the indexes it set aside to whoever fills the search index behind the pull. */
  private indexesBehind = false;

  constructor(private readonly db: WritableDB, options: PullWriterOptions = {}) {
    this.workerFrom = options.threadFrom ?? DEFAULT_WORKER_FROM;
    this.bulkFillFrom = options.bulkFillFrom ?? BULK_FILL_FROM;
    this.searchRows = options.searchRows ?? 'at-walk-end';
    this.indexesBehindUpTo = options.indexesBehindUpTo ?? INDEXES_BEHIND_UP_TO;
  }

  /** Told how many designs the listing holds (null: unknown); starts the thread once it is worth it. */
  expect(total: number | null): void {
    // One thread a pull at most: after one stopped, the pull writes here.
    if (this.starting || this.worker || this.retired.length > 0 || !opensAgain(this.db)) return;
    if ((total ?? this.writtenHere) >= this.workerFrom) this.starting = new WorkerChannel(this.db.name, this.searchRows);
  }

  /**
   * Told, at a listing's first page, how many designs it holds: a large listing into a nearly empty cache is written
   * in bulk (bulk-fill.ts: without the indexes that take its rows in no useful order, the search index's merges
   * paused), which this writer's endWalk undoes. Otherwise what a stopped bulk fill left is undone before anything
   * is written: its paused merges given back, and its indexes made again, unless this walk leaves its search rows
   * behind it (the engine's catalogue), whose fill makes them on a thread of their own rather than on this one.
   */
  fillInBulkWhenLarge(total: number | null): void {
    this.commit();
    this.inBulk = shouldFillInBulk(this.db, total, this.bulkFillFrom);
    this.indexesBehind = this.inBulk && this.searchRows === 'behind' && (total ?? 0) <= this.indexesBehindUpTo;
    if (this.inBulk) {
      beginBulkFill(this.db);
      this.bulk = { listingTotal: total ?? 0, handed: 0, indexesAside: setAsideIndexesLeft(this.db) };
    } else if (isInBulkFill(this.db)) {
      if (this.searchRows === 'behind') resumeSearchIndexMerges(this.db);
      else endBulkFill(this.db);
    }
  }

  /**
   * Whether the page being handed over is followed by making one of the indexes a bulk fill set aside again: one a
   * page over the walk's last pages, while the walk waits for the next one, rather than all after its last page (over
   * a far link, 0.1 s at 10,000 designs the pull then no longer takes).
   */
  private remakesAnIndex(pageLength: number): boolean {
    if (!this.inBulk || this.indexesBehind || this.bulk.indexesAside === 0 || pageLength === 0) return false;
    this.bulk.handed += pageLength;
    const pagesLeft = Math.ceil(Math.max(0, this.bulk.listingTotal - this.bulk.handed) / pageLength);
    if (pagesLeft >= this.bulk.indexesAside) return false;
    this.bulk.indexesAside--;
    return true;
  }

  /** Resolves once the writer thread started by expect() is ready for pages (false when none was started, or it failed). */
  threadReady(): Promise<boolean> {
    return (this.worker ?? this.starting)?.whenReady ?? Promise.resolve(false);
  }

  /** Writes a page of designs; `itemTexts`, when given, are the items' JSON as the service sent them (kept as they are). */
  write(items: readonly unknown[], form: DesignForm, at: number, flags: UpsertFlags, itemTexts?: readonly string[]): PageWrite {
    const remakeIndex = this.remakesAnIndex(items.length);
    if (this.starting?.ready) [this.worker, this.starting] = [this.starting, null];
    // A thread that stopped (its page failed, and the walk with it) is not asked again: this thread writes on.
    if (this.worker?.failed || this.starting?.failed) this.retire();
    if (this.worker) {
      // The thread's connection cannot write while this one holds its transaction open.
      this.commit();
      const write = { settled: false } as { results: Promise<UpsertResult[]>; settled: boolean };
      const itemsJson = itemTexts?.length === items.length ? `[${itemTexts.join(',')}]` : JSON.stringify(items);
      write.results = this.worker.ask({ kind: 'page', itemsJson, form, at, flags, remakeIndex })
        .then((reply) => (reply as Extract<WriterReply, { kind: 'written' }>).results)
        .finally(() => (write.settled = true));
      return write;
    }
    this.deferCheckpoints();
    try {
      // Inside this writer's open transaction, upsertDesigns' own transaction is a savepoint: a page that fails is
      // rolled back alone and the pages before it stay, to be committed.
      if (!this.transactionOpen) {
        this.db.exec('BEGIN');
        this.transactionOpen = true;
      }
      const results = upsertDesigns(this.db, items, form, at, flags, this.session, itemTexts);
      if (remakeIndex) remakeSetAsideIndexQuietly(this.db);
      this.writtenHere += items.length;
      this.uncommitted += items.length;
      if (this.uncommitted >= PULL_COMMIT_EVERY_DESIGNS) this.commit();
      else this.commitWhenIdle();
      return { results: Promise.resolve(results), settled: true };
    } catch (error) {
      return { results: Promise.reject(error), settled: true };
    }
  }

  /** Commits what was written here since the last commit (other writes on this connection meanwhile were savepoints in it). */
  private commit(): void {
    if (this.idleCommit) clearTimeout(this.idleCommit);
    this.idleCommit = null;
    if (!this.transactionOpen) return;
    this.transactionOpen = false;
    this.uncommitted = 0;
    // SQLite may have rolled the transaction back itself (a full disk): then there is nothing to commit.
    if (this.db.open && this.db.inTransaction) this.db.exec('COMMIT');
  }

  private commitWhenIdle(): void {
    if (this.idleCommit) clearTimeout(this.idleCommit);
    this.idleCommit = setTimeout(() => this.commit(), PULL_COMMIT_IDLE_MS);
  }

  /**
   * After a walk (ended or stopped, its pages settled): the search backlog's rows in one batch (unless they are left
   * behind the pull); a bulk fill undone (but for the indexes it leaves behind the pull).
   */
  async endWalk(): Promise<void> {
    this.commit();
    const writeSearchRows = this.searchRows === 'at-walk-end';
    const bulkFill: BulkFillEnd = !this.inBulk ? 'none' : this.indexesBehind ? 'merges' : 'all';
    if (this.worker) {
      await this.worker.ask({ kind: 'end-walk', writeSearchRows, bulkFill });
    } else {
      if (writeSearchRows) writeBackloggedSearchRows(this.db);
      endBulkFillAs(this.db, bulkFill);
    }
    this.inBulk = false;
    this.indexesBehind = false;
    this.session = new DesignWriteSession({ deferSearchRows: true });
  }

  /** Merges the search index into one segment (on the writer thread when there is one). */
  async optimize(): Promise<void> {
    if (this.worker) await this.worker.ask({ kind: 'optimize' });
    else optimizeSearchIndex(this.db);
  }

  /**
   * Ends the writer thread, if one was started, once it has checkpointed what it wrote and closed its connection; the
   * WAL is checkpointed again as usual (what this thread wrote, by the next commit on this connection).
   */
  async close(): Promise<void> {
    this.commit();
    this.retire();
    await Promise.all(this.retired.splice(0).map((channel) => channel.close()));
    if (this.savedAutocheckpoint !== null && this.db.open) this.db.pragma(`wal_autocheckpoint = ${this.savedAutocheckpoint}`);
    this.savedAutocheckpoint = null;
  }

  /**
   * While a walk writes, the WAL is not checkpointed at each 1000 pages (each time rewriting the same index pages into
   * the database, with an fsync) but at each PULL_WAL_CHECKPOINT_PAGES, and at the first commit after the pull.
   */
  private retire(): void {
    for (const channel of [this.worker, this.starting]) if (channel) this.retired.push(channel);
    this.worker = this.starting = null;
  }

  private deferCheckpoints(): void {
    if (this.savedAutocheckpoint !== null || !this.db.open) return;
    this.savedAutocheckpoint = this.db.pragma('wal_autocheckpoint', { simple: true }) as number;
    this.db.pragma(`wal_autocheckpoint = ${PULL_WAL_CHECKPOINT_PAGES}`);
  }
}

export interface PullWriterOptions {
  /** From how many designs in a listing its pages are written on a thread of their own (default DEFAULT_WORKER_FROM). */
  threadFrom?: number;
  /** From how many designs a listing into a nearly empty cache is written in bulk (default bulk-fill.ts BULK_FILL_FROM). */
  bulkFillFrom?: number;
  searchRows?: SearchRowsTiming;
  /** Up to how many designs a bulk fill leaves its set-aside indexes behind the pull with its search rows (default INDEXES_BEHIND_UP_TO). */
  indexesBehindUpTo?: number;
}

let running = 0;

/** Writer threads started and not yet exited, in this process (none once every pull has ended). */
export function runningWriterThreads(): number {
  return running;
}

/** The main thread's end of the writer thread: requests answered in order, each by a promise. */
class WorkerChannel {
  ready = false;
  readonly whenReady: Promise<boolean>;
  private onReady: (ready: boolean) => void = () => {};
  private readonly worker: Worker;
  private readonly waiting: { resolve(reply: WriterReply): void; reject(error: Error): void }[] = [];
  private failure: Error | null = null;
  private readonly exited: Promise<void>;

  constructor(databasePath: string, searchRows: SearchRowsTiming) {
    const { entry, eval: isEval } = workerEntry(new URL('./pull-writer-worker.ts', import.meta.url), 'pull-writer-worker.mjs');
    this.whenReady = new Promise((resolve) => (this.onReady = resolve));
    this.worker = new Worker(entry, { eval: isEval, workerData: { databasePath, nativeBinding: sqliteNativeBinding(), searchRows } satisfies WriterData });
    running++;
    this.worker.on('message', (reply: WriterReply) => {
      if (reply.kind === 'ready') {
        this.ready = true;
        this.onReady(true);
        return;
      }
      const waiter = this.waiting.shift();
      if (reply.kind === 'failed') waiter?.reject(new Error(reply.message));
      else waiter?.resolve(reply);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => {
      running--;
      this.fail(new Error('The cache writer thread stopped.'));
      resolve();
    }));
  }

  ask(request: Exclude<WriterRequest, { kind: 'close' }>): Promise<WriterReply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage(request);
    });
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  async close(): Promise<void> {
    if (!this.failure) this.worker.postMessage({ kind: 'close' } satisfies WriterRequest);
    // A thread still starting (or stuck) is not waited for long: what it had not written is written by no one.
    const timer = setTimeout(() => void this.worker.terminate(), 5_000);
    await this.exited;
    clearTimeout(timer);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.onReady(false);
    for (const waiter of this.waiting.splice(0)) waiter.reject(this.failure);
  }
}
