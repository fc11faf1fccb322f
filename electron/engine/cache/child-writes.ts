import { tolerantDocument, tolerantImage } from '../api/tolerant-readers';
import type { WritableDB } from './cache-database';
import { prepared } from './prepared';

/** A design's image and document lists as the service sent them: written whole, unchanged rows left alone. */

export interface ReplaceResult {
  written: number;
  removed: number;
}

/** Replaces a design's images with the list the service sent; rows whose JSON did not change are not rewritten. */
export function replaceImages(db: WritableDB, designId: number, items: unknown[], now: number): ReplaceResult {
  return replaceChildren(db, 'images', designId, items, now, (item) => {
    const parsed = tolerantImage.safeParse(item);
    return parsed.success ? { id: parsed.data.id, updatedAt: parsed.data.updated_at } : null;
  });
}

export function replaceDocuments(db: WritableDB, designId: number, items: unknown[], now: number): ReplaceResult {
  return replaceChildren(db, 'documents', designId, items, now, (item) => {
    const parsed = tolerantDocument.safeParse(item);
    return parsed.success ? { id: parsed.data.id, updatedAt: parsed.data.updated_at } : null;
  });
}

function replaceChildren(
  db: WritableDB, table: 'images' | 'documents', designId: number, items: unknown[], now: number,
  read: (item: unknown) => { id: number; updatedAt: string | null } | null,
): ReplaceResult {
  let written = 0;
  let removed = 0;
  db.transaction(() => {
    const stored = new Map(
      (prepared(db, `SELECT id, position, raw_json FROM ${table} WHERE design_id = ?`).all(designId) as { id: number; position: number; raw_json: string }[])
        .map((row) => [row.id, row]),
    );
    const seen = new Set<number>();
    const upsert = prepared(db, 
      `INSERT INTO ${table} (id, design_id, position, updated_at, raw_json, fetched_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET design_id = excluded.design_id, position = excluded.position, updated_at = excluded.updated_at,
         raw_json = excluded.raw_json, fetched_at = excluded.fetched_at`,
    );
    items.forEach((item, position) => {
      const key = read(item);
      if (!key || seen.has(key.id)) return;
      seen.add(key.id);
      const json = JSON.stringify(item);
      const before = stored.get(key.id);
      if (before && before.raw_json === json && before.position === position) return;
      upsert.run(key.id, designId, position, key.updatedAt, json, now);
      written++;
    });
    const remove = prepared(db, `DELETE FROM ${table} WHERE id = ?`);
    for (const id of stored.keys()) if (!seen.has(id)) removed += remove.run(id).changes;
  })();
  return { written, removed };
}

export function markImagesFetched(db: WritableDB, designId: number, updatedAt: string | null): void {
  prepared(db, 'UPDATE designs SET images_for_updated_at = ? WHERE id = ? AND images_for_updated_at IS NOT ?').run(updatedAt, designId, updatedAt);
}

