import type { ReadableDB } from './cache-database';
import { htmlWords } from './html-text';
import { prepared } from './prepared';

/**
 * What a design's search row (migration 0002's designs_fts: name, excerpt, description, tags, author; rowid = the
 * design's id) is made of. The index keeps no copy of this text (migration 0020) and the design's row no copy of its
 * description's text (migration 0021): whatever writes a row again, or notes its terms, makes it from the design's
 * columns and stored forms here.
 */

/** A search row's values, in designs_fts's order after its rowid. */
export type SearchRowValues = [id: number, name: string, excerpt: string, description: string, tags: string, author: string];

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

/** The service's `attribution` (found without a new column), after a space, as the description's end; '' when none. */
const ATTRIBUTION = `coalesce(' ' || nullif(trim(coalesce(json_extract(d.list_json, '$.attribution'),
    json_extract(d.user_form_json, '$.attribution'))), ''), '')`;

/** The SQL function (searchRowSql) that reads a description's HTML as text (html-text.ts htmlWords). */
const HTML_WORDS = 'design_sync_html_words';

/**
 * A search row's values, in designs_fts's order (rowid first), from the designs row `d`: the description is the text
 * of the HTML the columns were written from, then the attribution. Tags are `tags_text`: the names the stored list
 * form gives (only that form has tags, spec §2.1), as tag-names.ts listedTagNames reads them, written with the form
 * (design-writes.ts). Made in SQL, the HTML read by a function of this connection (searchRowSql), so that a slice of
 * the search backlog is one INSERT … SELECT (search-backlog.ts): its rows never cross into JavaScript and back.
 */
export const SEARCH_ROW_VALUES = `d.id, d.name, d.excerpt, ${HTML_WORDS}(${COLUMNS_DESCRIPTION_HTML}) || ${ATTRIBUTION}, d.tags_text, d.author_screen_name`;

const withHtmlWords = new WeakSet<ReadableDB>();

/** Makes SEARCH_ROW_VALUES usable on this connection (its HTML function registered): call it before preparing a statement that uses them. */
export function searchRowSql(db: ReadableDB): void {
  if (withHtmlWords.has(db)) return;
  db.function(HTML_WORDS, { deterministic: true }, (html: unknown) => (html === null || html === undefined ? '' : htmlWords(typeof html === 'string' ? html : String(html))));
  withHtmlWords.add(db);
}

const SEARCH_ROW_SOURCE = `SELECT ${SEARCH_ROW_VALUES} FROM designs d WHERE d.id IN (SELECT value FROM json_each(?)) ORDER BY d.id`;

/** The search rows of these designs (`idsJson`: their ids as a JSON list; those not cached are left out), by ascending id. */
export function searchRowValues(db: ReadableDB, idsJson: string): SearchRowValues[] {
  searchRowSql(db);
  return prepared(db, SEARCH_ROW_SOURCE).raw(true).all(idsJson) as SearchRowValues[];
}
