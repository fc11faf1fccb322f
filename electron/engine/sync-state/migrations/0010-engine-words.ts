import type Database from 'better-sqlite3';

/**
 * An activity line and a queue item's reason are kept as facts too: a message id of the shared catalogs and its values
 * (JSON `{ id, values }`), so each front end words them in the person's language; `message` and `reason` keep their
 * English for the log, `--json` and rows written before (NULL here: shown as they were written).
 */
export function migration0010EngineWords(db: Database.Database): void {
  db.exec('ALTER TABLE activity ADD COLUMN words TEXT');
  db.exec('ALTER TABLE queue_items ADD COLUMN reason_words TEXT');
}
