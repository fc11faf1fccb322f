import type { ReadableDB, WritableDB } from './cache-database';
import { prepared } from './prepared';
import { SEARCH_ROW_SELECT } from './search-rows';
import { noteSearchTerms } from './search-terms';

/**
 * The designs a pull wrote without their search rows (migration 0013), by id. FTS5 takes one large batch of rows
 * far more cheaply than a small batch a page, and a catalogue's pull leaves them to be written behind it
 * (runtime/search-index-fill.ts), so that the walk costs only the design rows. An id joins the backlog in the
 * transaction that writes its design, and leaves it in the one that writes its search row: a crash in between
 * leaves the backlog as true as the designs.
 */

/** Puts these designs (just written, without search rows) in the backlog. */
export function addToSearchBacklog(db: WritableDB, designIds: readonly number[]): void {
  if (designIds.length === 0) return;
  prepared(db, 'INSERT OR IGNORE INTO search_backlog (design_id) SELECT value FROM json_each(?)').run(JSON.stringify(designIds));
}

/** How many designs wait for their search rows. */
export function searchBacklogSize(db: ReadableDB): number {
  return (prepared(db, 'SELECT count(*) AS n FROM search_backlog').get() as { n: number }).n;
}

/**
 * Writes the search rows of the backlog's first `limit` designs (all of them by default), by ascending id, with their
 * terms, in one transaction; a design that has its row by now (written again since) keeps it, and one removed since
 * is only taken off the backlog. Returns how many ids it took, and whether it left any.
 */
export function writeBackloggedSearchRows(db: WritableDB, limit = Number.MAX_SAFE_INTEGER): { taken: number; more: boolean } {
  return db.transaction(() => {
    const ids = (prepared(db, 'SELECT design_id FROM search_backlog ORDER BY design_id LIMIT ?').all(limit) as { design_id: number }[])
      .map((row) => row.design_id);
    if (ids.length === 0) return { taken: 0, more: false };
    const idsJson = JSON.stringify(ids);
    prepared(db,
      `INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author)
       ${SEARCH_ROW_SELECT} WHERE d.id IN (SELECT value FROM json_each(?)) AND NOT EXISTS (SELECT 1 FROM designs_fts f WHERE f.rowid = d.id)
       ORDER BY d.id`,
    ).run(idsJson);
    noteSearchTerms(db, ids);
    prepared(db, 'DELETE FROM search_backlog WHERE design_id IN (SELECT value FROM json_each(?))').run(idsJson);
    return { taken: ids.length, more: ids.length === limit };
  })();
}
