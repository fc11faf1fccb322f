import type { ReadableDB, WritableDB } from './cache-database';
import { prepared } from './prepared';
import { SEARCH_ROW_VALUES, searchRowSql } from './search-row-values';
import { deferSearchTerms, noteSearchTerms } from './search-terms';

/**
 * The designs a pull wrote without their search rows (migration 0013), by id. FTS5 takes one large batch of rows
 * far more cheaply than a small batch a page, and a catalogue's pull leaves them to be written behind it
 * (runtime/search-index-fill.ts), so that the walk costs only the design rows. Their descriptions' text (HTML read as
 * text: a tenth of the walk's CPU) is made with their search rows, from the description in the design's stored form
 * (search-row-values.ts). An id joins the backlog in the transaction that writes its design, and leaves it in the one
 * that writes its search row: a crash in between leaves the backlog as true as the designs.
 */

/**
 * Puts these designs (just written, without search rows) in the backlog; `idsJson`, their ids as a JSON list, in one
 * statement (one a design cost a pull about 2 µs a design).
 */
export function addToSearchBacklog(db: WritableDB, idsJson: string): void {
  prepared(db, 'INSERT OR IGNORE INTO search_backlog (design_id) SELECT value FROM json_each(?)').run(idsJson);
}

/** How many designs wait for their search rows. */
export function searchBacklogSize(db: ReadableDB): number {
  return (prepared(db, 'SELECT count(*) AS n FROM search_backlog').get() as { n: number }).n;
}

/** How the terms of the search rows a call writes reach the vocabulary (search-terms.ts). */
export type BackloggedTerms = 'noted' | 'after-fill';

/**
 * Writes the search rows of the backlog's first `limit` designs (all of them by default), by ascending id, in one
 * transaction; a design that has its row by now (written again since) keeps it, and one removed since is only taken
 * off the backlog. Their terms are noted in the same transaction, or, with `terms: 'after-fill'` (a fill of many
 * slices), read from the index's own vocabulary once the fill ends (search-terms.ts deferSearchTerms: a slice's rows
 * read again through the scratch index cost 5–12 µs a design, the whole index's vocabulary read once about 1 µs).
 * Returns how many ids it took, and whether it left any.
 */
export function writeBackloggedSearchRows(db: WritableDB, limit = Number.MAX_SAFE_INTEGER, terms: BackloggedTerms = 'noted'): { taken: number; more: boolean } {
  return db.transaction(() => {
    // The slice is the backlog's head: every id up to its last.
    const { taken, last } = prepared(db, 'SELECT count(*) AS taken, max(design_id) AS last FROM (SELECT design_id FROM search_backlog ORDER BY design_id LIMIT ?)')
      .get(limit) as { taken: number; last: number | null };
    if (taken === 0 || last === null) return { taken: 0, more: false };
    const ids = terms === 'noted' ? prepared(db, 'SELECT design_id FROM search_backlog WHERE design_id <= ?').pluck(true).all(last) as number[] : [];
    searchRowSql(db);
    prepared(db, INSERT_BACKLOGGED_ROWS).run(last);
    if (terms === 'after-fill') deferSearchTerms(db);
    else noteSearchTerms(db, ids);
    prepared(db, 'DELETE FROM search_backlog WHERE design_id <= ?').run(last);
    return { taken, more: taken === limit };
  })();
}

/**
 * The search rows of the backlog's designs up to an id, in one statement (SEARCH_ROW_VALUES): those not cached any
 * more are left out by the join, those that have their row by now keep it. At 100,000 designs this took 1.5–1.6 s
 * where reading the rows into JavaScript, making their text there and inserting them one by one took 2.3 s.
 */
const INSERT_BACKLOGGED_ROWS = `INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author)
  SELECT ${SEARCH_ROW_VALUES} FROM search_backlog b JOIN designs d ON d.id = b.design_id
  WHERE b.design_id <= ? AND NOT EXISTS (SELECT 1 FROM designs_fts_docsize f WHERE f.id = b.design_id)
  ORDER BY b.design_id`;
