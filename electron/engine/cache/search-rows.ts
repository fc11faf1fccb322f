import type { WritableDB } from './cache-database';
import { prepared } from './prepared';
import { noteSearchTerms } from './search-terms';

/**
 * The full-text index's rows of designs (migration 0002: name, excerpt, description, tags, author; rowid = the
 * design's id), made from what the designs table holds, each written with its terms noted
 * (search-terms.ts) in the same transaction. A new design's row is written from its values by design-writes.ts.
 */

/** A search row's description: the description's text, then the service's `attribution` (found without a new column). */
const SEARCH_DESCRIPTION = `d.description_text || coalesce(' ' || nullif(trim(coalesce(json_extract(d.list_json, '$.attribution'),
    json_extract(d.user_form_json, '$.attribution'))), ''), '')`;

/**
 * The characters JavaScript's `trim()` strips (white space and line terminators), for SQLite's `trim(X, Y)`, which
 * strips only spaces when not told which: a tag name padded with a tab or a no-break space is the same name here as in
 * listedTagNames.
 */
const JS_WHITE_SPACE = `char(9, 10, 11, 12, 13, 32, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232,
  8233, 8239, 8287, 12288, 65279)`;

/**
 * A search row's tags: the names the stored list form gives (only that form has tags, spec §2.1), as tag-names.ts
 * listedTagNames reads them: names or objects' names, each once (names that differ only in ASCII case are one), in
 * the order given. A form SQLite cannot read as JSON has none.
 */
const SEARCH_TAGS = `coalesce((SELECT group_concat(name, ' ' ORDER BY position) FROM (
    SELECT name, min(position) AS position FROM (
      SELECT trim(CASE t.type WHEN 'text' THEN t.value WHEN 'object' THEN CASE WHEN json_type(t.value, '$.name') = 'text' THEN t.value ->> '$.name' END END,
          ${JS_WHITE_SPACE}) AS name,
        t.key AS position
      FROM json_each(CASE WHEN json_valid(d.list_json) AND json_type(d.list_json, '$.tags') = 'array' THEN d.list_json END, '$.tags') t)
    WHERE name <> '' GROUP BY lower(name))), '')`;

/** Rewrites a design's full-text row from its columns and stored list form, and notes its terms (in the caller's transaction). */
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
       ${SEARCH_TAGS}, d.author_screen_name
     FROM designs d WHERE d.id = ?`,
  ).run(designId);
}

/** The search rows of designs, from their columns and stored list forms: `${SEARCH_ROW_SELECT} WHERE …` (search-backlog.ts). */
export const SEARCH_ROW_SELECT = `SELECT d.id, d.name, d.excerpt, ${SEARCH_DESCRIPTION},
    ${SEARCH_TAGS}, d.author_screen_name
  FROM designs d`;

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
