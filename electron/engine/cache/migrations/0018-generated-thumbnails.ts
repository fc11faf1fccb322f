import type Database from 'better-sqlite3';

/**
 * Pictures rendered in the window from a design's first model, for designs that have no image: one a design, named
 * by the model document it came from and that document's `updated_at` (another version makes it stale), its bytes
 * in the profile's `thumbnails/` folder. Never uploaded unless the person makes one the design's cover. A row with a
 * `problem` says the window could not make one from that version (its bytes none): it is not tried again. A design
 * removed from the cache takes its row with it (its file is swept: library/generated-thumbnails.ts).
 */
export function migration0018GeneratedThumbnails(db: Database.Database): void {
  db.exec(`
    CREATE TABLE generated_thumbnails (
      design_id INTEGER PRIMARY KEY REFERENCES designs(id) ON DELETE CASCADE,
      document_id INTEGER NOT NULL,
      document_version TEXT,
      file_name TEXT NOT NULL,
      byte_size INTEGER NOT NULL,
      made_at INTEGER NOT NULL,
      problem TEXT
    );
  `);
}
