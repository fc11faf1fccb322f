import type Database from 'better-sqlite3';

/**
 * What the last attempt of a queue item sent, written (durably) just before the request goes out and
 * cleared once the service's answer is known. A row with sent_at set whose answer never came (a crash,
 * a lost connection) is reconciled against the service before it is sent again, so a write whose answer
 * was lost is neither repeated nor forgotten. Kept apart from the file version (file_*), which a newer
 * change of the same file may overwrite while the item waits.
 */
export function migration0002QueueSent(db: Database.Database): void {
  db.exec(`
    ALTER TABLE queue_items ADD COLUMN sent_at INTEGER;
    ALTER TABLE queue_items ADD COLUMN sent_name TEXT;
    ALTER TABLE queue_items ADD COLUMN sent_sha1 TEXT;
    ALTER TABLE queue_items ADD COLUMN sent_size INTEGER;
    ALTER TABLE queue_items ADD COLUMN sent_mtime_ms INTEGER;
    ALTER TABLE queue_items ADD COLUMN sent_inode TEXT;
  `);
}
