import type Database from 'better-sqlite3';

/**
 * Indexes a scan of a large sync folder needs: the synced files of one design folder (read for every folder a scan
 * looks at; without it each read went through the whole table, so a rescan of 100,000 files read 1,000 × 100,000
 * rows), and the items of one path whatever their state (the last decision about a file: a refused file, a
 * deletion the person turned down), which otherwise went through the whole queue history for each file.
 */
export function migration0004ScanIndexes(db: Database.Database): void {
  db.exec(`
    CREATE INDEX base_files_by_folder ON base_files(folder, path);
    CREATE INDEX queue_items_by_path ON queue_items(path, id);
  `);
}
