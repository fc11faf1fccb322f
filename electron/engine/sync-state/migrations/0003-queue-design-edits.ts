import type Database from 'better-sqlite3';

const COLUMNS = `id, kind, state, paused, attention, reason, folder, path, design_id, file_kind, remote_id, payload, bytes_sent,
  bytes_total, attempts, next_attempt_at, started_at, file_size, file_mtime_ms, file_sha1, created_at, updated_at, finished_at,
  sent_at, sent_name, sent_sha1, sent_size, sent_mtime_ms, sent_inode`;

/**
 * A new kind of queue item: 'update-design', an edit of a design's fields made while the service was unreachable,
 * sent when it is back. SQLite cannot change a CHECK constraint in place, so the table is rebuilt (rows, ids and
 * indexes kept), in the migration's one transaction.
 */
export function migration0003QueueDesignEdits(db: Database.Database): void {
  db.exec(`
    CREATE TABLE queue_items_0003 (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('upload', 'replace', 'rename', 'delete-remote', 'create-design', 'update-design')),
      state TEXT NOT NULL CHECK (state IN ('waiting', 'running', 'done', 'failed', 'attention', 'cancelled')),
      paused INTEGER NOT NULL DEFAULT 0,
      attention TEXT CHECK (attention IN ('confirm-delete', 'confirm-design', 'sign-in', 'invalid-file', 'conflict', 'refused', 'missing-design')),
      reason TEXT,
      folder TEXT,
      path TEXT,
      design_id INTEGER,
      file_kind TEXT CHECK (file_kind IN ('image', 'document')),
      remote_id INTEGER,
      payload TEXT NOT NULL DEFAULT '{}',
      bytes_sent INTEGER NOT NULL DEFAULT 0,
      bytes_total INTEGER,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL DEFAULT 0,
      started_at INTEGER,
      file_size INTEGER,
      file_mtime_ms INTEGER,
      file_sha1 TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      finished_at INTEGER,
      sent_at INTEGER,
      sent_name TEXT,
      sent_sha1 TEXT,
      sent_size INTEGER,
      sent_mtime_ms INTEGER,
      sent_inode TEXT
    );
    INSERT INTO queue_items_0003 (${COLUMNS}) SELECT ${COLUMNS} FROM queue_items;
    DROP TABLE queue_items;
    ALTER TABLE queue_items_0003 RENAME TO queue_items;
    CREATE INDEX queue_items_by_state ON queue_items(state, next_attempt_at);
    CREATE UNIQUE INDEX queue_items_pending_path ON queue_items(path) WHERE path IS NOT NULL AND state IN ('waiting', 'attention');
    -- At most one design edit not yet started per design: a later edit is merged into it.
    CREATE UNIQUE INDEX queue_items_pending_design_edit ON queue_items(design_id) WHERE kind = 'update-design' AND state IN ('waiting', 'attention');
  `);
}
