import type Database from 'better-sqlite3';

/**
 * Where a pull that fills a nearly empty cache from a large listing keeps the secondary indexes it set aside
 * (bulk-fill-indexes.ts): each index's CREATE statement, until it is made again at the end of the walk (or, after a
 * crash in between, when the cache is next opened).
 */
export function migration0010IndexesSetAside(db: Database.Database): void {
  db.exec('CREATE TABLE indexes_set_aside (name TEXT PRIMARY KEY, sql TEXT NOT NULL) WITHOUT ROWID;');
}
