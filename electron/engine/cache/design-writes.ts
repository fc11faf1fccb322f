import { tolerantDesign, tolerantDocument, tolerantImage, tolerantUser, type TolerantDesign } from '../api/tolerant-readers';
import type { WritableDB } from './cache-database';
import { htmlToPlainText } from './html-text';
import { prepared } from './prepared';

/** Which form of a design the service sent (spec §2.1): list/read/search form, or the user-designs form. */
export type DesignForm = 'list' | 'user';

export type UpsertOutcome = 'inserted' | 'updated' | 'unchanged' | 'skipped';

interface StoredDesign {
  id: number;
  updated_at: string | null;
  updated_ms: number | null;
  list_json: string | null;
  list_updated_at: string | null;
  user_form_json: string | null;
  user_form_updated_at: string | null;
  in_listing: number;
  is_own: number;
  author_screen_name: string;
}

export interface UpsertFlags {
  /** Seen in the complete published listing (GET /v1/designs). */
  inListing?: boolean;
  /** One of the signed-in user's own designs. */
  own?: boolean;
  /** Screen name of the signed-in user, for own designs (the user-designs form has no user object). */
  ownScreenName?: string;
}

export function timestampMs(value: string | null): number | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * Writes one design as the service sent it, only when it is new or its form's updated_at changed (or a
 * flag changed). The other form's JSON is never touched. The plain columns follow the newest data.
 */
export function upsertDesign(db: WritableDB, raw: unknown, form: DesignForm, now: number, flags: UpsertFlags = {}): { outcome: UpsertOutcome; id?: number } {
  const parsed = tolerantDesign.safeParse(raw);
  if (!parsed.success) return { outcome: 'skipped' };
  const design = parsed.data;
  const existing = prepared(db, 
    `SELECT id, updated_at, updated_ms, list_json, list_updated_at, user_form_json, user_form_updated_at, in_listing, is_own, author_screen_name
     FROM designs WHERE id = ?`,
  ).get(design.id) as StoredDesign | undefined;

  const formJson = form === 'list' ? existing?.list_json : existing?.user_form_json;
  const formUpdatedAt = form === 'list' ? existing?.list_updated_at : existing?.user_form_updated_at;
  const sameData = existing !== undefined && formJson !== null && formJson !== undefined && formUpdatedAt === design.updated_at && design.updated_at !== null;
  const wantListing = flags.inListing === undefined ? undefined : flags.inListing ? 1 : 0;
  const wantOwn = flags.own === undefined ? undefined : flags.own ? 1 : 0;
  const sameFlags = existing !== undefined
    && (wantListing === undefined || existing.in_listing === wantListing)
    && (wantOwn === undefined || existing.is_own === wantOwn);
  if (sameData && sameFlags) return { outcome: 'unchanged', id: design.id };
  if (sameData && existing) {
    setDesignFlags(db, design.id, flags);
    return { outcome: 'updated', id: design.id };
  }

  const json = JSON.stringify(raw);
  const updatedMs = timestampMs(design.updated_at);
  // The plain columns come from this form unless the cache already holds newer data from the other one.
  const takeColumns = !existing || existing.updated_ms === null || updatedMs === null || updatedMs >= existing.updated_ms;
  const author = design.user?.screen_name ?? (flags.own ? flags.ownScreenName : undefined) ?? existing?.author_screen_name ?? '';

  const write = db.transaction(() => {
    if (!existing) {
      prepared(db, `INSERT INTO designs (id, fetched_at) VALUES (?, ?)`).run(design.id, now);
    }
    if (takeColumns) writeColumns(db, design, author, now);
    prepared(db, 
      form === 'list'
        ? `UPDATE designs SET list_json = ?, list_updated_at = ?, fetched_at = ? WHERE id = ?`
        : `UPDATE designs SET user_form_json = ?, user_form_updated_at = ?, fetched_at = ? WHERE id = ?`,
    ).run(json, design.updated_at, now, design.id);
    setDesignFlags(db, design.id, flags);
    if (design.user) upsertUserSummary(db, design.user.id, design.user.screen_name, now);
    // Tags come only with the list form (spec §2.1): the user-designs form leaves them as they are.
    if (form === 'list') writeTags(db, design.id, (raw as { tags?: unknown }).tags);
    writeSearchRow(db, design.id);
  });
  write();
  return { outcome: existing ? 'updated' : 'inserted', id: design.id };
}

function writeColumns(db: WritableDB, design: TolerantDesign, author: string, now: number): void {
  prepared(db, 
    `UPDATE designs SET slug = @slug, name = @name, excerpt = @excerpt, description_html = @description,
       description_text = @descriptionText, license = @license, state = @state, user_id = @userId,
       author_screen_name = @author, primary_image_id = @primaryImageId, created_at = @createdAt, updated_at = @updatedAt,
       created_ms = @createdMs, updated_ms = @updatedMs, fetched_at = @now
     WHERE id = @id`,
  ).run({
    id: design.id,
    slug: design.slug ?? null,
    name: design.name,
    excerpt: design.excerpt,
    description: design.description,
    descriptionText: htmlToPlainText(design.description),
    license: design.license,
    state: design.state,
    userId: design.user_id,
    author,
    primaryImageId: design.primary_image_id,
    createdAt: design.created_at,
    updatedAt: design.updated_at,
    createdMs: timestampMs(design.created_at),
    updatedMs: timestampMs(design.updated_at),
    now,
  });
}

function setDesignFlags(db: WritableDB, id: number, flags: UpsertFlags): void {
  if (flags.inListing !== undefined) prepared(db, 'UPDATE designs SET in_listing = ? WHERE id = ? AND in_listing != ?').run(flags.inListing ? 1 : 0, id, flags.inListing ? 1 : 0);
  if (flags.own !== undefined) prepared(db, 'UPDATE designs SET is_own = ? WHERE id = ? AND is_own != ?').run(flags.own ? 1 : 0, id, flags.own ? 1 : 0);
}

function upsertUserSummary(db: WritableDB, id: number, screenName: string, now: number): void {
  prepared(db, 
    `INSERT INTO users (id, screen_name, fetched_at) VALUES (?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET screen_name = excluded.screen_name, fetched_at = excluded.fetched_at
     WHERE users.screen_name != excluded.screen_name`,
  ).run(id, screenName, now);
}

/** Stores a user as the service sent it: `own` for whoami's own form, `public` for the public form. */
export function upsertUser(db: WritableDB, raw: unknown, form: 'public' | 'own', now: number): number | null {
  const parsed = tolerantUser.safeParse(raw);
  if (!parsed.success) return null;
  const column = form === 'own' ? 'own_json' : 'public_json';
  prepared(db, 
    `INSERT INTO users (id, screen_name, ${column}, fetched_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET screen_name = excluded.screen_name, ${column} = excluded.${column}, fetched_at = excluded.fetched_at
     WHERE users.${column} IS NOT excluded.${column} OR users.screen_name != excluded.screen_name`,
  ).run(parsed.data.id, parsed.data.screen_name, JSON.stringify(raw), now);
  return parsed.data.id;
}

function tagParts(value: unknown): { name: string; serviceId: number | null; count: number | null } | null {
  if (typeof value === 'string') return value.trim() ? { name: value.trim(), serviceId: null, count: null } : null;
  if (value && typeof value === 'object') {
    const tag = value as { id?: unknown; name?: unknown; taggings_count?: unknown };
    if (typeof tag.name !== 'string' || !tag.name.trim()) return null;
    return {
      name: tag.name.trim(),
      serviceId: Number.isInteger(tag.id) ? (tag.id as number) : null,
      count: Number.isInteger(tag.taggings_count) ? (tag.taggings_count as number) : null,
    };
  }
  return null;
}

function writeTags(db: WritableDB, designId: number, tags: unknown): void {
  prepared(db, 'DELETE FROM design_tags WHERE design_id = ?').run(designId);
  if (!Array.isArray(tags)) return;
  const upsertTag = prepared(db, 
    `INSERT INTO tags (name, service_id, taggings_count) VALUES (@name, @serviceId, @count)
     ON CONFLICT (name) DO UPDATE SET service_id = coalesce(excluded.service_id, tags.service_id),
       taggings_count = coalesce(excluded.taggings_count, tags.taggings_count)
     RETURNING id`,
  );
  const link = prepared(db, 'INSERT OR IGNORE INTO design_tags (design_id, tag_id, position) VALUES (?, ?, ?)');
  tags.forEach((value, position) => {
    const tag = tagParts(value);
    if (!tag) return;
    const { id } = upsertTag.get(tag) as { id: number };
    link.run(designId, id, position);
  });
}

/** Rewrites a design's full-text row from its columns and tags. */
export function writeSearchRow(db: WritableDB, designId: number): void {
  prepared(db, 'DELETE FROM designs_fts WHERE rowid = ?').run(designId);
  prepared(db, 
    `INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author)
     SELECT d.id, d.name, d.excerpt, d.description_text,
       coalesce((SELECT group_concat(t.name, ' ') FROM design_tags dt JOIN tags t ON t.id = dt.tag_id WHERE dt.design_id = d.id), ''),
       d.author_screen_name
     FROM designs d WHERE d.id = ?`,
  ).run(designId);
}

/** Marks own designs' author once the signed-in user is known (the user-designs form has no user object). */
export function fillOwnAuthor(db: WritableDB, userId: number, screenName: string): void {
  const ids = prepared(db, `SELECT id FROM designs WHERE user_id = ? AND author_screen_name = ''`).all(userId) as { id: number }[];
  for (const { id } of ids) {
    prepared(db, 'UPDATE designs SET author_screen_name = ? WHERE id = ?').run(screenName, id);
    writeSearchRow(db, id);
  }
}

/** Merges the full-text index's segments: worth it after a pull that wrote many rows (FTS5 merges small batches by itself). */
export function optimizeSearchIndex(db: WritableDB): void {
  db.exec(`INSERT INTO designs_fts (designs_fts) VALUES ('optimize')`);
}

export function deleteDesigns(db: WritableDB, ids: readonly number[]): number {
  const remove = prepared(db, 'DELETE FROM designs WHERE id = ?');
  let removed = 0;
  db.transaction(() => {
    for (const id of ids) removed += remove.run(id).changes;
  })();
  return removed;
}

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

export function readValidators(db: WritableDB, url: string): { etag: string | null; lastModified: string | null } | null {
  const row = prepared(db, 'SELECT etag, last_modified AS lastModified FROM http_validators WHERE url = ?').get(url) as
    { etag: string | null; lastModified: string | null } | undefined;
  return row ?? null;
}

export function writeValidators(db: WritableDB, url: string, etag: string | null, lastModified: string | null, now: number): void {
  prepared(db, 
    `INSERT INTO http_validators (url, etag, last_modified, checked_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified, checked_at = excluded.checked_at`,
  ).run(url, etag, lastModified, now);
}

export interface SyncState {
  lastFullPullAt: number | null;
  lastListingCount: number | null;
  lastOwnPullAt: number | null;
  ownUserId: number | null;
}

export function updateSyncState(db: WritableDB, changes: Partial<SyncState>): void {
  const columns: Record<keyof SyncState, string> = {
    lastFullPullAt: 'last_full_pull_at', lastListingCount: 'last_listing_count', lastOwnPullAt: 'last_own_pull_at', ownUserId: 'own_user_id',
  };
  for (const [key, value] of Object.entries(changes) as [keyof SyncState, number | null][]) {
    prepared(db, `UPDATE sync_state SET ${columns[key]} = ? WHERE id = 1`).run(value);
  }
}
