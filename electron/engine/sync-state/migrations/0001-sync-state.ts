import type Database from 'better-sqlite3';

export function migration0001SyncState(db: Database.Database): void {
  db.exec(`
    -- The one sync folder of the profile. marker: the id written into <root>/.design-sync.json, so that an
    -- empty mount point or another folder at the same path is never taken for the sync folder.
    CREATE TABLE sync_root (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      path TEXT NOT NULL,
      marker TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );

    -- Top-level folders: linked to an own design, or proposed as a new one until the user confirms.
    CREATE TABLE design_folders (
      folder TEXT PRIMARY KEY,
      design_id INTEGER UNIQUE,
      state TEXT NOT NULL CHECK (state IN ('linked', 'proposed', 'creating', 'ignored')),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );

    -- The last synced state of each file: what was the same on both sides. Comparing the folder and the
    -- service with it tells who changed what (a three-way comparison), across restarts.
    CREATE TABLE base_files (
      path TEXT PRIMARY KEY,
      folder TEXT NOT NULL,
      design_id INTEGER NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('image', 'document')),
      remote_id INTEGER NOT NULL,
      remote_name TEXT NOT NULL,
      remote_updated_at TEXT,
      size INTEGER NOT NULL,
      mtime_ms INTEGER NOT NULL,
      inode TEXT,
      sha1 TEXT NOT NULL,
      synced_at INTEGER NOT NULL,
      UNIQUE (kind, remote_id)
    );
    CREATE INDEX base_files_by_design ON base_files(design_id);
    CREATE INDEX base_files_by_inode ON base_files(inode);
    CREATE INDEX base_files_by_sha1 ON base_files(sha1);

    -- Every pending change, stored before anything is sent.
    CREATE TABLE queue_items (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('upload', 'replace', 'rename', 'delete-remote', 'create-design')),
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
      finished_at INTEGER
    );
    CREATE INDEX queue_items_by_state ON queue_items(state, next_attempt_at);
    -- At most one item per file not yet started: a newer change of the same file updates it instead of adding
    -- another. (A change made while the file uploads waits as its own item, after the running one.)
    CREATE UNIQUE INDEX queue_items_pending_path ON queue_items(path) WHERE path IS NOT NULL AND state IN ('waiting', 'attention');

    -- What sync did, in words a person understands ("Moved gear.stl to the trash: deleted on the service").
    CREATE TABLE activity (
      id INTEGER PRIMARY KEY,
      at INTEGER NOT NULL,
      level TEXT NOT NULL CHECK (level IN ('info', 'warning', 'error')),
      message TEXT NOT NULL,
      path TEXT
    );

    -- The state of sync as a whole: running, paused by the user, stopped for a reason (folder missing…).
    CREATE TABLE sync_status (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      state TEXT NOT NULL,
      reason TEXT,
      queue_paused INTEGER NOT NULL DEFAULT 0,
      last_scan_at INTEGER,
      updated_at INTEGER NOT NULL
    );
    INSERT INTO sync_status (id, state, updated_at) VALUES (1, 'idle', 0);
  `);
}
