import type Database from 'better-sqlite3';

/**
 * A design's forms may be stored compact (compact-form.ts): without the fields its columns hold, with short keys. Each
 * form's layout says how it was stored: NULL, the form kept whole (every row written before, read as it is), or the
 * layout of the compact form, which on read is given back whole from it and the columns. Adding the columns rewrites
 * no row: the rows stored before stay as they are, and a form written again is stored compact.
 */
export function migration0022CompactForms(db: Database.Database): void {
  db.exec(`
    ALTER TABLE designs ADD COLUMN list_layout INTEGER;
    ALTER TABLE designs ADD COLUMN user_form_layout INTEGER;
  `);
}
