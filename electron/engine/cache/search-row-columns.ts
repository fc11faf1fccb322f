/**
 * What a design's search row (migration 0002's designs_fts: name, excerpt, description, tags, author; rowid = the
 * design's id) is made of, read from the design's row `d`. The index keeps no copy of this text (migration 0020):
 * whatever writes a row again, or notes its terms, reads it from here.
 */

/** A search row's description: the description's text, then the service's `attribution` (found without a new column). */
export const SEARCH_DESCRIPTION = `d.description_text || coalesce(' ' || nullif(trim(coalesce(json_extract(d.list_json, '$.attribution'),
    json_extract(d.user_form_json, '$.attribution'))), ''), '')`;

/**
 * A search row's columns, in designs_fts's order. Its tags are `tags_text`: the names the stored list form gives (only
 * that form has tags, spec §2.1), as tag-names.ts listedTagNames reads them, written with the form (design-writes.ts).
 */
export const SEARCH_ROW_COLUMNS = `d.name, d.excerpt, ${SEARCH_DESCRIPTION}, d.tags_text, d.author_screen_name`;
