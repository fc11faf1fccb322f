import type Database from 'better-sqlite3';

/**
 * A design's description as text was kept in its own column only to write its search row from: the search index
 * keeps no copy of its text now (migration 0020), and a search row's description is made from the HTML in the
 * design's stored form when the row is written (search-row-values.ts). The column was a tenth of a synthetic design's
 * row (139 of 1,300 bytes). The search backlog's flag of designs whose text waited goes with it: every search row
 * makes its text. SQLite rewrites the table's rows to drop the column: about 1.2 s at 100,000 designs, once.
 */
export function migration0021NoDescriptionText(db: Database.Database): void {
  db.exec(`
    ALTER TABLE designs DROP COLUMN description_text;
    ALTER TABLE search_backlog DROP COLUMN text_pending;
  `);
}
