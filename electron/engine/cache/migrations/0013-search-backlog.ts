import type Database from 'better-sqlite3';

/**
 * The designs whose search rows are still to be written, by id (search-backlog.ts). It replaces 0004's mark, which
 * said only that some were: a cache the mark was set on gets the ids of every design with no search row.
 */
export function migration0013SearchBacklog(db: Database.Database): void {
  db.exec(`
    CREATE TABLE search_backlog (design_id INTEGER PRIMARY KEY);
    INSERT INTO search_backlog (design_id)
      SELECT d.id FROM designs d
      WHERE (SELECT search_rows_pending FROM sync_state WHERE id = 1) = 1
        AND NOT EXISTS (SELECT 1 FROM designs_fts f WHERE f.rowid = d.id);
    ALTER TABLE sync_state DROP COLUMN search_rows_pending;
  `);
}
