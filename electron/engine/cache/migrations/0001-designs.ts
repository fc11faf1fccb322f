import type Database from 'better-sqlite3';

/**
 * Designs and what hangs off them. Each form the service sends is kept whole as JSON in its own column
 * (list/read form, user-designs form; public and own user forms), so no field is ever lost and one form
 * never erases the fields of another; the plain columns are what the UI sorts, filters and searches on.
 */
export function migration0001Designs(db: Database.Database): void {
  db.exec(`
    CREATE TABLE users (
      id INTEGER PRIMARY KEY,
      screen_name TEXT NOT NULL DEFAULT '',
      public_json TEXT,
      own_json TEXT,
      fetched_at INTEGER NOT NULL
    );

    CREATE TABLE designs (
      id INTEGER PRIMARY KEY,
      slug TEXT,
      name TEXT NOT NULL DEFAULT '',
      excerpt TEXT NOT NULL DEFAULT '',
      description_html TEXT NOT NULL DEFAULT '',
      description_text TEXT NOT NULL DEFAULT '',
      license TEXT,
      state TEXT,
      user_id INTEGER,
      author_screen_name TEXT NOT NULL DEFAULT '',
      primary_image_id INTEGER,
      created_at TEXT,
      updated_at TEXT,
      created_ms INTEGER,
      updated_ms INTEGER,
      list_json TEXT,
      list_updated_at TEXT,
      user_form_json TEXT,
      user_form_updated_at TEXT,
      in_listing INTEGER NOT NULL DEFAULT 0,
      is_own INTEGER NOT NULL DEFAULT 0,
      images_for_updated_at TEXT,
      fetched_at INTEGER NOT NULL
    );
    CREATE INDEX designs_by_slug ON designs(slug);
    CREATE INDEX designs_by_updated ON designs(updated_ms DESC, id DESC);
    CREATE INDEX designs_by_created ON designs(created_ms DESC, id DESC);
    CREATE INDEX designs_by_name ON designs(name COLLATE NOCASE, id);
    CREATE INDEX designs_by_license ON designs(license, updated_ms DESC);
    CREATE INDEX designs_own ON designs(is_own, updated_ms DESC) WHERE is_own = 1;
    CREATE INDEX designs_by_user ON designs(user_id);

    CREATE TABLE tags (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE COLLATE NOCASE,
      service_id INTEGER,
      taggings_count INTEGER
    );
    CREATE TABLE design_tags (
      design_id INTEGER NOT NULL REFERENCES designs(id) ON DELETE CASCADE,
      tag_id INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
      position INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (design_id, tag_id)
    ) WITHOUT ROWID;
    CREATE INDEX design_tags_by_tag ON design_tags(tag_id);

    CREATE TABLE images (
      id INTEGER PRIMARY KEY,
      design_id INTEGER NOT NULL REFERENCES designs(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      updated_at TEXT,
      raw_json TEXT NOT NULL,
      fetched_at INTEGER NOT NULL
    );
    CREATE INDEX images_by_design ON images(design_id, position);

    CREATE TABLE documents (
      id INTEGER PRIMARY KEY,
      design_id INTEGER NOT NULL REFERENCES designs(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      updated_at TEXT,
      raw_json TEXT NOT NULL,
      fetched_at INTEGER NOT NULL
    );
    CREATE INDEX documents_by_design ON documents(design_id, position);

    CREATE TABLE http_validators (
      url TEXT PRIMARY KEY,
      etag TEXT,
      last_modified TEXT,
      checked_at INTEGER NOT NULL
    );

    CREATE TABLE sync_state (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      last_full_pull_at INTEGER,
      last_listing_count INTEGER,
      last_own_pull_at INTEGER,
      own_user_id INTEGER
    );
    INSERT INTO sync_state (id) VALUES (1);
  `);
}
