import type Database from 'better-sqlite3';

/**
 * What a pull filling a nearly empty cache from a large listing has to undo (bulk-fill.ts): the statements that make
 * again the indexes it set aside and give the full-text index back its merges, run at the end of the walk (or, after
 * a crash in between, when the cache is next opened).
 */
export function migration0010BulkFill(db: Database.Database): void {
  db.exec('CREATE TABLE bulk_fill_undo (name TEXT PRIMARY KEY, sql TEXT NOT NULL) WITHOUT ROWID;');
}
