import type { WritableDB } from './cache-database';
import type { DesignWriteSession } from './design-writes';
import { prepared } from './prepared';
import { noteSearchTerms } from './search-terms';

/**
 * The full-text index's rows of designs (migration 0002: name, excerpt, description, tags, author; rowid = the
 * design's id), made from what the designs table and their tags hold, each written with its terms noted
 * (search-terms.ts) in the same transaction. A new design's row is written from its values by design-writes.ts.
 */

/** A search row's description: the description's text, then the service's `attribution` (found without a new column). */
const SEARCH_DESCRIPTION = `d.description_text || coalesce(' ' || nullif(trim(coalesce(json_extract(d.list_json, '$.attribution'),
    json_extract(d.user_form_json, '$.attribution'))), ''), '')`;

/** Rewrites a design's full-text row from its columns and tags, and notes its terms (in the caller's transaction). */
export function writeSearchRow(db: WritableDB, designId: number): void {
  rewriteSearchRow(db, designId);
  noteSearchTerms(db, [designId]);
}

/** The search row alone: the caller notes its terms (a page of designs notes them all at once). */
export function rewriteSearchRow(db: WritableDB, designId: number): void {
  prepared(db, 'DELETE FROM designs_fts WHERE rowid = ?').run(designId);
  prepared(db, 
    `INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author)
     SELECT d.id, d.name, d.excerpt, ${SEARCH_DESCRIPTION},
       coalesce((SELECT group_concat(t.name, ' ') FROM design_tags dt JOIN tags t ON t.id = dt.tag_id WHERE dt.design_id = d.id), ''),
       d.author_screen_name
     FROM designs d WHERE d.id = ?`,
  ).run(designId);
}

const SEARCH_ROW_SELECT = `SELECT d.id, d.name, d.excerpt, ${SEARCH_DESCRIPTION},
    coalesce((SELECT group_concat(t.name, ' ') FROM design_tags dt JOIN tags t ON t.id = dt.tag_id WHERE dt.design_id = d.id), ''),
    d.author_screen_name
  FROM designs d`;

/**
 * Writes the search rows a session deferred, in one statement by ascending id, and clears the pending mark.
 * A design that has a search row by now (written by another pull's repair) keeps it.
 */
export function writeDeferredSearchRows(db: WritableDB, session: DesignWriteSession): void {
  if (session.unindexed.size === 0) return;
  const ids = JSON.stringify([...session.unindexed]);
  db.transaction(() => {
    prepared(db,
      `INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author)
       ${SEARCH_ROW_SELECT} WHERE d.id IN (SELECT value FROM json_each(?)) AND NOT EXISTS (SELECT 1 FROM designs_fts f WHERE f.rowid = d.id)
       ORDER BY d.id`,
    ).run(ids);
    noteSearchTerms(db, session.unindexed);
    prepared(db, 'UPDATE sync_state SET search_rows_pending = 0 WHERE id = 1').run();
  })();
  session.unindexed.clear();
}

/** After a pull that stopped before writing its deferred search rows (a crash): the designs that have none get theirs. */
export function indexPendingSearchRows(db: WritableDB): number {
  const pending = prepared(db, 'SELECT search_rows_pending AS pending FROM sync_state WHERE id = 1').get() as { pending: number };
  if (pending.pending === 0) return 0;
  return db.transaction(() => {
    const unindexed = (prepared(db, 'SELECT d.id FROM designs d WHERE NOT EXISTS (SELECT 1 FROM designs_fts f WHERE f.rowid = d.id) ORDER BY d.id').all() as { id: number }[])
      .map((row) => row.id);
    const { changes } = prepared(db,
      `INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author)
       ${SEARCH_ROW_SELECT} WHERE d.id IN (SELECT value FROM json_each(?)) ORDER BY d.id`,
    ).run(JSON.stringify(unindexed));
    noteSearchTerms(db, unindexed);
    prepared(db, 'UPDATE sync_state SET search_rows_pending = 0 WHERE id = 1').run();
    return changes;
  })();
}

/** Merges the full-text index's segments: worth it after a pull that wrote many rows (FTS5 merges small batches by itself). */
export function optimizeSearchIndex(db: WritableDB): void {
  db.exec(`INSERT INTO designs_fts (designs_fts) VALUES ('optimize')`);
}
