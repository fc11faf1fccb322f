import type { Design, Tag, UserDesign } from '../../shared';
import type { ServiceDatabase } from '../database/open-database';
import type { DesignRow, ImageRow } from '../database/rows';
import { documentsZipPath, imageFileObject } from '../media/urls';
import { formatTimestamp } from '../../shared';

/** What each row of a page needs besides itself, read once per page. */
interface PageExtras {
  withDocuments: Set<number>;
  coverById: Map<number, Pick<ImageRow, 'id' | 'file_name'>>;
}

function coreFields(row: DesignRow, extras: PageExtras) {
  const cover = row.primary_image_id === null ? undefined : extras.coverById.get(row.primary_image_id);
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    user_id: row.user_id,
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
    primary_image_id: row.primary_image_id,
    license: row.license,
    state: row.state,
    design_category_id: row.design_category_id,
    excerpt: row.excerpt,
    last_trending_popularity: row.last_trending_popularity,
    current_delta_popularity: row.current_delta_popularity,
    materials: row.materials,
    documents_zip: { url: extras.withDocuments.has(row.id) ? documentsZipPath(row.id, row.slug) : null },
    download_count: row.download_count,
    documents_download_count: row.documents_download_count,
    attribution: row.attribution,
    // As recorded: the cover's file with its renditions, and no primary_image at all when that image is gone.
    ...(cover ? { primary_image: { file: imageFileObject(cover) } } : {}),
  };
}

function idsParam(rows: DesignRow[]): string {
  return JSON.stringify(rows.map((row) => row.id));
}

function designsWithDocuments(db: ServiceDatabase, rows: DesignRow[]): Set<number> {
  const found = db
    .prepare('SELECT DISTINCT design_id FROM documents WHERE design_id IN (SELECT value FROM json_each(?))')
    .all(idsParam(rows)) as { design_id: number }[];
  return new Set(found.map((row) => row.design_id));
}

function pageExtras(db: ServiceDatabase, rows: DesignRow[]): PageExtras {
  const covers = db
    .prepare('SELECT id, file_name, design_id FROM images WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(rows.map((row) => row.primary_image_id).filter((id) => id !== null))) as (Pick<ImageRow, 'id' | 'file_name' | 'design_id'>)[];
  const ownCovers = covers.filter((cover) => rows.some((row) => row.id === cover.design_id && row.primary_image_id === cover.id));
  return { withDocuments: designsWithDocuments(db, rows), coverById: new Map(ownCovers.map((cover) => [cover.id, cover])) };
}

/** The list/read form (spec §2.1): with tags and user. One query each for tags, owners and documents, whatever the page size. */
export function serializeDesigns(db: ServiceDatabase, rows: DesignRow[]): Design[] {
  if (rows.length === 0) return [];
  const tagRows = db
    .prepare(
      `SELECT tg.design_id, t.id, t.name, t.taggings_count
       FROM taggings tg JOIN tags t ON t.id = tg.tag_id
       WHERE tg.design_id IN (SELECT value FROM json_each(?)) ORDER BY t.name`,
    )
    .all(idsParam(rows)) as (Tag & { design_id: number })[];
  const tagsByDesign = new Map<number, Tag[]>();
  for (const { design_id, ...tag } of tagRows) {
    const list = tagsByDesign.get(design_id) ?? [];
    list.push(tag);
    tagsByDesign.set(design_id, list);
  }
  const owners = db
    .prepare(`SELECT id, screen_name FROM users WHERE id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify([...new Set(rows.map((row) => row.user_id))])) as { id: number; screen_name: string }[];
  const ownerById = new Map(owners.map((owner) => [owner.id, owner]));
  const extras = pageExtras(db, rows);
  return rows.map((row) => ({
    ...coreFields(row, extras),
    tags: tagsByDesign.get(row.id) ?? [],
    user: ownerById.get(row.user_id)!,
  })) as Design[];
}

export function serializeDesign(db: ServiceDatabase, row: DesignRow): Design {
  return serializeDesigns(db, [row])[0]!;
}

/** The user-designs form (spec §2.1): wiki_mode and zipper_worker_uuid instead of tags and user. */
export function serializeUserDesigns(db: ServiceDatabase, rows: DesignRow[]): UserDesign[] {
  if (rows.length === 0) return [];
  const extras = pageExtras(db, rows);
  return rows.map((row) => ({
    ...coreFields(row, extras),
    wiki_mode: row.wiki_mode === 1,
    zipper_worker_uuid: null,
  })) as UserDesign[];
}
