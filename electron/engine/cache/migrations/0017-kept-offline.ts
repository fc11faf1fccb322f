import type Database from 'better-sqlite3';

/**
 * Designs the person keeps offline: all their images and documents downloaded and never evicted. `kept_designs` says
 * which designs and how far their files are (the design's `updated_at` their file list was read at, when it was
 * last checked, what stopped the last attempt); `kept_files` names each file a kept design needs (by its source url,
 * as `file_index` does) and with which version, so the file cache's eviction passes them by and a check knows what is
 * still missing.
 */
export function migration0017KeptOffline(db: Database.Database): void {
  db.exec(`
    CREATE TABLE kept_designs (
      design_id INTEGER PRIMARY KEY,
      kept_at INTEGER NOT NULL,
      files_version TEXT,
      checked_at INTEGER,
      problem TEXT
    );
    CREATE TABLE kept_files (
      design_id INTEGER NOT NULL,
      url TEXT NOT NULL,
      version TEXT,
      kind TEXT NOT NULL,
      name TEXT NOT NULL,
      PRIMARY KEY (design_id, url)
    );
    CREATE INDEX kept_files_by_url ON kept_files(url);
  `);
}
