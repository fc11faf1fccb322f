import type { ReadableDB, WritableDB } from './cache-database';
import { htmlToPlainText } from './html-text';
import { prepared } from './prepared';
import { SEARCH_ROW_SELECT } from './search-rows';
import { deferSearchTerms, noteSearchTerms } from './search-terms';

/**
 * The designs a pull wrote without their search rows (migration 0013), by id. FTS5 takes one large batch of rows
 * far more cheaply than a small batch a page, and a catalogue's pull leaves them to be written behind it
 * (runtime/search-index-fill.ts), so that the walk costs only the design rows. Their descriptions' text (HTML read as
 * text: a tenth of the walk's CPU) waits with them (text_pending, migration 0015), made from the description in the
 * design's stored form, for the search row is what reads it. An id joins the backlog in the transaction that writes
 * its design, and leaves it in the one that writes its search row: a crash in between leaves the backlog as true as
 * the designs.
 */

/**
 * Puts these designs (just written, without search rows and description text) in the backlog; `idsJson`, their ids
 * as a JSON list, in one statement (one a design cost a pull about 2 µs a design).
 */
export function addToSearchBacklog(db: WritableDB, idsJson: string): void {
  prepared(db,
    `INSERT INTO search_backlog (design_id, text_pending) SELECT value, 1 FROM json_each(?) WHERE true
     ON CONFLICT (design_id) DO UPDATE SET text_pending = 1`).run(idsJson);
}

/** A design's description text was just written with its columns: the backlog no longer makes it. */
export function descriptionTextWritten(db: WritableDB, designId: number): void {
  prepared(db, 'UPDATE search_backlog SET text_pending = 0 WHERE design_id = ? AND text_pending = 1').run(designId);
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
    const ids = (prepared(db, 'SELECT design_id FROM search_backlog ORDER BY design_id LIMIT ?').all(limit) as { design_id: number }[])
      .map((row) => row.design_id);
    if (ids.length === 0) return { taken: 0, more: false };
    const idsJson = JSON.stringify(ids);
    writeBackloggedDescriptions(db, idsJson);
    prepared(db,
      `INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author)
       ${SEARCH_ROW_SELECT} WHERE d.id IN (SELECT value FROM json_each(?))
         AND NOT EXISTS (SELECT 1 FROM designs_fts_docsize f WHERE f.id = d.id)
       ORDER BY d.id`,
    ).run(idsJson);
    if (terms === 'after-fill') deferSearchTerms(db);
    else noteSearchTerms(db, ids);
    prepared(db, 'DELETE FROM search_backlog WHERE design_id IN (SELECT value FROM json_each(?))').run(idsJson);
    return { taken: ids.length, more: ids.length === limit };
  })();
}

/** A stored form's description, or NULL (none, or a form SQLite cannot read as JSON: its text is then left empty). */
const descriptionOf = (form: string) => `CASE WHEN json_valid(${form}) THEN ${form} ->> '$.description' END`;

/**
 * The description HTML a design's columns were written from: that of the stored form whose updated_at they hold
 * (the list form first), else whichever form is stored has one.
 */
const COLUMNS_DESCRIPTION_HTML = `CASE
  WHEN d.list_json IS NOT NULL AND d.list_updated_at IS d.updated_at THEN coalesce(${descriptionOf('d.list_json')}, '')
  WHEN d.user_form_json IS NOT NULL AND d.user_form_updated_at IS d.updated_at THEN coalesce(${descriptionOf('d.user_form_json')}, '')
  ELSE coalesce(${descriptionOf('d.list_json')}, ${descriptionOf('d.user_form_json')}, '')
END`;

/**
 * The description text of those of these designs that wait for it. A search row written meanwhile (the design written
 * again from columns that did not have the text yet) is removed, to be written again with it.
 */
function writeBackloggedDescriptions(db: WritableDB, idsJson: string): void {
  const waiting = prepared(db,
    `SELECT d.id, ${COLUMNS_DESCRIPTION_HTML} AS html FROM search_backlog b JOIN designs d ON d.id = b.design_id
     WHERE b.design_id IN (SELECT value FROM json_each(?)) AND b.text_pending = 1`,
  ).all(idsJson) as { id: number; html: unknown }[];
  if (waiting.length === 0) return;
  const setText = prepared(db, 'UPDATE designs SET description_text = ? WHERE id = ?');
  for (const { id, html } of waiting) setText.run(htmlToPlainText(typeof html === 'string' ? html : String(html)), id);
  prepared(db, 'DELETE FROM designs_fts WHERE rowid IN (SELECT value FROM json_each(?))').run(JSON.stringify(waiting.map((design) => design.id)));
}
