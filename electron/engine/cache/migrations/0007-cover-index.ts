import type Database from 'better-sqlite3';

/**
 * Which design an image is the cover of: a card's thumbnail address names only the image, and when the cache has
 * not listed that design's images yet the host finds the design through this index to list them on demand.
 */
export function migration0007CoverIndex(db: Database.Database): void {
  db.exec('CREATE INDEX designs_by_cover ON designs(primary_image_id) WHERE primary_image_id IS NOT NULL;');
}
