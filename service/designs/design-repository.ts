import type { ServiceDatabase } from '../database/open-database';
import type { DesignRow } from '../database/rows';
import type { Paging } from '../http/paging';
import { uniqueSlug } from '../users/slugs';
import { ListingBookmarks } from './listing-bookmarks';

export interface DesignPage {
  rows: DesignRow[];
  total: number;
}

/** A design a caller may see: published, or their own. */
const VISIBLE = `(d.state = 'published' OR d.user_id = @viewerId)`;

export function findVisibleDesign(db: ServiceDatabase, key: { id: number } | { slug: string }, viewerId: number | null): DesignRow | undefined {
  const where = 'id' in key ? 'd.id = @id' : 'd.slug = @slug';
  return db.prepare(`SELECT d.* FROM designs d WHERE ${where} AND ${VISIBLE}`).get({ ...key, viewerId: viewerId ?? -1 }) as DesignRow | undefined;
}

const listingBookmarks = new WeakMap<ServiceDatabase, ListingBookmarks>();

export function listPublishedDesigns(db: ServiceDatabase, paging: Paging): DesignPage {
  let bookmarks = listingBookmarks.get(db);
  if (!bookmarks) listingBookmarks.set(db, (bookmarks = new ListingBookmarks(db)));
  // The offset is walked in the index alone (the subquery), from the nearest bookmark when there is one, then only
  // one page of rows is read.
  const from = bookmarks.nearest(paging.offset) ?? { offset: 0, id: Number.MAX_SAFE_INTEGER };
  const rows = db
    .prepare(
      `SELECT * FROM designs WHERE state = 'published'
         AND id <= (SELECT id FROM designs WHERE state = 'published' AND id <= @fromId ORDER BY id DESC LIMIT 1 OFFSET @skip)
       ORDER BY id DESC LIMIT @limit`,
    )
    .all({ limit: paging.limit, fromId: from.id, skip: paging.offset - from.offset }) as DesignRow[];
  if (rows.length > 0) {
    bookmarks.note(paging.offset, rows[0]!.id);
    bookmarks.note(paging.offset + rows.length - 1, rows.at(-1)!.id);
  }
  const { total } = db.prepare(`SELECT value AS total FROM counters WHERE name = 'published_designs'`).get() as { total: number };
  return { rows, total };
}

/** Case-insensitive match on name, excerpt, description, tag names and the author's screen name. */
export function searchPublishedDesigns(db: ServiceDatabase, query: string, paging: Paging): DesignPage {
  const terms = query.trim().split(/\s+/).filter(Boolean).slice(0, 10);
  if (terms.length === 0) return listPublishedDesigns(db, paging);
  const clauses = terms.map(
    (_, i) => `(d.name LIKE @t${i} ESCAPE '\\' OR d.excerpt LIKE @t${i} ESCAPE '\\' OR d.description LIKE @t${i} ESCAPE '\\'
      OR u.screen_name LIKE @t${i} ESCAPE '\\'
      OR EXISTS (SELECT 1 FROM taggings tg JOIN tags t ON t.id = tg.tag_id WHERE tg.design_id = d.id AND t.name LIKE @t${i} ESCAPE '\\'))`,
  );
  const params = Object.fromEntries(terms.map((term, i) => [`t${i}`, `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]));
  const from = `FROM designs d JOIN users u ON u.id = d.user_id WHERE d.state = 'published' AND ${clauses.join(' AND ')}`;
  const rows = db.prepare(`SELECT d.* ${from} ORDER BY d.id DESC LIMIT @limit OFFSET @offset`).all({ ...params, limit: paging.limit, offset: paging.offset }) as DesignRow[];
  const { total } = db.prepare(`SELECT count(*) AS total ${from}`).get(params) as { total: number };
  return { rows, total };
}

/** A user's designs; drafts only when the viewer is that user. */
export function listUserDesigns(db: ServiceDatabase, userId: number, viewerId: number | null, paging: Paging): DesignPage {
  const where = `d.user_id = @userId AND ${VISIBLE}`;
  const params = { userId, viewerId: viewerId ?? -1 };
  const rows = db.prepare(`SELECT d.* FROM designs d WHERE ${where} ORDER BY d.id DESC LIMIT @limit OFFSET @offset`).all({ ...params, limit: paging.limit, offset: paging.offset }) as DesignRow[];
  const { total } = db.prepare(`SELECT count(*) AS total FROM designs d WHERE ${where}`).get(params) as { total: number };
  return { rows, total };
}

export interface NewDesign {
  userId: number;
  name: string;
  excerpt: string;
  description: string;
  license: string;
  state?: string;
  materials?: string;
  designCategoryId?: number;
  tags?: string[];
  now: number;
}

export function insertDesign(db: ServiceDatabase, design: NewDesign): DesignRow {
  const slug = uniqueSlug(db, 'designs', design.name, 'design');
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO designs (user_id, name, slug, description, excerpt, license, state, materials, design_category_id, created_at, updated_at)
       VALUES (@userId, @name, @slug, @description, @excerpt, @license, @state, @materials, @category, @now, @now)`,
    )
    .run({
      userId: design.userId, name: design.name, slug, description: design.description, excerpt: design.excerpt,
      license: design.license, state: design.state ?? 'draft', materials: design.materials ?? '',
      category: design.designCategoryId ?? 1, now: design.now,
    });
  const id = Number(lastInsertRowid);
  if (design.tags?.length) setDesignTags(db, id, design.tags);
  return db.prepare('SELECT * FROM designs WHERE id = ?').get(id) as DesignRow;
}

export function setDesignTags(db: ServiceDatabase, designId: number, names: string[]): void {
  const insertTag = db.prepare('INSERT INTO tags (name) VALUES (?) ON CONFLICT(name) DO NOTHING');
  const findTag = db.prepare('SELECT id FROM tags WHERE name = ?');
  const link = db.prepare('INSERT OR IGNORE INTO taggings (design_id, tag_id) VALUES (?, ?)');
  for (const name of names) {
    insertTag.run(name);
    const { id } = findTag.get(name) as { id: number };
    link.run(designId, id);
  }
}

/** Bumps updated_at when an image or document of the design changes, as Rails' `touch: true` would. */
export function touchDesign(db: ServiceDatabase, designId: number, now: number): void {
  db.prepare('UPDATE designs SET updated_at = max(updated_at + 1, ?) WHERE id = ?').run(now, designId);
}
