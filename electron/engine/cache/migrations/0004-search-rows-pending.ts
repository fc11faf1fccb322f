import type Database from 'better-sqlite3';

/**
 * A pull writes the search rows of the designs it adds in one batch at the end of each listing walk (far
 * cheaper for FTS5 than a small batch per page). This mark is set in the same transaction as the first
 * design written without its search row and cleared with the batch: when a crash came in between, the next
 * pull indexes the designs that have no search row.
 */
export function migration0004SearchRowsPending(db: Database.Database): void {
  db.exec(`ALTER TABLE sync_state ADD COLUMN search_rows_pending INTEGER NOT NULL DEFAULT 0;`);
}
