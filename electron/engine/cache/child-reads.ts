import type { ReadableDB } from './cache-database';
import { readStoredPrimaryImage } from './compact-form';
import { prepared } from './prepared';
import { engineLog } from '../log/engine-log';

function parse(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch (error) {
    engineLog.warn('cache', 'a cached image or document is not readable JSON (shown as empty)', error);
    return {};
  }
}

/** One cached image of a design as the service sent it, or null. Never touches the network. */
export function cachedImage(db: ReadableDB, id: number): { designId: number; raw: Record<string, unknown> } | null {
  const row = prepared(db, 'SELECT design_id, raw_json FROM images WHERE id = ?').get(id) as { design_id: number; raw_json: string } | undefined;
  return row ? { designId: row.design_id, raw: parse(row.raw_json) } : null;
}

/** One cached document of a design as the service sent it, or null. Never touches the network. */
export function cachedDocument(db: ReadableDB, id: number): { designId: number; raw: Record<string, unknown> } | null {
  const row = prepared(db, 'SELECT design_id, raw_json FROM documents WHERE id = ?').get(id) as { design_id: number; raw_json: string } | undefined;
  return row ? { designId: row.design_id, raw: parse(row.raw_json) } : null;
}

/**
 * When the service last vouched for both of a design's lists (its images and its documents), epoch ms: the older of
 * the two. Null when either was never read from the service (what the cache shows of it may be incomplete).
 */
export function childListsCheckedAt(db: ReadableDB, designId: number): number | null {
  const row = prepared(db, 'SELECT count(*) AS n, min(checked_at) AS at FROM http_validators WHERE url IN (?, ?)')
    .get(`/v1/designs/${designId}/images`, `/v1/designs/${designId}/documents`) as { n: number; at: number | null };
  return row.n === 2 ? row.at : null;
}

/**
 * The `primary_image` (its file and renditions) that a cached design names this cover with, or null: the live
 * service sends it with every design, so a cover is found without listing the design's images.
 */
export function primaryImageOfCover(db: ReadableDB, imageId: number): Record<string, unknown> | null {
  const row = prepared(db,
    `SELECT CASE WHEN json_extract(list_json, '$.primary_image') IS NOT NULL THEN json_extract(list_json, '$.primary_image') ELSE json_extract(user_form_json, '$.primary_image') END AS image,
       CASE WHEN json_extract(list_json, '$.primary_image') IS NOT NULL THEN list_layout ELSE user_form_layout END AS layout
     FROM designs WHERE primary_image_id = ? LIMIT 1`,
  ).get(imageId) as { image: unknown; layout: number | null } | undefined;
  if (typeof row?.image !== 'string') return null;
  const image = readStoredPrimaryImage(parse(row.image), row.layout);
  return typeof image.file === 'object' && image.file !== null ? image : null;
}

/** The cached design whose cover (primary image) this image is, or null. */
export function designOfCover(db: ReadableDB, imageId: number): number | null {
  const row = prepared(db, 'SELECT id FROM designs WHERE primary_image_id = ? LIMIT 1').get(imageId) as { id: number } | undefined;
  return row?.id ?? null;
}
