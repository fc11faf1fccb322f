import type Database from 'better-sqlite3';

export function migration0001Initial(db: Database.Database): void {
  db.exec(`
    CREATE TABLE users (
      id INTEGER PRIMARY KEY,
      screen_name TEXT NOT NULL UNIQUE COLLATE NOCASE,
      slug TEXT NOT NULL UNIQUE,
      real_name TEXT NOT NULL DEFAULT '',
      name TEXT NOT NULL DEFAULT '',
      email TEXT NOT NULL UNIQUE,
      password_hash TEXT NOT NULL,
      about TEXT NOT NULL DEFAULT '',
      location TEXT NOT NULL DEFAULT '',
      url TEXT NOT NULL DEFAULT '',
      donate_url TEXT,
      skills TEXT NOT NULL DEFAULT '[]',
      preferences TEXT NOT NULL DEFAULT '{}',
      email_token TEXT NOT NULL,
      role TEXT NOT NULL DEFAULT 'user',
      avatar_image_path TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );

    CREATE TABLE follows (
      follower_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      followed_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (follower_id, followed_id)
    );

    CREATE TABLE designs (
      id INTEGER PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id),
      name TEXT NOT NULL,
      slug TEXT NOT NULL UNIQUE,
      description TEXT NOT NULL DEFAULT '',
      excerpt TEXT NOT NULL DEFAULT '',
      license TEXT NOT NULL,
      state TEXT NOT NULL DEFAULT 'draft',
      design_category_id INTEGER NOT NULL DEFAULT 1,
      materials TEXT NOT NULL DEFAULT '',
      primary_image_id INTEGER,
      last_trending_popularity REAL NOT NULL DEFAULT 0,
      current_delta_popularity REAL NOT NULL DEFAULT 0,
      download_count INTEGER NOT NULL DEFAULT 0,
      documents_download_count INTEGER NOT NULL DEFAULT 0,
      wiki_mode INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX designs_by_state ON designs(state, id);
    CREATE INDEX designs_by_user ON designs(user_id, id);

    CREATE TABLE tags (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE COLLATE NOCASE
    );
    CREATE TABLE taggings (
      design_id INTEGER NOT NULL REFERENCES designs(id) ON DELETE CASCADE,
      tag_id INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
      PRIMARY KEY (design_id, tag_id)
    );
    CREATE INDEX taggings_by_tag ON taggings(tag_id);

    CREATE TABLE images (
      id INTEGER PRIMARY KEY,
      design_id INTEGER NOT NULL REFERENCES designs(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES users(id),
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      file_name TEXT NOT NULL,
      storage_key TEXT NOT NULL,
      contribution_id INTEGER,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX images_by_design ON images(design_id, id);

    CREATE TABLE documents (
      id INTEGER PRIMARY KEY,
      design_id INTEGER NOT NULL REFERENCES designs(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES users(id),
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      file_name TEXT NOT NULL,
      storage_key TEXT NOT NULL,
      byte_size INTEGER NOT NULL,
      modelhash TEXT NOT NULL,
      design_tool_id INTEGER,
      design_tool_version_id INTEGER,
      properties TEXT NOT NULL DEFAULT '{}',
      download_count INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX documents_by_design ON documents(design_id, id);

    CREATE TABLE applications (
      id INTEGER PRIMARY KEY,
      slug TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL
    );

    CREATE TABLE authorized_integrations (
      id INTEGER PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      application_id INTEGER NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
      token TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL,
      revoked_at INTEGER
    );
    CREATE UNIQUE INDEX one_live_authorization ON authorized_integrations(user_id, application_id) WHERE revoked_at IS NULL;

    CREATE TABLE web_sessions (
      id TEXT PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      csrf_token TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );

    INSERT INTO applications (slug, name) VALUES ('design-sync', 'design-sync');
  `);
}
