import type { Design, Tag, UserDesign } from '../../shared';
import type { ServiceDatabase } from '../database/open-database';
import type { DesignRow } from '../database/rows';
import { documentsZipPath } from '../media/urls';
import { formatTimestamp } from '../../shared';

function coreFields(row: DesignRow, hasDocuments: boolean) {
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
    documents_zip: { url: hasDocuments ? documentsZipPath(row.id, row.slug) : null },
    download_count: row.download_count,
    documents_download_count: row.documents_download_count,
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
  const withDocuments = designsWithDocuments(db, rows);
  return rows.map((row) => ({
    ...coreFields(row, withDocuments.has(row.id)),
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
  const withDocuments = designsWithDocuments(db, rows);
  return rows.map((row) => ({
    ...coreFields(row, withDocuments.has(row.id)),
    wiki_mode: row.wiki_mode === 1,
    zipper_worker_uuid: null,
  })) as UserDesign[];
}

export function latestUpdate(rows: { updated_at: number }[]): number | null {
  return rows.length === 0 ? null : Math.max(...rows.map((row) => row.updated_at));
}
