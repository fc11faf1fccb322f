import type Database from 'better-sqlite3';

/**
 * The index of the content-addressed file cache: which source url holds which bytes (sha256), for which
 * version of the source (e.g. the image's updated_at), and when it was last used (for LRU eviction).
 * Several urls may share one hash: the file on disk is removed when its last url goes.
 */
export function migration0003FileIndex(db: Database.Database): void {
  db.exec(`
    CREATE TABLE file_index (
      url TEXT PRIMARY KEY,
      hash TEXT NOT NULL,
      size INTEGER NOT NULL,
      version TEXT,
      content_type TEXT,
      stored_at INTEGER NOT NULL,
      last_used_at INTEGER NOT NULL
    );
    CREATE INDEX file_index_by_hash ON file_index(hash);
    CREATE INDEX file_index_by_last_used ON file_index(last_used_at);
  `);
}
