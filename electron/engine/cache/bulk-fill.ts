import type { ReadableDB, WritableDB } from './cache-database';
import { prepared } from './prepared';

/**
 * The secondary indexes whose keys come in no useful order during a pull (names, slugs, dates, licenses, authors,
 * popularity). Inserting a million rows into each of them, one at a time, rewrites most of their pages at every
 * commit; made again from the finished table, each is one sort. The indexes a walk or the window's default view
 * needs while the cache fills stay: the ids (newest first), own designs, covers.
 */
export const INDEXES_SET_ASIDE_FOR_BULK_FILL = [
  'designs_by_slug', 'designs_by_updated', 'designs_by_created', 'designs_by_name', 'designs_by_license',
  'designs_by_user', 'designs_by_popularity', 'designs_by_license_popularity', 'designs_by_license_name',
] as const;

/**
 * A listing this large, into a cache that holds less than a quarter of it, is written in bulk. At 100,000 designs,
 * inserting into those indexes cost about 5.5 s and making them again 1.4 s. At 10,000 (its search rows written behind
 * the pull) the walk took 1.1–1.2 s in bulk against 1.3–1.5 s without, in alternating runs; while the cache fills, a
 * library sorted by name reads its few thousand rows without the index (a sort of milliseconds).
 */
export const BULK_FILL_FROM = 5_000;

/**
 * Up to this many designs (any number), a bulk fill whose search rows are left behind the pull leaves the indexes it
 * set aside behind it too: whoever fills the search index behind the pull makes them again once every design is
 * searchable, on a thread of their own (runtime/search-index-fill.ts, cache/index-thread.ts); the library meanwhile sorts its rows without them.
 * Made over the walk's last pages instead, at 100,000 designs they held the walk's end for 1.4–2.0 s of its 7–10 s
 * (the pull 1.86–1.92× the bare loop, against 1.29–1.34× with them behind it, in alternating runs). A smaller limit
 * (tests) makes them over the walk's last pages, as a walk that writes its own search rows does.
 */
export const INDEXES_BEHIND_UP_TO = Number.POSITIVE_INFINITY;

/** FTS5's own defaults (automerge 4, crisismerge 16), given back when a bulk fill ends. */
const SEARCH_INDEX_MERGES = { automerge: 4, crisismerge: 16 } as const;
/**
 * During a bulk fill FTS5 does not merge its segments as rows come (each batch of search rows made it merge what the
 * batches before had written, again and again: 17.5 s of 300,000 designs' 25 s of search rows); a crisis merge
 * only past this many segments of a level. The pull's `optimize` merges them all once at the end (3.2 s there).
 */
const BULK_CRISIS_MERGE = 10_000;

/** Whether a listing of `listingTotal` designs is to be written in bulk into this cache. */
export function shouldFillInBulk(db: ReadableDB, listingTotal: number | null, from = BULK_FILL_FROM): boolean {
  if (listingTotal === null || listingTotal < from) return false;
  const { cached } = prepared(db, 'SELECT count(*) AS cached FROM designs').get() as { cached: number };
  return cached * 4 < listingTotal;
}

const setMerge = (name: string, value: number) => `INSERT INTO designs_fts (designs_fts, rank) VALUES ('${name}', ${value})`;

const keepUndo = (db: WritableDB) => prepared(db, 'INSERT OR IGNORE INTO bulk_fill_undo (name, sql) VALUES (?, ?)');

/**
 * Sets the cache up for a bulk fill, in one transaction: those indexes dropped and FTS5's merges paused, with what
 * undoes each (its CREATE statement, the default merges) kept in bulk_fill_undo.
 */
export function beginBulkFill(db: WritableDB): void {
  db.transaction(() => {
    const keep = keepUndo(db);
    for (const name of INDEXES_SET_ASIDE_FOR_BULK_FILL) {
      const index = prepared(db, `SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?`).get(name) as { sql: string } | undefined;
      if (!index) continue;
      keep.run(name, index.sql);
      db.exec(`DROP INDEX ${name}`);
    }
    pauseMerges(db);
  })();
}

function pauseMerges(db: WritableDB): void {
  const keep = keepUndo(db);
  for (const [name, value] of Object.entries(SEARCH_INDEX_MERGES)) keep.run(`designs_fts ${name}`, setMerge(name, value));
  db.exec(setMerge('automerge', 0));
  db.exec(setMerge('crisismerge', BULK_CRISIS_MERGE));
}

/**
 * FTS5's merges paused while many search rows are written in batches (the search index filled behind a pull), as a
 * bulk fill pauses them; resumeSearchIndexMerges gives the defaults back. Kept in bulk_fill_undo too, so that a
 * crash in between is undone by the next pull as a stopped bulk fill is.
 */
export function pauseSearchIndexMerges(db: WritableDB): void {
  db.transaction(() => pauseMerges(db))();
}

/**
 * The bulk_fill_undo row whose statement notes every term of the search index, kept while a fill leaves its slices'
 * terms to its end (search-terms.ts deferSearchTerms).
 */
export const DEFERRED_TERMS_UNDO = 'designs_fts terms';

/**
 * Gives FTS5's merges back as they were before pauseSearchIndexMerges (or a bulk fill), and notes the terms a fill
 * left to its end, unless `leaveTerms` (a pull whose search rows the engine's fill writes behind it, and which notes
 * them a turn at a time: read in one go, a million designs' index holds the engine's thread for seconds).
 */
export function resumeSearchIndexMerges(db: WritableDB, options: { leaveTerms?: boolean } = {}): void {
  const undo = (prepared(db, `SELECT name, sql FROM bulk_fill_undo WHERE name LIKE 'designs_fts %' ORDER BY name`).all() as { name: string; sql: string }[])
    .filter((row) => !(options.leaveTerms && row.name === DEFERRED_TERMS_UNDO));
  db.transaction(() => {
    for (const { name, sql } of undo) {
      db.exec(sql);
      prepared(db, 'DELETE FROM bulk_fill_undo WHERE name = ?').run(name);
    }
  })();
}

export function isInBulkFill(db: ReadableDB): boolean {
  return prepared(db, 'SELECT 1 FROM bulk_fill_undo LIMIT 1').get() !== undefined;
}

/** Undoes what beginBulkFill did, a statement at a time, each in a transaction with the deletion of its row. */
export function endBulkFill(db: WritableDB): number {
  const undo = prepared(db, 'SELECT name, sql FROM bulk_fill_undo ORDER BY name').all() as UndoRow[];
  for (const row of undo) undoOne(db, row);
  return undo.length;
}

/**
 * What undoes a walk's bulk fill when it ends: nothing (it was none), all of it, or FTS5's merges only (the indexes it
 * set aside are left to whoever fills the search index behind the pull: INDEXES_BEHIND_UP_TO).
 */
export type BulkFillEnd = 'none' | 'all' | 'merges';

export function endBulkFillAs(db: WritableDB, end: BulkFillEnd): void {
  if (end === 'all') endBulkFill(db);
  else if (end === 'merges') resumeSearchIndexMerges(db, { leaveTerms: true });
}

/** How many of the indexes a bulk fill set aside are not made again yet. */
export function setAsideIndexesLeft(db: ReadableDB): number {
  return (prepared(db, `SELECT count(*) AS left FROM bulk_fill_undo WHERE name NOT LIKE 'designs_fts %'`).get() as { left: number }).left;
}

/**
 * Makes one of the indexes a bulk fill set aside again, before the fill ends (the rows still to come are inserted
 * into it as usual); false when none is left. FTS5's merges stay paused until endBulkFill.
 */
export function remakeOneSetAsideIndex(db: WritableDB): boolean {
  const row = prepared(db, `SELECT name, sql FROM bulk_fill_undo WHERE name NOT LIKE 'designs_fts %' ORDER BY name LIMIT 1`).get() as UndoRow | undefined;
  if (row) undoOne(db, row);
  return row !== undefined;
}

/** remakeOneSetAsideIndex ahead of a fill's end; should it fail, endBulkFill makes that index (and says why). */
export function remakeSetAsideIndexQuietly(db: WritableDB): void {
  try {
    remakeOneSetAsideIndex(db);
  } catch {
    // Left to endBulkFill.
  }
}

interface UndoRow {
  name: string;
  sql: string;
}

function undoOne(db: WritableDB, { name, sql }: UndoRow): void {
  db.transaction(() => {
    db.exec(sql.replace(/^CREATE INDEX /i, 'CREATE INDEX IF NOT EXISTS '));
    prepared(db, 'DELETE FROM bulk_fill_undo WHERE name = ?').run(name);
  })();
}
