import type Database from 'better-sqlite3';

/**
 * A design's folder is linked before it is made on disk (made = 0), then marked made: a crash between the two leaves a
 * link whose folder the next pass makes, never a folder without a link (which a scan would propose as a new design,
 * and confirming it would publish a second copy). Folders linked before this migration were made.
 */
export function migration0005FoldersMade(db: Database.Database): void {
  db.exec(`ALTER TABLE design_folders ADD COLUMN made INTEGER NOT NULL DEFAULT 1;`);
}
