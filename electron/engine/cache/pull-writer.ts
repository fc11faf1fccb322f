import { jsonArrayElementTexts } from '../api/json-array-elements';
import { engineLog } from '../log/engine-log';
import {
  beginBulkFill, BULK_FILL_FROM, endBulkFill, endBulkFillAs, INDEXES_BEHIND_UP_TO, isInBulkFill, remakeSetAsideIndexQuietly,
  resumeSearchIndexMerges, setAsideIndexesLeft, shouldFillInBulk,
} from './bulk-fill';
import { opensAgain, type WritableDB } from './cache-database';
import { holdCheckpoints } from './checkpoint-hold';
import { CheckpointThread } from './checkpoint-thread';
import { DesignWriteSession, upsertDesigns, type DesignForm, type UpsertFlags, type UpsertResult } from './design-writes';
import type { SearchRowsTiming } from './pull-types';
import { writeBackloggedSearchRows } from './search-backlog';
import { optimizeSearchIndex } from './search-rows';

/** How long a pull that ends waits for its checkpoint thread to be ready, should it still be starting. */
const THREAD_START_WAIT_MS = 5_000;

/** Whether the thread is ready within `ms` (false when it failed or is still starting then). */
async function readyWithin(thread: CheckpointThread, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([thread.whenReady, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * From this many designs in a listing, the WAL its pull writes is checkpointed on a thread of its own. Without it, at
 * 100,000 designs the checkpoint at PULL_WAL_CHECKPOINT_PAGES held the engine's thread 423–620 ms at once (one held
 * it 90–171 ms for each 16 or 32 MiB); with it, 37–66 ms at most, for about the same CPU. Below it the WAL is left to
 * the first commit after the pull, as SQLite does.
 */
export const CHECKPOINT_THREAD_FROM = 50_000;

/**
 * With a checkpoint thread, how many designs a pull writes between two checkpoints: about 80 MiB of WAL at the
 * service's designs (a pull of 100,000 wrote 159 MiB of it without any), under PULL_WAL_CHECKPOINT_PAGES, which stays
 * the automatic checkpoint of the engine's connection should the thread fail or designs be larger.
 */
export const CHECKPOINT_EVERY_DESIGNS = 50_000;


/**
 * How many designs a pull writes between commits: each commit writes every page it changed to the WAL, and a page of
 * designs touches pages of every index (at 10,000 designs, a commit per page of 100 wrote 28,180 WAL pages in 197
 * ms, a commit per 1,000 designs 8,644 in 50 ms).
 */
export const PULL_COMMIT_EVERY_DESIGNS = 1_000;

/**
 * How long the pull's open transaction may wait for the next page before it is committed: while the walk waits on the
 * network, another connection (another process on this profile) may need to write. Pages that follow each other
 * sooner (a fast link) still share one commit.
 */
export const PULL_COMMIT_IDLE_MS = 50;

/** A page handed to the writer: `settled` turns true once `results` has settled. */
export interface PageWrite {
  readonly results: Promise<UpsertResult[]>;
  readonly settled: boolean;
}

const ignore = () => {};

/**
 * Where a pull's design rows are written: on the engine's thread, each page in a savepoint of a transaction committed
 * every PULL_COMMIT_EVERY_DESIGNS designs, when no page came for PULL_COMMIT_IDLE_MS (the write lock is not held while
 * the walk waits on the network) and when the walk ends (a commit per page rewrote the same index pages into the WAL
 * again and again). Once a listing is known to hold at least `checkpointThreadFrom` designs, a thread with its own
 * connection to the same WAL database (checkpoint-thread.ts) is started, and from the moment it is ready it
 * checkpoints the WAL every CHECKPOINT_EVERY_DESIGNS designs and when the pull ends; the pages that come while it does
 * are written after it, in order (written meanwhile, they would keep the WAL from starting over). close() always
 * commits and ends the thread (the pull's `finally`).
 *
 * Pages were once written on that thread too, while the walk fetched the next ones: on this 2-core machine that cost
 * 10–20 µs of CPU a design more (each page parsed twice, answers copied between threads, a fresh isolate's JIT) and
 * no time (the service and the walk keep both cores busy), and two connections writing made either fail at once
 * (SQLITE_BUSY) when it began a write after a read while the other wrote.
 */
export class PullWriter {
  private session = new DesignWriteSession({ deferSearchRows: true });
  private checkpoints: CheckpointThread | null = null;
  /** Writes and the checkpoint they wait for, in order, not yet done (null when none is left). */
  private deferred: Promise<void> | null = null;
  private writtenHere = 0;
  private sinceCheckpoint = 0;
  /**
   * Whether this writer's walk fills the cache in bulk: only that walk undoes it (a sync pass's walk of own designs,
   * which may run meanwhile, leaves it as it is).
   */
  private inBulk = false;
  /** In a bulk fill: the designs its listing holds, those handed to write() so far, and the indexes still set aside. */
  private bulk = { listingTotal: 0, handed: 0, indexesAside: 0 };
  private releaseCheckpoints: (() => void) | null = null;
  /** Whether this writer began the connection's open transaction, and how many designs it wrote in it. */
  private transactionOpen = false;
  private uncommitted = 0;
  /** Commits the open transaction when no page came for PULL_COMMIT_IDLE_MS. */
  private idleCommit: ReturnType<typeof setTimeout> | null = null;

  private readonly checkpointThreadFrom: number;
  private readonly checkpointEvery: number;
  private readonly commitEvery: number;
  private readonly bulkFillFrom: number;
  private readonly searchRows: SearchRowsTiming;
  private readonly indexesBehindUpTo: number;
  /** Whether this writer's bulk fill leaves the indexes it set aside to whoever fills the search index behind the pull. */
  private indexesBehind = false;

  constructor(private readonly db: WritableDB, options: PullWriterOptions = {}) {
    this.checkpointThreadFrom = options.checkpointThreadFrom ?? CHECKPOINT_THREAD_FROM;
    this.checkpointEvery = options.checkpointEveryDesigns ?? CHECKPOINT_EVERY_DESIGNS;
    this.commitEvery = options.commitEveryDesigns ?? PULL_COMMIT_EVERY_DESIGNS;
    this.bulkFillFrom = options.bulkFillFrom ?? BULK_FILL_FROM;
    this.searchRows = options.searchRows ?? 'at-walk-end';
    this.indexesBehindUpTo = options.indexesBehindUpTo ?? INDEXES_BEHIND_UP_TO;
  }

  /** Told how many designs the listing holds (null: unknown); starts the checkpoint thread once it is worth it. */
  expect(total: number | null): void {
    // One thread a pull at most.
    if (this.checkpoints || !opensAgain(this.db)) return;
    if ((total ?? this.writtenHere) >= this.checkpointThreadFrom) this.checkpoints = new CheckpointThread(this.db.name);
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
      if (this.searchRows === 'behind') resumeSearchIndexMerges(this.db, { leaveTerms: true });
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

  /** Resolves once the checkpoint thread started by expect() is ready (false when none was started, or it failed). */
  threadReady(): Promise<boolean> {
    return this.checkpoints?.whenReady ?? Promise.resolve(false);
  }

  /**
   * Writes a page of designs (after the checkpoint under way, if any); `itemsText`, when given, is the answer that
   * held them, a JSON array, from which each design is kept as the service wrote it.
   */
  write(items: readonly unknown[], form: DesignForm, at: number, flags: UpsertFlags, itemsText?: string): PageWrite {
    const remakeIndex = this.remakesAnIndex(items.length);
    const writeHere = () => this.writeHere(items, form, at, flags, itemsText, remakeIndex);
    if (this.deferred) {
      const write = { settled: false } as { results: Promise<UpsertResult[]>; settled: boolean };
      write.results = this.afterDeferred(writeHere).finally(() => (write.settled = true));
      return write;
    }
    try {
      return { results: Promise.resolve(writeHere()), settled: true };
    } catch (error) {
      return { results: Promise.reject(error), settled: true };
    }
  }

  private writeHere(items: readonly unknown[], form: DesignForm, at: number, flags: UpsertFlags, itemsText: string | undefined, remakeIndex: boolean): UpsertResult[] {
    this.deferCheckpoints();
    // Inside this writer's open transaction, upsertDesigns' own transaction is a savepoint: a page that fails is
    // rolled back alone and the pages before it stay, to be committed. Another walk on this connection meanwhile (a
    // sync pass's own designs during the catalogue's) writes in the transaction already open, committed by its writer.
    // IMMEDIATE: while another connection writes (the index thread), this one waits for it (its busy timeout), where
    // a transaction that read first would fail at its first write, at once.
    if (!this.transactionOpen && !this.db.inTransaction) {
      this.db.exec('BEGIN IMMEDIATE');
      this.transactionOpen = true;
    }
    // The designs' texts are cut from the answer only for a design whose numbers JSON.parse rounded (compact-form.ts).
    const itemTexts = itemsText === undefined ? undefined : () => jsonArrayElementTexts(itemsText);
    const results = upsertDesigns(this.db, items, form, at, flags, this.session, itemTexts);
    if (remakeIndex) remakeSetAsideIndexQuietly(this.db);
    this.writtenHere += items.length;
    this.sinceCheckpoint += items.length;
    this.uncommitted += items.length;
    if (this.uncommitted >= this.commitEvery) {
      this.commit();
      this.checkpointWhenDue();
    } else {
      this.commitWhenIdle();
    }
    return results;
  }

  /** Runs `work` once the writes and the checkpoint deferred before it are done. */
  private afterDeferred<T>(work: () => T | Promise<T>): Promise<T> {
    const done = (this.deferred ?? Promise.resolve()).then(work);
    const deferred = done.then(ignore, ignore);
    this.deferred = deferred;
    void deferred.then(() => {
      if (this.deferred === deferred) this.deferred = null;
    });
    return done;
  }

  /** Has the thread checkpoint the WAL, once this writer wrote CHECKPOINT_EVERY_DESIGNS designs since the last time. */
  private checkpointWhenDue(): void {
    const thread = this.checkpoints;
    if (!thread?.ready || thread.failed || this.sinceCheckpoint < this.checkpointEvery) return;
    this.sinceCheckpoint = 0;
    void this.afterDeferred(() => this.checkpointOn(thread));
  }

  private async checkpointOn(thread: CheckpointThread): Promise<void> {
    // Nothing this writer wrote may wait uncommitted: the checkpoint copies only what was committed.
    this.commit();
    try {
      await thread.checkpoint();
    } catch (error) {
      // SQLite's automatic checkpoints (PULL_WAL_CHECKPOINT_PAGES) take over.
      engineLog.warn('pull', 'the cache\'s checkpoint thread failed; the WAL is checkpointed on the engine\'s thread', error);
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
    this.idleCommit = setTimeout(() => {
      this.commit();
      this.checkpointWhenDue();
    }, PULL_COMMIT_IDLE_MS);
  }

  /**
   * After a walk (ended or stopped, its pages settled): the search backlog's rows in one batch (unless they are left
   * behind the pull); a bulk fill undone (but for the indexes it leaves behind the pull).
   */
  async endWalk(): Promise<void> {
    await this.deferred;
    this.commit();
    if (this.searchRows === 'at-walk-end') writeBackloggedSearchRows(this.db);
    endBulkFillAs(this.db, !this.inBulk ? 'none' : this.indexesBehind ? 'merges' : 'all');
    this.inBulk = false;
    this.indexesBehind = false;
    this.session = new DesignWriteSession({ deferSearchRows: true });
  }

  /** Merges the search index into one segment. */
  async optimize(): Promise<void> {
    await this.deferred;
    optimizeSearchIndex(this.db);
  }

  /**
   * Commits, and ends the checkpoint thread, if one was started, once it has checkpointed what the pull wrote (not
   * left to the engine's next commit, which would wait for up to PULL_WAL_CHECKPOINT_PAGES of it to be copied).
   */
  async close(): Promise<void> {
    await this.deferred;
    this.commit();
    const thread = this.checkpoints;
    this.checkpoints = null;
    if (thread) {
      // A thread still starting (a pull shorter than its start, a loaded machine) is waited for a while: what the pull
      // wrote is checkpointed here, not by the engine's next commit.
      const ready = thread.ready || await readyWithin(thread, THREAD_START_WAIT_MS);
      if (ready && !thread.failed && this.sinceCheckpoint > 0) await this.checkpointOn(thread);
      await thread.close();
    }
    this.releaseCheckpoints?.();
    this.releaseCheckpoints = null;
  }

  /**
   * While a walk writes, the WAL is not checkpointed at each 1000 pages (each time rewriting the same index pages into
   * the database, with an fsync) but at each PULL_WAL_CHECKPOINT_PAGES, and at the first commit after the pull.
   */
  private deferCheckpoints(): void {
    if (this.releaseCheckpoints !== null || !this.db.open) return;
    this.releaseCheckpoints = holdCheckpoints(this.db);
  }

}

export interface PullWriterOptions {
  /** From how many designs in a listing the WAL is checkpointed on a thread of its own (default CHECKPOINT_THREAD_FROM). */
  checkpointThreadFrom?: number;
  /** How many designs are written between two checkpoints on that thread (default CHECKPOINT_EVERY_DESIGNS). */
  checkpointEveryDesigns?: number;
  /** How many designs are written between two commits (default PULL_COMMIT_EVERY_DESIGNS). */
  commitEveryDesigns?: number;
  /** From how many designs a listing into a nearly empty cache is written in bulk (default bulk-fill.ts BULK_FILL_FROM). */
  bulkFillFrom?: number;
  searchRows?: SearchRowsTiming;
  /** Up to how many designs a bulk fill leaves its set-aside indexes behind the pull with its search rows (default INDEXES_BEHIND_UP_TO). */
  indexesBehindUpTo?: number;
}
