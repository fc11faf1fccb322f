import type { WritableDB } from './cache-database';
import { prepared } from './prepared';
import { searchRowValues, type SearchRowValues } from './search-row-values';
import { noteSearchTerms } from './search-terms';

/**
 * The full-text index's rows of designs (migration 0002: name, excerpt, description, tags, author; rowid = the
 * design's id; contentless since migration 0020), made from what the designs table holds (search-row-values.ts), each
 * written with its terms noted (search-terms.ts) in the same transaction. A new design's row is written from its values
 * by design-writes.ts.
 */

/** Rewrites a design's full-text row from its columns and stored forms, and notes its terms (in the caller's transaction). */
export function writeSearchRow(db: WritableDB, designId: number): void {
  rewriteSearchRow(db, designId);
  noteSearchTerms(db, [designId]);
}

/** The search row alone: the caller notes its terms (a page of designs notes them all at once). */
export function rewriteSearchRow(db: WritableDB, designId: number): void {
  prepared(db, 'DELETE FROM designs_fts WHERE rowid = ?').run(designId);
  insertSearchRows(db, searchRowValues(db, JSON.stringify([designId])));
}

/** Writes these search rows (their designs have none: a row is removed before it is written again). */
export function insertSearchRows(db: WritableDB, rows: readonly SearchRowValues[]): void {
  const insert = prepared(db, 'INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author) VALUES (?, ?, ?, ?, ?, ?)');
  for (const row of rows) insert.run(row);
}

/** Merges the full-text index's segments: worth it after a pull that wrote many rows (FTS5 merges small batches by itself). */
export function optimizeSearchIndex(db: WritableDB): void {
  db.exec(`INSERT INTO designs_fts (designs_fts) VALUES ('optimize')`);
}

/**
 * One step of merging the full-text index's segments into one (FTS5's 'merge' with a negative page count: every
 * segment may be merged, as `optimize` does, but only about `pages` pages are written). Returns the rows it changed:
 * fewer than 2 means there was nothing left to merge.
 */
export function mergeSearchIndexStep(db: WritableDB, pages: number): number {
  const changes = () => (prepared(db, 'SELECT total_changes() AS n').get() as { n: number }).n;
  const before = changes();
  prepared(db, `INSERT INTO designs_fts (designs_fts, rank) VALUES ('merge', ?)`).run(-Math.abs(pages));
  return changes() - before;
}
