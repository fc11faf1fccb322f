import { EventEmitter } from 'node:events';
import { pauseSearchIndexMerges, remakeOneSetAsideIndex, resumeSearchIndexMerges, setAsideIndexesLeft } from '../cache/bulk-fill';
import { opensAgain, type WritableDB } from '../cache/cache-database';
import { remakeSetAsideIndexesOnThread } from '../cache/index-thread';
import { OPTIMIZE_AFTER_WRITES } from '../cache/pull-walk';
import { cacheVersion } from '../cache/cache-version';
import { holdCheckpoints } from '../cache/checkpoint-hold';
import { searchBacklogSize, writeBackloggedSearchRows } from '../cache/search-backlog';
import { mergeSearchIndexStep } from '../cache/search-rows';
import { noteSearchTermsAfter, searchTermsDeferred, searchTermsNoted } from '../cache/search-terms';
import { engineLog } from '../log/engine-log';

/**
 * Designs written per slice: about 17–18 µs of CPU each at 100,000 designs on a loaded machine (load 10), written in
 * one INSERT … SELECT with their descriptions' text made as SQLite reads them (cache/search-backlog.ts), into rows
 * that keep no positions (migration 0020), so a slice holds the engine's thread for about 9 ms, and a request that
 * arrives meanwhile (a keystroke's search) waits that long. Slices of 750 or 1,000 took the same CPU a design. The
 * first slice after a pull written on the engine's thread also copies the pull's WAL into the database (about 100 ms
 * there).
 */
export const SEARCH_FILL_SLICE_DESIGNS = 500;
/**
 * Each slice's commit adds a segment to the search index, and FTS5 holds at most 2,000 (FTS5_MAX_SEGMENT): at that
 * cap it merges whatever a write brings, which while merges are paused rewrote much of the index mid-fill. A million
 * designs in slices of 500 left a 3.1 GB cache (560 MB of it free pages) against 2.6 GB in slices of 1,000. A larger
 * backlog is written in larger slices, so that a fill adds at most this many segments.
 */
export const MAX_FILL_SLICES = 1_000;
/**
 * From this many designs waiting, FTS5's merges are paused while the slices are written (each slice's commit adds a
 * segment, which automatic merges would merge again and again), and the index is merged once at the end: at 100,000
 * designs the fill took 5.2 s instead of 6.7 s, searches during it still under 3 ms.
 */
const PAUSE_MERGES_FROM = 20_000;
/**
 * How long a turn of noting the fill's terms (noteDeferredTerms) is meant to hold the engine's thread, in ms: each
 * turn notes as many terms as the turn before's pace fits in it, the first FIRST_TURN_TERMS.
 */
const TERMS_TURN_MS = 20;
const FIRST_TURN_TERMS = 256;
/** Pages of the search index merged per slice once the backlog is written (FTS5's incremental merge). */
const MERGE_SLICE_PAGES = 500;
/** A merge step that changed fewer rows than this did no work: the index is merged (FTS5's documented test). */
const MERGE_DID_NOTHING_BELOW = 2;

export interface SearchIndexFillOptions {
  /** Designs a slice writes at least (default SEARCH_FILL_SLICE_DESIGNS; more for a backlog of over MAX_FILL_SLICES slices). */
  sliceDesigns?: number;
  /** Whether the fill must wait (the catalogue's pull is writing, maybe from a thread of its own): it resumes on start(). */
  paused?: () => boolean;
  /** Lets the engine's other work run between two slices (default: a turn of the event loop, after its I/O). */
  nextTurn?: () => Promise<void>;
  /** From how many designs waiting FTS5's merges are paused during the fill (default PAUSE_MERGES_FROM). */
  pauseMergesFrom?: number;
  /** How many slices a fill writes at most (default MAX_FILL_SLICES): a larger backlog gets larger slices. */
  maxSlices?: number;
}

export type SearchIndexFillEvents = {
  /** Designs still waiting for their search rows (after each slice). */
  progress: [{ waiting: number }];
  /** The backlog is empty: every design is searchable (told after a fill that wrote something, before its merge). */
  filled: [];
};

const afterIo = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Fills the search index behind the catalogue's pull (which leaves the rows of the designs it adds in the search
 * backlog: cache/search-backlog.ts), a slice at a time, letting the engine's requests run between slices. The
 * slices' terms are noted once the backlog is written, from the index's own vocabulary, a turn at a time (until then a
 * search asks FTS5 for prefixes). Search meanwhile answers from what is indexed so far, and `waiting()` says how many
 * designs it does not see yet. Once every design is searchable, it makes again the library's indexes a bulk fill left
 * behind it (bulk-fill.ts INDEXES_BEHIND_UP_TO; the library's sorts other than the newest are slower without them,
 * never wrong), on a thread of their own (cache/index-thread.ts; one a turn for a database no second connection can
 * open), then merges the index's segments, in slices too. A crash loses nothing: the backlog is committed with the designs, the terms
 * left to the fill's end are noted when the cache next opens, and the engine starts the fill again when it next runs.
 */
export class SearchIndexFill extends EventEmitter<SearchIndexFillEvents> {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** The backlog's size as last counted (or worked out after a slice), and the cache's version then. */
  private counted: { version: string; waiting: number } | null = null;
  private readonly sliceDesigns: number;
  private readonly paused: () => boolean;
  private readonly nextTurn: () => Promise<void>;
  private readonly pauseMergesFrom: number;
  private readonly maxSlices: number;
  private indexThreadFailed = false;

  constructor(private readonly db: WritableDB, options: SearchIndexFillOptions = {}) {
    super();
    this.sliceDesigns = options.sliceDesigns ?? SEARCH_FILL_SLICE_DESIGNS;
    this.paused = options.paused ?? (() => false);
    this.nextTurn = options.nextTurn ?? afterIo;
    this.pauseMergesFrom = options.pauseMergesFrom ?? PAUSE_MERGES_FROM;
    this.maxSlices = options.maxSlices ?? MAX_FILL_SLICES;
  }

  /** How many designs have no search row yet (search does not find them): counted again once the cache changed. */
  waiting(): number {
    const version = cacheVersion(this.db);
    if (this.counted?.version !== version) this.counted = { version, waiting: searchBacklogSize(this.db) };
    return this.counted.waiting;
  }

  /** Whether a fill is under way. */
  get filling(): boolean {
    return this.running !== null;
  }

  /** Fills the backlog (again, when designs were added to it since a fill under way looked). Idempotent. */
  start(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    const run = this.fill().catch((error: unknown) => {
      // The backlog stays as it is, committed: the next start (the next pull, the next run) writes it.
      engineLog.warn('search-index', 'the search index could not be filled', error);
    }).finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
  }

  /** Resolves once no fill is under way (the backlog written, paused, or stopped). */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops between two slices; what is written stays written, the rest stays in the backlog. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.whenIdle();
  }

  private async fill(): Promise<void> {
    // Until every design is searchable, the WAL the pull left and the slices add is not copied into the database (the
    // first slice's commit did that for the whole pull: 10 % of the fill at 10,000 designs); the first commit after does.
    const releaseCheckpoints = holdCheckpoints(this.db);
    let written: number | null;
    try {
      written = await this.writeBacklog();
    } finally {
      releaseCheckpoints();
    }
    if (written === null) return;
    // Every design searchable first; then the library's sorts get their indexes back (right without them, slower).
    if (!(await this.remakeAllSetAsideIndexes())) return;
    if (written >= OPTIMIZE_AFTER_WRITES) await this.merge();
  }

  /** The backlog's search rows written and their terms noted: how many rows, or null when stopped or paused meanwhile. */
  private async writeBacklog(): Promise<number | null> {
    let written = 0;
    let sliceDesigns = this.sliceDesigns;
    do {
      this.again = false;
      for (let more = true; more;) {
        await this.nextTurn();
        if (this.stopped || this.paused() || !this.db.open) return null;
        const waitingBefore = this.waiting();
        if (written === 0) sliceDesigns = Math.max(this.sliceDesigns, Math.ceil(waitingBefore / this.maxSlices));
        if (written === 0 && waitingBefore >= this.pauseMergesFrom) pauseSearchIndexMerges(this.db);
        const slice = writeBackloggedSearchRows(this.db, sliceDesigns, 'after-fill');
        more = slice.more;
        written += slice.taken;
        // Worked out rather than counted again (a count of a million waiting takes milliseconds, a slice's worth).
        const waiting = more ? Math.max(0, waitingBefore - slice.taken) : 0;
        this.counted = { version: cacheVersion(this.db), waiting };
        if (slice.taken > 0) this.emit('progress', { waiting });
      }
    } while (this.again);
    // A fill that wrote nothing may still have the terms of one stopped or paused while noting them.
    if (written === 0 && !searchTermsDeferred(this.db)) return 0;
    if (!(await this.noteDeferredTerms())) return null;
    // The defaults back before the merge: what is written after the fill is merged as it comes.
    resumeSearchIndexMerges(this.db);
    this.emit('filled');
    return written;
  }

  /** The indexes a bulk fill set aside, all made again; false when the fill was stopped or paused meanwhile. */
  private async remakeAllSetAsideIndexes(): Promise<boolean> {
    for (;;) {
      if (this.stopped || this.paused() || !this.db.open) return false;
      if (!(await this.remakeSetAsideIndexes())) return true;
      await this.nextTurn();
    }
  }

  /**
   * Makes the indexes a bulk fill set aside: all of them on the index thread, or one on this thread (a database no
   * second connection can open, or a thread that failed). False when none was left; true when some were made, or the
   * fill was stopped or paused meanwhile (the fill's loop looks again).
   */
  private async remakeSetAsideIndexes(): Promise<boolean> {
    if (setAsideIndexesLeft(this.db) === 0) return false;
    if (!this.indexThreadFailed && opensAgain(this.db)) {
      const interrupted = () => this.stopped || this.paused() || !this.db.open;
      try {
        if ((await remakeSetAsideIndexesOnThread(this.db.name, interrupted)) > 0 || interrupted()) return true;
      } catch (error) {
        this.indexThreadFailed = true;
        engineLog.warn('search-index', 'the indexes set aside could not be made on their thread: made on the engine\'s, one at a time', error);
      }
    }
    return remakeOneSetAsideIndex(this.db);
  }

  /**
   * Notes the terms the slices left to the fill's end, from the index's own vocabulary, a turn at a time (at a million
   * designs it is read through in seconds). False when the fill was stopped or paused meanwhile: the terms stay
   * deferred, for the next fill, the next pull (resumeSearchIndexMerges) or the cache's next opening.
   */
  private async noteDeferredTerms(): Promise<boolean> {
    if (!searchTermsDeferred(this.db)) return true;
    let turnTerms = FIRST_TURN_TERMS;
    for (let after = ''; ;) {
      await this.nextTurn();
      if (this.stopped || this.paused() || !this.db.open) return false;
      const started = performance.now();
      const noted = noteSearchTermsAfter(this.db, after, turnTerms);
      if (noted.done) break;
      after = noted.last;
      // As many terms next turn as this turn's pace fits in TERMS_TURN_MS.
      const ms = Math.max(performance.now() - started, 0.5);
      turnTerms = Math.min(Math.max(Math.round((turnTerms * TERMS_TURN_MS) / ms), 16), 65_536);
    }
    searchTermsNoted(this.db);
    return true;
  }

  /** The index's segments merged a slice at a time (as `optimize` does in one go, which takes seconds at a million). */
  private async merge(): Promise<void> {
    for (;;) {
      await this.nextTurn();
      if (this.stopped || this.paused() || !this.db.open) return;
      if (mergeSearchIndexStep(this.db, MERGE_SLICE_PAGES) < MERGE_DID_NOTHING_BELOW) return;
    }
  }
}
