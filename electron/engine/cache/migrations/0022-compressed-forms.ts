import type Database from 'better-sqlite3';

/**
 * A design's stored forms (list_json, user_form_json) are written compressed from this version on: a BLOB whose first
 * byte names the fixed dictionary it was compressed against (form-codec.ts), about 310 bytes for a list form of about
 * 880, so that a million designs' rows take about a third less. SQLite keeps a BLOB as it is in a TEXT column, so
 * nothing in the schema changes and the table is not rewritten: the rows already stored keep their text, which every
 * reader still accepts, and each is compacted when it is next written (a million designs are not rewritten at once,
 * at start-up). The version itself is what this migration makes: a design-sync older than it refuses the cache
 * (cache-database.ts) instead of reading a BLOB where it expects a form's text.
 */
export function migration0022CompressedForms(_db: Database.Database): void {
  // Nothing to change in the schema or the rows (see above); the version is written by migrateCache.
}
