import type { ServiceDatabase } from '../database/open-database';
import type { ImageRow } from '../database/rows';

export function listDesignImages(db: ServiceDatabase, designId: number): ImageRow[] {
  return db.prepare('SELECT * FROM images WHERE design_id = ? ORDER BY id').all(designId) as ImageRow[];
}

export function findDesignImage(db: ServiceDatabase, designId: number, imageId: number): ImageRow | undefined {
  return db.prepare('SELECT * FROM images WHERE id = ? AND design_id = ?').get(imageId, designId) as ImageRow | undefined;
}

export function findImage(db: ServiceDatabase, imageId: number): ImageRow | undefined {
  return db.prepare('SELECT * FROM images WHERE id = ?').get(imageId) as ImageRow | undefined;
}

export interface NewImage {
  designId: number;
  userId: number;
  name: string;
  description: string;
  fileName: string;
  now: number;
  storageKeyFor: (id: number) => string;
}

/** Inserts the row and, when the design has no primary image yet, makes this one primary. */
export function insertImage(db: ServiceDatabase, image: NewImage): ImageRow {
  return db.transaction(() => {
    const { lastInsertRowid } = db
      .prepare(
        `INSERT INTO images (design_id, user_id, name, description, file_name, storage_key, created_at, updated_at)
         VALUES (@designId, @userId, @name, @description, @fileName, '', @now, @now)`,
      )
      .run(image);
    const id = Number(lastInsertRowid);
    db.prepare('UPDATE images SET storage_key = ? WHERE id = ?').run(image.storageKeyFor(id), id);
    db.prepare('UPDATE designs SET primary_image_id = ? WHERE id = ? AND primary_image_id IS NULL').run(id, image.designId);
    return db.prepare('SELECT * FROM images WHERE id = ?').get(id) as ImageRow;
  })();
}

export function updateImage(db: ServiceDatabase, id: number, changes: { name?: string; description?: string; fileName?: string }, now: number): void {
  db.prepare(
    `UPDATE images SET name = coalesce(@name, name), description = coalesce(@description, description),
     file_name = coalesce(@fileName, file_name), updated_at = max(updated_at + 1, @now) WHERE id = @id`,
  ).run({ name: changes.name ?? null, description: changes.description ?? null, fileName: changes.fileName ?? null, now, id });
}

/** Deletes the row; a design whose primary image it was gets its first remaining image as primary, or none. */
export function deleteImage(db: ServiceDatabase, image: ImageRow): void {
  db.transaction(() => {
    db.prepare('DELETE FROM images WHERE id = ?').run(image.id);
    db.prepare(
      `UPDATE designs SET primary_image_id = (SELECT min(id) FROM images WHERE design_id = @designId)
       WHERE id = @designId AND primary_image_id = @imageId`,
    ).run({ designId: image.design_id, imageId: image.id });
  })();
}
