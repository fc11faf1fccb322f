import type Database from 'better-sqlite3';

/**
 * What the last scans held back (never sent) and why: an entry of the built-in list or a line of an ignore file.
 * Written only by the scan, a folder at a time; `on_service` marks a synced file that became ignored (it stays on the
 * service, and is no longer kept in step).
 */
export function migration0007HeldBack(db: Database.Database): void {
  db.exec(`
    CREATE TABLE held_back (
      path TEXT PRIMARY KEY,
      folder TEXT NOT NULL,
      is_folder INTEGER NOT NULL,
      rule_key TEXT NOT NULL,
      reason TEXT NOT NULL,
      on_service INTEGER NOT NULL,
      size INTEGER,
      seen_at INTEGER NOT NULL
    );
    CREATE INDEX held_back_by_folder ON held_back (folder);
    CREATE INDEX held_back_by_rule ON held_back (rule_key);
  `);
}
