import { tolerantDesign, tolerantUser, type TolerantDesign } from '../api/tolerant-readers';
import type { WritableDB } from './cache-database';
import { basedOnText } from './attribution';
import { readStoredForm, storeForm, type FormColumns } from './compact-form';
import { htmlToPlainText } from './html-text';
import { listedTagNames } from './tag-names';
import { prepared } from './prepared';
import { addToSearchBacklog } from './search-backlog';
import { rewriteSearchRow } from './search-rows';
import { noteSearchTerms } from './search-terms';
import { engineLog } from '../log/engine-log';

/** Which form of a design the service sent (spec §2.1): list/read/search form, or the user-designs form. */
export type DesignForm = 'list' | 'user';

export type UpsertOutcome = 'inserted' | 'updated' | 'unchanged' | 'skipped';

interface StoredDesign {
  id: number;
  updated_at: string | null;
  updated_ms: number | null;
  has_list_json: 0 | 1;
  list_updated_at: string | null;
  has_user_form_json: 0 | 1;
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

/** A design's fields the cache writes, as the tolerant reader reads them. */
type DesignFields = Pick<TolerantDesign,
  'id' | 'name' | 'slug' | 'description' | 'excerpt' | 'user_id' | 'license' | 'state' | 'created_at' | 'updated_at' | 'primary_image_id' | 'user'>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringOrAbsent = (value: unknown) => value === undefined || typeof value === 'string';
const isTextOrNull = (value: unknown) => value === undefined || value === null || typeof value === 'string';
const isIntOrNull = (value: unknown) => value === undefined || value === null || Number.isSafeInteger(value);

/**
 * The tolerant reader (tolerantDesign) with a fast path: a design whose fields all have their expected types
 * (what the service sends) is read field by field; anything else goes through the zod schema, which decides.
 * Null when the design cannot be read (not an object, or no integer id).
 */
export function readDesignFields(raw: unknown): DesignFields | null {
  if (isObject(raw) && Number.isSafeInteger(raw.id) && typeof raw.name === 'string' && isStringOrAbsent(raw.slug)
    && isStringOrAbsent(raw.description) && isStringOrAbsent(raw.excerpt) && isIntOrNull(raw.user_id)
    && isTextOrNull(raw.license) && isTextOrNull(raw.state) && isTextOrNull(raw.created_at) && isTextOrNull(raw.updated_at)
    && isIntOrNull(raw.primary_image_id)) {
    const user = raw.user;
    if (user === undefined || user === null || (isObject(user) && Number.isSafeInteger(user.id) && typeof user.screen_name === 'string')) {
      return {
        id: raw.id as number,
        name: raw.name,
        slug: raw.slug as string | undefined,
        description: (raw.description as string | undefined) ?? '',
        excerpt: (raw.excerpt as string | undefined) ?? '',
        user_id: (raw.user_id as number | null | undefined) ?? null,
        license: (raw.license as string | null | undefined) ?? null,
        state: (raw.state as string | null | undefined) ?? null,
        created_at: (raw.created_at as string | null | undefined) ?? null,
        updated_at: (raw.updated_at as string | null | undefined) ?? null,
        primary_image_id: (raw.primary_image_id as number | null | undefined) ?? null,
        user: user ? (user as DesignFields['user']) : null,
      };
    }
  }
  const parsed = tolerantDesign.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/**
 * What one walk over a listing has already written: user summaries, so an author seen on every page is written once,
 * not once per design. Valid only while nothing else writes users; cleared when a page's transaction fails.
 */
export class DesignWriteSession {
  readonly users = new Map<number, string>();

  /**
   * deferSearchRows: new designs are written without their search rows, which wait in the search backlog
   * (search-backlog.ts) for one large batch: FTS5 builds one far more cheaply than a hundred small ones (each commit
   * flushes a segment that is then merged again and again).
   */
  constructor(readonly options: { deferSearchRows?: boolean } = {}) {}

  clear(): void {
    this.users.clear();
  }
}

export interface UpsertResult {
  outcome: UpsertOutcome;
  id?: number;
}

/**
 * Writes one design as the service sent it, only when it is new or its form's updated_at changed (or a
 * flag changed). The other form's fields are never changed (it is stored again beside the columns when they change:
 * compact-form.ts). The plain columns follow the newest data.
 */
export function upsertDesign(db: WritableDB, raw: unknown, form: DesignForm, now: number, flags: UpsertFlags = {}): UpsertResult {
  return upsertDesigns(db, [raw], form, now, flags)[0]!;
}

const STORED_COLUMNS = `id, updated_at, updated_ms, list_json IS NOT NULL AS has_list_json, list_updated_at,
  user_form_json IS NOT NULL AS has_user_form_json, user_form_updated_at, in_listing, is_own, author_screen_name`;

interface PendingWrite {
  raw: unknown;
  /** `raw` as the service wrote it, when known (compact-form.ts storeForm: kept whole when its numbers need it). */
  rawText: (() => string | undefined) | undefined;
  design: DesignFields;
  existing: StoredDesign | undefined;
}

/**
 * Writes a page of designs (upsertDesign for each, in one transaction): what the cache holds of them is read
 * in one query, authors the given DesignWriteSession already wrote are not written again, and rows are
 * written in ascending id order (a listing comes newest first; a B-tree and FTS5's pending index both take
 * ascending keys far more cheaply). Results come in the order of `items`. `itemTexts`, when given, are the items as the
 * service wrote them (Page.itemTexts), or what gives them when first needed: a form whose numbers JSON.parse rounded is
 * stored as that text (compact-form.ts storeForm).
 */
export function upsertDesigns(
  db: WritableDB, items: readonly unknown[], form: DesignForm, now: number, flags: UpsertFlags = {}, session = new DesignWriteSession(),
  itemTexts?: readonly string[] | (() => readonly string[] | null),
): UpsertResult[] {
  const designs = items.map(readDesignFields);
  const ids = designs.filter((design): design is DesignFields => design !== null).map((design) => design.id);
  const texts = itemTexts === undefined ? undefined : textsWhenAsked(itemTexts, items.length);
  if (new Set(ids).size !== ids.length) {
    // The same design twice in one answer: each write must see the one before it, so one at a time, in order.
    return db.transaction(() => items.map((raw, i) => upsertDesigns(db, [raw], form, now, flags, session, texts && (() => textOf(texts, i)))[0]!))();
  }
  try {
    return db.transaction(() => writePage(db, items, texts, designs, ids, form, now, flags, session))();
  } catch (error) {
    session.clear();
    throw error;
  }
}

function writePage(
  db: WritableDB, items: readonly unknown[], itemTexts: ((i: number) => string | undefined) | undefined, designs: (DesignFields | null)[], ids: number[],
  form: DesignForm, now: number, flags: UpsertFlags, session: DesignWriteSession,
): UpsertResult[] {
  const stored = new Map<number, StoredDesign>();
  if (ids.length > 0) {
    const rows = prepared(db, `SELECT ${STORED_COLUMNS} FROM designs WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as StoredDesign[];
    for (const row of rows) stored.set(row.id, row);
  }
  const results: UpsertResult[] = [];
  const pending: PendingWrite[] = [];
  const wantListing = flags.inListing === undefined ? undefined : flags.inListing ? 1 : 0;
  const wantOwn = flags.own === undefined ? undefined : flags.own ? 1 : 0;
  // First, in the order given: what each design needs, and the authors of those written.
  items.forEach((raw, i) => {
    const design = designs[i];
    if (!design) {
      results.push({ outcome: 'skipped' });
      return;
    }
    const existing = stored.get(design.id);
    const hasFormJson = form === 'list' ? existing?.has_list_json : existing?.has_user_form_json;
    const formUpdatedAt = form === 'list' ? existing?.list_updated_at : existing?.user_form_updated_at;
    const sameData = existing !== undefined && hasFormJson === 1 && formUpdatedAt === design.updated_at && design.updated_at !== null;
    const sameFlags = existing !== undefined
      && (wantListing === undefined || existing.in_listing === wantListing)
      && (wantOwn === undefined || existing.is_own === wantOwn);
    if (sameData && sameFlags) {
      results.push({ outcome: 'unchanged', id: design.id });
      return;
    }
    if (sameData) {
      setDesignFlags(db, design.id, flags);
      results.push({ outcome: 'updated', id: design.id });
      return;
    }
    results.push({ outcome: existing ? 'updated' : 'inserted', id: design.id });
    if (design.user) upsertUserSummary(db, design.user.id, design.user.screen_name, now, session);
    pending.push({ raw, rawText: itemTexts && (() => itemTexts(i)), design, existing });
  });
  if (pending.length === 0) return results;

  // Then the design rows and their search rows, by ascending id.
  pending.sort((a, b) => a.design.id - b.design.id);
  const fresh = pending.filter((write) => !write.existing).map((write) => write.design.id);
  const freshJson = JSON.stringify(fresh);
  if (fresh.length > 0) removeLeftovers(db, fresh[0]!, fresh[fresh.length - 1]!, freshJson);
  for (const write of pending) {
    if (write.existing) updateDesign(db, write, form, now, flags);
    else insertDesign(db, write, form, now, flags, session);
  }
  if (session.options.deferSearchRows) {
    if (fresh.length > 0) addToSearchBacklog(db, freshJson);
    noteSearchTerms(db, pending.filter((write) => write.existing).map((write) => write.design.id));
  } else {
    noteSearchTerms(db, pending.map((write) => write.design.id));
  }
  return results;
}

const textOf = (texts: (i: number) => string | undefined, i: number) => {
  const text = texts(i);
  return text === undefined ? null : [text];
};

/** The i-th of `itemTexts` (made once, when first asked for), or undefined when they are not one a design. */
function textsWhenAsked(itemTexts: readonly string[] | (() => readonly string[] | null), count: number): (i: number) => string | undefined {
  let texts: readonly string[] | null | undefined = typeof itemTexts === 'function' ? undefined : itemTexts;
  return (i) => {
    if (texts === undefined) texts = (itemTexts as () => readonly string[] | null)();
    return texts?.length === count ? texts[i] : undefined;
  };
}

/**
 * Removes the search row left by an earlier copy of these designs, not cached now (`freshJson`, their ids, from
 * `lowest` to `highest`). The search row's trigger removes it with a design, so it is looked for only when the search
 * index holds anything in that range: a page of new designs into an empty cache, or above the designs cached, then
 * costs one look (deleting by id cost a pull about 1 µs a design). designs_fts_docsize is FTS5's table of each row's
 * size, by rowid: FTS5 itself reads a range of rowids by scanning its index, milliseconds a page.
 */
function removeLeftovers(db: WritableDB, lowest: number, highest: number, freshJson: string): void {
  const { found } = prepared(db, 'SELECT EXISTS (SELECT 1 FROM designs_fts_docsize WHERE id BETWEEN ? AND ?) AS found').get(lowest, highest) as { found: number };
  if (found) prepared(db, 'DELETE FROM designs_fts WHERE rowid IN (SELECT value FROM json_each(?))').run(freshJson);
}

/** The library's "most popular" sort key (spec §2.1 last_trending_popularity); null when the form lacks it. */
function popularityOf(raw: unknown): number | null {
  const value = (raw as { last_trending_popularity?: unknown }).last_trending_popularity;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function authorOf(design: DesignFields, flags: UpsertFlags, existing: StoredDesign | undefined): string {
  return design.user?.screen_name ?? (flags.own ? flags.ownScreenName : undefined) ?? existing?.author_screen_name ?? '';
}

const insertDesignSql = (jsonColumn: string, layoutColumn: string, updatedAtColumn: string) =>
  `INSERT INTO designs (id, slug, name, excerpt, license, state, user_id, author_screen_name,
     primary_image_id, created_at, updated_at, created_ms, updated_ms, ${jsonColumn}, ${layoutColumn}, ${updatedAtColumn}, in_listing, is_own, fetched_at,
     popularity, tags_text)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
/** Made once: a pull inserts thousands of designs a second, each looking its statement up by this text. */
const INSERT_DESIGN: Record<DesignForm, string> = {
  list: insertDesignSql('list_json', 'list_layout', 'list_updated_at'),
  user: insertDesignSql('user_form_json', 'user_form_layout', 'user_form_updated_at'),
};

/** The columns a design's row holds once written from these fields (what its stored forms leave to them). */
function columnsOf(design: DesignFields, author: string): FormColumns {
  return {
    id: design.id, slug: design.slug ?? null, name: design.name, excerpt: design.excerpt, license: design.license, state: design.state,
    user_id: design.user_id, author_screen_name: author, primary_image_id: design.primary_image_id, created_at: design.created_at,
    updated_at: design.updated_at,
  };
}

/** A design's tags as its search row holds them (designs.tags_text): only the list form has tags (spec §2.1). */
const tagsText = (raw: unknown, form: DesignForm): string => (form === 'list' ? listedTagNames((raw as { tags?: unknown }).tags).join(' ') : '');

/** A design not cached yet: one row with everything, and its search row from the same values. */
function insertDesign(db: WritableDB, { raw, rawText, design }: PendingWrite, form: DesignForm, now: number, flags: UpsertFlags, session: DesignWriteSession): void {
  const author = authorOf(design, flags, undefined);
  const tags = tagsText(raw, form);
  const stored = storeForm(raw, columnsOf(design, author), rawText);
  prepared(db, INSERT_DESIGN[form]).run(
    design.id, design.slug ?? null, design.name, design.excerpt, design.license, design.state,
    design.user_id, author, design.primary_image_id, design.created_at, design.updated_at, timestampMs(design.created_at),
    timestampMs(design.updated_at), stored.text, stored.layout, design.updated_at, flags.inListing ? 1 : 0, flags.own ? 1 : 0, now,
    popularityOf(raw) ?? 0, tags,
  );
  // Deferred, the search row (and the description's text in it) is made from the stored form (search-backlog.ts).
  if (session.options.deferSearchRows) return;
  const descriptionText = htmlToPlainText(design.description);
  const basedOn = basedOnText(raw);
  prepared(db, 'INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author) VALUES (?, ?, ?, ?, ?, ?)')
    .run(design.id, design.name, design.excerpt, basedOn ? `${descriptionText} ${basedOn}` : descriptionText, tags, author);
}

/** A cached design whose data changed: the columns unless the cache holds newer data from the other form. */
function updateDesign(
  db: WritableDB, { raw, rawText, design, existing }: PendingWrite, form: DesignForm, now: number, flags: UpsertFlags,
): void {
  const updatedMs = timestampMs(design.updated_at);
  const takeColumns = !existing || existing.updated_ms === null || updatedMs === null || updatedMs >= existing.updated_ms;
  const row = prepared(db, `SELECT ${FORM_COLUMNS}, list_json, list_layout, user_form_json, user_form_layout FROM designs WHERE id = ?`).get(design.id) as FormsRow;
  let columns: FormColumns = row;
  if (takeColumns) {
    columns = columnsOf(design, authorOf(design, flags, existing));
    writeColumns(db, design, columns.author_screen_name, popularityOf(raw), now);
    // The other form, stored compact, gives back its columned fields from the columns: it is stored again beside the new ones.
    if (form === 'list') restoreForm(db, design.id, 'user', row.user_form_json, row.user_form_layout, row, columns);
    else restoreForm(db, design.id, 'list', row.list_json, row.list_layout, row, columns);
  }
  const stored = storeForm(raw, columns, rawText);
  if (form === 'list') {
    prepared(db, 'UPDATE designs SET list_json = ?, list_layout = ?, list_updated_at = ?, tags_text = ?, fetched_at = ? WHERE id = ?')
      .run(stored.text, stored.layout, design.updated_at, tagsText(raw, form), now, design.id);
  } else {
    prepared(db, 'UPDATE designs SET user_form_json = ?, user_form_layout = ?, user_form_updated_at = ?, fetched_at = ? WHERE id = ?')
      .run(stored.text, stored.layout, design.updated_at, now, design.id);
  }
  setDesignFlags(db, design.id, flags);
  rewriteSearchRow(db, design.id);
}

/** A design's columns its stored forms may leave fields to (compact-form.ts FormColumns). */
export const FORM_COLUMNS = 'id, slug, name, excerpt, license, state, user_id, author_screen_name, primary_image_id, created_at, updated_at';

type FormsRow = FormColumns & { list_json: string | null; list_layout: number | null; user_form_json: string | null; user_form_layout: number | null };

const FORM_COLUMN_NAMES: Record<DesignForm, { json: string; layout: string }> = {
  list: { json: 'list_json', layout: 'list_layout' },
  user: { json: 'user_form_json', layout: 'user_form_layout' },
};

/**
 * Stores a design's form again beside columns that change (`after`), read whole beside those it was stored with
 * (`before`), when it was stored compact. One that cannot be read is left as it is (and said).
 */
export function restoreForm(
  db: WritableDB, id: number, form: DesignForm, text: string | null, layout: number | null, before: FormColumns, after: FormColumns,
): void {
  if (text === null || layout === null) return;
  let whole: Record<string, unknown>;
  try {
    whole = readStoredForm(text, layout, before);
  } catch (error) {
    engineLog.warn('cache', `design ${id}'s stored ${form} form cannot be read; left as it is`, error);
    return;
  }
  const stored = storeForm(whole, after);
  const { json, layout: layoutColumn } = FORM_COLUMN_NAMES[form];
  prepared(db, `UPDATE designs SET ${json} = ?, ${layoutColumn} = ? WHERE id = ?`).run(stored.text, stored.layout, id);
}

function writeColumns(db: WritableDB, design: DesignFields, author: string, popularity: number | null, now: number): void {
  prepared(db,
    `UPDATE designs SET slug = @slug, name = @name, excerpt = @excerpt, license = @license, state = @state, user_id = @userId,
       author_screen_name = @author, primary_image_id = @primaryImageId, created_at = @createdAt, updated_at = @updatedAt,
       created_ms = @createdMs, updated_ms = @updatedMs, popularity = coalesce(@popularity, popularity), fetched_at = @now
     WHERE id = @id`,
  ).run({
    id: design.id,
    slug: design.slug ?? null,
    name: design.name,
    excerpt: design.excerpt,
    license: design.license,
    state: design.state,
    userId: design.user_id,
    author,
    primaryImageId: design.primary_image_id,
    createdAt: design.created_at,
    updatedAt: design.updated_at,
    createdMs: timestampMs(design.created_at),
    updatedMs: timestampMs(design.updated_at),
    popularity,
    now,
  });
}

function setDesignFlags(db: WritableDB, id: number, flags: UpsertFlags): void {
  if (flags.inListing !== undefined) prepared(db, 'UPDATE designs SET in_listing = ? WHERE id = ? AND in_listing != ?').run(flags.inListing ? 1 : 0, id, flags.inListing ? 1 : 0);
  if (flags.own !== undefined) prepared(db, 'UPDATE designs SET is_own = ? WHERE id = ? AND is_own != ?').run(flags.own ? 1 : 0, id, flags.own ? 1 : 0);
}

/** A design's author as the listing names it; written only when new or renamed (and once per session). */
function upsertUserSummary(db: WritableDB, id: number, screenName: string, now: number, session: DesignWriteSession): void {
  if (session.users.get(id) === screenName) return;
  prepared(db,
    `INSERT INTO users (id, screen_name, fetched_at) VALUES (?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET screen_name = excluded.screen_name, fetched_at = excluded.fetched_at
     WHERE users.screen_name != excluded.screen_name`,
  ).run(id, screenName, now);
  session.users.set(id, screenName);
}

/**
 * Stores a user as the service sent it: `own` for whoami's own form, `public` for the public form. Its id, and whether
 * its row changed; null when the user cannot be read.
 */
export function upsertUser(db: WritableDB, raw: unknown, form: 'public' | 'own', now: number): { id: number; changed: boolean } | null {
  const parsed = tolerantUser.safeParse(raw);
  if (!parsed.success) return null;
  const column = form === 'own' ? 'own_json' : 'public_json';
  const { changes } = prepared(db,
    `INSERT INTO users (id, screen_name, ${column}, fetched_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET screen_name = excluded.screen_name, ${column} = excluded.${column}, fetched_at = excluded.fetched_at
     WHERE users.${column} IS NOT excluded.${column} OR users.screen_name != excluded.screen_name`,
  ).run(parsed.data.id, parsed.data.screen_name, JSON.stringify(raw), now);
  return { id: parsed.data.id, changed: changes > 0 };
}

/**
 * Fills the author of a user's cached designs that have none (the user-designs form has no user object; a list may
 * lack it). Returns the designs written.
 */
export function fillAuthor(db: WritableDB, userId: number, screenName: string): number[] {
  return db.transaction(() => {
    const ids = prepared(db, `SELECT id FROM designs WHERE user_id = ? AND author_screen_name = ''`).all(userId) as { id: number }[];
    for (const { id } of ids) {
      prepared(db, 'UPDATE designs SET author_screen_name = ? WHERE id = ?').run(screenName, id);
      rewriteSearchRow(db, id);
    }
    noteSearchTerms(db, ids.map((row) => row.id));
    return ids.map((row) => row.id);
  })();
}

export function deleteDesigns(db: WritableDB, ids: readonly number[]): number {
  const remove = prepared(db, 'DELETE FROM designs WHERE id = ?');
  // Its lists' validators go with its images and documents: were it cached again, a 304 must not stand for rows gone.
  const forget = prepared(db, 'DELETE FROM http_validators WHERE url IN (?, ?)');
  let removed = 0;
  db.transaction(() => {
    for (const id of ids) {
      removed += remove.run(id).changes;
      forget.run(`/v1/designs/${id}/images`, `/v1/designs/${id}/documents`);
    }
  })();
  return removed;
}
