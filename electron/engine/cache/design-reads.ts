import { isLicenseCode, LICENSES, type License, type LicenseCode } from '../../../shared';
import type { ReadableDB } from './cache-database';
import { readStoredForm, type FormColumns } from './compact-form';
import { peekCachedFile } from './file-cache';
import { countWords, foldForSearch, ftsWholeWordQuery, searchWords, wordMatch } from './fts-query';
import { prepared } from './prepared';
import { asksForWholeWordsOnly, searchMatch } from './search-terms';
import { listedTagNames } from './tag-names';
import { engineLog } from '../log/engine-log';

/** What a grid or a result list shows of a design; read from the cache only. */
export interface DesignSummary {
  id: number;
  slug: string | null;
  name: string;
  excerpt: string;
  license: string | null;
  state: string | null;
  userId: number | null;
  author: string;
  primaryImageId: number | null;
  /** The image its card shows: the cover, another of its images when the cover is gone, or null. */
  coverImageId: number | null;
  createdAt: string | null;
  updatedAt: string | null;
  own: boolean;
  /** When the service last vouched for this copy (epoch ms): its data arrived, or a complete listing saw it unchanged. */
  checkedAt: number;
  /** The person keeps it offline: all its images and documents downloaded and never evicted (keep-offline/). */
  keptOffline: boolean;
}

export interface CachedImage {
  id: number;
  raw: Record<string, unknown>;
  /** Local files of renditions the cache holds (e.g. grid, large), by rendition name. */
  localFiles: Record<string, string>;
}

export interface CachedDesign {
  summary: DesignSummary;
  /** Every field the service sent, in every form seen: the newer form's values win where both have a field. */
  design: Record<string, unknown>;
  /** The list/read form and the user-designs form exactly as last received (null if never seen). */
  forms: { list: Record<string, unknown> | null; user: Record<string, unknown> | null };
  images: CachedImage[];
  documents: Record<string, unknown>[];
  author: { id: number | null; screenName: string; public: Record<string, unknown> | null; own: Record<string, unknown> | null };
  tags: string[];
  license: License | null;
  /** When this copy's data was written (epoch ms). */
  fetchedAt: number;
  /** When the service last vouched for it (a later complete listing that saw it unchanged counts). */
  checkedAt: number;
  /** now − checkedAt. */
  ageMs: number;
}

export type DesignSort = 'updated' | 'created' | 'name' | 'newest' | 'popular';

export interface ListOptions {
  /** Only designs matching these words (offline full-text search, each word a prefix). */
  query?: string;
  sort?: DesignSort;
  offset?: number;
  limit?: number;
  license?: LicenseCode | readonly LicenseCode[];
  ownOnly?: boolean;
  /** With ownOnly: the signed-in user, whose designs are theirs whether or not an own pull marked them yet. */
  ownerId?: number | null;
  /** Only the designs kept offline (keep-offline/: a few, so read from their table by id). */
  keptOnly?: boolean;
}

export interface SyncStateRow {
  lastFullPullAt: number | null;
  lastListingCount: number | null;
  lastOwnPullAt: number | null;
  ownUserId: number | null;
}

export function readSyncState(db: ReadableDB): SyncStateRow {
  return prepared(db, 
    `SELECT last_full_pull_at AS lastFullPullAt, last_listing_count AS lastListingCount, last_own_pull_at AS lastOwnPullAt, own_user_id AS ownUserId
     FROM sync_state WHERE id = 1`,
  ).get() as SyncStateRow;
}

/**
 * The image a card shows. The live service sends `primary_image` with every cover that still exists (recorded
 * answers, which carry `attribution`); one without it while `primary_image_id` is set names a gone image: then the
 * design's first listed image, else none (the placeholder). A service that sends neither field keeps the id. A design
 * with no cover chosen (a draft whose images came from its folder, or a row older than its images) shows its first
 * listed image rather than an empty frame.
 */
const FIRST_IMAGE_ID = '(SELECT i.id FROM images i WHERE i.design_id = d.id ORDER BY i.position LIMIT 1)';
const COVER_IMAGE_ID = `CASE
    WHEN d.primary_image_id IS NULL THEN ${FIRST_IMAGE_ID}
    WHEN EXISTS (SELECT 1 FROM images i WHERE i.id = d.primary_image_id) THEN d.primary_image_id
    WHEN d.list_json IS NULL OR json_type(d.list_json, '$.primary_image') = 'object' OR json_type(d.list_json, '$.attribution') IS NULL THEN d.primary_image_id
    ELSE ${FIRST_IMAGE_ID}
  END`;

const SUMMARY_COLUMNS = `d.id, d.slug, d.name, d.excerpt, d.license, d.state, d.user_id AS userId, d.author_screen_name AS author,
  d.primary_image_id AS primaryImageId, ${COVER_IMAGE_ID} AS coverImageId, d.created_at AS createdAt, d.updated_at AS updatedAt, d.is_own AS own,
  max(d.fetched_at,
      CASE WHEN d.in_listing = 1 THEN coalesce(s.last_full_pull_at, 0) ELSE 0 END,
      CASE WHEN d.is_own = 1 THEN coalesce(s.last_own_pull_at, 0) ELSE 0 END) AS checkedAt,
  EXISTS (SELECT 1 FROM kept_designs k WHERE k.design_id = d.id) AS keptOffline`;

type SummaryRow = Omit<DesignSummary, 'own' | 'keptOffline'> & { own: number; keptOffline: number };
const toSummary = (row: SummaryRow): DesignSummary => ({ ...row, own: row.own === 1, keptOffline: row.keptOffline === 1 });

/** SUMMARY_COLUMNS read as an array: the objects better-sqlite3 makes of rows cost more than reading them (a page of search results, of the library). */
type SummaryValues = [
  id: number, slug: string | null, name: string, excerpt: string, license: string | null, state: string | null, userId: number | null,
  author: string, primaryImageId: number | null, coverImageId: number | null, createdAt: string | null, updatedAt: string | null,
  own: number, checkedAt: number, keptOffline: number,
];
const summaryOf = (row: SummaryValues): DesignSummary => ({
  id: row[0], slug: row[1], name: row[2], excerpt: row[3], license: row[4], state: row[5], userId: row[6], author: row[7],
  primaryImageId: row[8], coverImageId: row[9], createdAt: row[10], updatedAt: row[11], own: row[12] === 1, checkedAt: row[13], keptOffline: row[14] === 1,
});

const ORDER: Record<DesignSort, string> = {
  updated: 'd.updated_ms DESC, d.id DESC',
  created: 'd.created_ms DESC, d.id DESC',
  name: 'd.name COLLATE NOCASE ASC, d.id ASC',
  newest: 'd.id DESC',
  popular: 'd.popularity DESC, d.id DESC',
};

function clampLimit(limit: number | undefined, fallback = 50): number {
  return Math.max(1, Math.min(500, Math.floor(limit ?? fallback)));
}

interface Filter {
  /** AND-ed conditions on designs d (the words included, unless `byDesigns` left them out). */
  where: string;
  params: Record<string, unknown>;
  /** The FTS5 expression of the words, when words were typed. */
  match?: string;
  /** Whether anything but the words filters. */
  byDesigns: boolean;
  /** Whether a license is all that filters besides the words. */
  byLicenseOnly: boolean;
}

/**
 * The WHERE clause and parameters of a library filter (words, licenses, ownership); null when the words match nothing.
 * `matchesBy`: 'lookup' reads each match's row by its id (best for a page of a few rows); 'scan' checks designs, in
 * index order, against the set of matches (best for counting many: a prefix such as "c" matches half the catalogue,
 * and 54k lookups of wide rows took 280 ms at 100k designs where the scan takes 18 ms); 'none' leaves the words to
 * the caller, who reads the search index itself.
 */
function filterOf(db: ReadableDB, options: Pick<ListOptions, 'query' | 'license' | 'ownOnly' | 'ownerId' | 'keptOnly'>, matchesBy: 'lookup' | 'scan' | 'none' = 'lookup'): Filter | null {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  let match: string | undefined;
  if (options.query !== undefined && options.query.trim() !== '') {
    match = searchMatch(db, options.query) ?? undefined;
    if (match === undefined) return null;
    params.match = match;
    // The unary + keeps SQLite from using the primary key for the IN: it scans and checks membership instead.
    if (matchesBy !== 'none') where.push(`${matchesBy === 'scan' ? '+' : ''}d.id IN (SELECT rowid FROM designs_fts WHERE designs_fts MATCH @match)`);
  }
  const words = where.length;
  let byLicense = false;
  if (options.license !== undefined) {
    const codes = (Array.isArray(options.license) ? options.license : [options.license]) as string[];
    if (codes.length > 0) {
      where.push(`d.license IN (SELECT value FROM json_each(@licenses))`);
      params.licenses = JSON.stringify(codes);
      byLicense = true;
    }
  }
  if (options.ownOnly && typeof options.ownerId === 'number') {
    where.push('d.user_id = @ownerId');
    params.ownerId = options.ownerId;
  } else if (options.ownOnly) {
    where.push('d.is_own = 1');
  }
  if (options.keptOnly) where.push('d.id IN (SELECT design_id FROM kept_designs)');
  const byDesigns = where.length > words;
  return { where: where.map((w) => `AND ${w}`).join(' '), params, match, byDesigns, byLicenseOnly: byLicense && where.length === words + 1 };
}

/** A page of cached designs: matching the words, filtered by license and ownership, sorted. Never touches the network. */
export function listCachedDesigns(db: ReadableDB, options: ListOptions = {}): DesignSummary[] {
  const sort = options.sort ?? 'updated';
  const filter = filterOf(db, options, sort === 'newest' ? 'none' : 'lookup');
  if (!filter) return [];
  const params = { ...filter.params, limit: clampLimit(options.limit), offset: Math.max(0, Math.floor(options.offset ?? 0)) };
  const order = ORDER[sort];
  // The page's ids first, then their rows: sorting carries only the ids and sort keys, not every summary column.
  // CROSS JOIN keeps the page as the outer loop (SQLite does not reorder it).
  const rows = prepared(db,
    `SELECT ${SUMMARY_COLUMNS} FROM (${filter.match !== undefined && sort === 'newest' ? newestMatchesSql(filter) : `SELECT d.id FROM designs d WHERE 1 ${filter.where} ORDER BY ${order}`}
       LIMIT @limit OFFSET @offset) page
     CROSS JOIN designs d ON d.id = page.id CROSS JOIN sync_state s WHERE s.id = 1 ORDER BY ${order}`,
  ).raw(true).all(params) as SummaryValues[];
  return rows.map(summaryOf);
}

/**
 * Words, newest first: the search index gives its matches in descending rowid (= design id) order by itself, so
 * the page is read as it is found and reading stops with it, where the set of every match (half a million for
 * "c" at a million designs) was gathered first. Other filters are checked on each match's design row.
 */
function newestMatchesSql(filter: Filter): string {
  // A license alone is read from the narrow index of ids and licenses (migration 0012), not from each match's wide row.
  const designs = filter.byLicenseOnly ? 'designs d INDEXED BY designs_by_id_license' : 'designs d';
  return filter.byDesigns
    ? `SELECT f.rowid AS id FROM designs_fts f CROSS JOIN ${designs} ON d.id = f.rowid WHERE f.designs_fts MATCH @match ${filter.where} ORDER BY f.rowid DESC`
    : 'SELECT rowid AS id FROM designs_fts WHERE designs_fts MATCH @match ORDER BY rowid DESC';
}

/** How many cached designs match (the same filter as listCachedDesigns): what a virtualized grid scrolls over. */
export function countCachedDesigns(db: ReadableDB, options: Pick<ListOptions, 'query' | 'license' | 'ownOnly' | 'ownerId' | 'keptOnly'> = {}): number {
  const filter = filterOf(db, options, 'scan');
  if (!filter) return 0;
  // Words alone: the search index counts its own rows (each is a cached design's), without reading a design.
  if (filter.match !== undefined && !filter.byDesigns) {
    return (prepared(db, 'SELECT count(*) AS n FROM designs_fts WHERE designs_fts MATCH @match').get({ match: filter.match }) as { n: number }).n;
  }
  return (prepared(db, `SELECT count(*) AS n FROM designs d WHERE 1 ${filter.where}`).get(filter.params) as { n: number }).n;
}

/** How many cached designs match the words, per license code (null: a design without one). */
export function countByLicense(db: ReadableDB, query = ''): { license: string | null; n: number }[] {
  const filter = filterOf(db, { query });
  if (!filter) return [];
  return prepared(db, `SELECT d.license AS license, count(*) AS n FROM designs d WHERE 1 ${filter.where} GROUP BY d.license`).all(filter.params) as { license: string | null; n: number }[];
}

/** An own design as the sync folder needs it (assignable to the sync engine's OwnDesignRef). */
export interface OwnDesignRow {
  id: number;
  slug: string | null;
  name: string;
  created_at: string | null;
}

/** The signed-in user's own designs as the last pull left them in the cache, drafts included, by id. Never touches the network. */
export function ownDesignRefs(db: ReadableDB): OwnDesignRow[] {
  return prepared(db, 'SELECT id, slug, name, created_at FROM designs WHERE is_own = 1 ORDER BY id').all() as OwnDesignRow[];
}

export interface SearchPage {
  items: DesignSummary[];
  /** Whether another page follows. */
  hasMore: boolean;
  /** The FTS5 expression the input became (null when nothing searchable was typed). */
  query: string | null;
}

/**
 * How many matches, newest first, are ranked. FTS5 reads matches in rowid order and stops at the window, so
 * a query answers in a few ms whatever the size of the cache; a query with fewer matches (any selective one)
 * is ranked whole, a broader one shows the best of its newest matches. Paging past the window widens it.
 */
export const RANK_WINDOW = 200;

/**
 * A design a search may show: its id, then the columns ranked, in the order of COLUMN_WEIGHTS (read as arrays: the
 * objects better-sqlite3 makes took a third of the read).
 */
type Candidate = [id: number, name: string, tags: string, excerpt: string, author: string];

/** How much a word found in each of a candidate's columns counts (name, tags, excerpt, author); in none of them, it is in the description (1). */
const COLUMN_WEIGHTS = [10, 6, 4, 3] as const;

/**
 * Ranks candidates by the best column each word was found in (name 10, tags 6, excerpt 4, author 3,
 * description 1), a whole-word match counting a little more than a prefix, a shorter name a little more
 * than a longer one; newer designs first on ties.
 * Not bm25: bm25's term statistics make FTS5 read every match of every term of the query (11 ms at 100k
 * designs for a word they all have), where this costs the same for any query.
 */
function rank(candidates: readonly Candidate[], words: string[]): number[] {
  const folded = words.map(foldForSearch);
  const scored: { id: number; score: number }[] = [];
  // A candidate's columns folded when first needed: most words are found in the name or the tags.
  const texts: (string | undefined)[] = [undefined, undefined, undefined, undefined];
  for (const candidate of candidates) {
    texts.fill(undefined, 0, COLUMN_WEIGHTS.length);
    let score = 0;
    for (const word of folded) {
      let best = 1;
      for (let i = 0; i < COLUMN_WEIGHTS.length; i++) {
        const match = wordMatch((texts[i] ??= foldForSearch(candidate[i + 1] as string)), word);
        if (match === 0) continue;
        best = COLUMN_WEIGHTS[i]! + (match === 2 ? 0.5 : 0);
        break;
      }
      score += best;
    }
    // As bm25's length normalisation does: of two equal matches, the shorter name is the closer one.
    score += 0.1 / (1 + countWords((texts[0] ??= foldForSearch(candidate[1]))));
    scored.push({ id: candidate[0], score });
  }
  return scored.sort((a, b) => b.score - a.score || b.id - a.id).map((ranked) => ranked.id);
}

/**
 * The columns ranked, read from the designs' rows (the search index keeps no copy of its text: migration 0020), in the
 * order of Candidate: id, name, tags, excerpt, author.
 */
const CANDIDATE_COLUMNS = 'd.id, d.name, d.tags_text, d.excerpt, d.author_screen_name';
const CANDIDATES_SQL = `SELECT ${CANDIDATE_COLUMNS} FROM designs d
  WHERE d.id IN (SELECT rowid FROM designs_fts WHERE designs_fts MATCH ? ORDER BY rowid DESC LIMIT ?)`;
const MATCHING_IDS_SQL = 'SELECT rowid FROM designs_fts WHERE designs_fts MATCH ? ORDER BY rowid DESC LIMIT ?';
const CANDIDATES_BY_ID_SQL = `SELECT ${CANDIDATE_COLUMNS} FROM designs d WHERE d.id IN (SELECT value FROM json_each(?))`;

/**
 * The newest `window` matches to rank. Whole-word matches come first, with their columns: when they fill the
 * window, or when the query asks for nothing else (no word stands for longer ones), the prefix query is not needed.
 * Otherwise the prefix query (whose matches hold the whole-word ones: a word is a prefix of itself) is asked for ids
 * only, and only the columns of designs not read yet are read (reading columns costs more than finding the matches).
 */
function searchCandidates(db: ReadableDB, input: string, prefixQuery: string, window: number): Candidate[] {
  const candidates = readCandidates(db, CANDIDATES_SQL, ftsWholeWordQuery(input), window);
  if (candidates.length >= window || asksForWholeWordsOnly(prefixQuery, input)) return candidates;
  // A half-typed word has no whole-word match: nothing was read, so the prefix query reads the columns itself.
  if (candidates.length === 0) return readCandidates(db, CANDIDATES_SQL, prefixQuery, window);
  const read = new Set(candidates.map((candidate) => candidate[0]));
  const more = (prepared(db, MATCHING_IDS_SQL).pluck(true).all(prefixQuery, window) as number[]).filter((id) => !read.has(id));
  return more.length > 0 ? candidates.concat(readCandidates(db, CANDIDATES_BY_ID_SQL, JSON.stringify(more))) : candidates;
}

function readCandidates(db: ReadableDB, sql: string, ...params: unknown[]): Candidate[] {
  return prepared(db, sql).raw(true).all(...params) as Candidate[];
}

/**
 * Offline search: FTS5 MATCH with a prefix query per word typed (the full-text index finds the matches, see
 * searchCandidates), ranked by the column each word was found in (see rank). Never touches the network.
 */
export function searchCachedDesigns(db: ReadableDB, input: string, options: { offset?: number; limit?: number } = {}): SearchPage {
  const query = searchMatch(db, input);
  if (query === null) return { items: [], hasMore: false, query };
  const limit = clampLimit(options.limit, 20);
  const offset = Math.max(0, Math.floor(options.offset ?? 0));
  const window = Math.max(RANK_WINDOW, offset + limit + 1);
  const ids = rank(searchCandidates(db, input, query, window), searchWords(input)).slice(offset, offset + limit + 1);
  const items = summariesByIds(db, ids);
  return { items: items.slice(0, limit), hasMore: ids.length > limit, query };
}

/** Summaries of these designs, in the order given (those not cached are left out). */
export function summariesByIds(db: ReadableDB, ids: readonly number[]): DesignSummary[] {
  if (ids.length === 0) return [];
  const rows = prepared(db, 
    `SELECT ${SUMMARY_COLUMNS} FROM designs d, sync_state s WHERE s.id = 1 AND d.id IN (SELECT value FROM json_each(?))`,
  ).raw(true).all(JSON.stringify(ids)) as SummaryValues[];
  const byId = new Map(rows.map((row) => [row[0], summaryOf(row)]));
  return ids.map((id) => byId.get(id)).filter((s): s is DesignSummary => s !== undefined);
}

function parseObject(json: string | null): Record<string, unknown> | null {
  if (json === null) return null;
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch (error) {
    engineLog.warn('cache', 'a cached design form is not readable JSON (read as missing)', error);
    return null;
  }
}

/** A design's stored form given back whole (compact-form.ts), or null (none stored, or one that cannot be read, said). */
function readForm(text: string | null, layout: number | null, columns: FormColumns): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    return readStoredForm(text, layout, columns);
  } catch (error) {
    engineLog.warn('cache', 'a cached design form cannot be read (read as missing)', error);
    return null;
  }
}

/** The renditions whose local files a read reports (those the pull downloads). */
export const CACHED_RENDITIONS = ['grid', 'large'] as const;

export function renditionUrl(image: Record<string, unknown>, rendition: string): string | null {
  const file = image.file as Record<string, unknown> | undefined;
  const entry = file?.[rendition] as { url?: unknown } | undefined;
  return typeof entry?.url === 'string' ? entry.url : null;
}

/**
 * One cached design by id or slug, with its images (and local rendition files when `fileRoot` is given),
 * documents, author, tags and license. Null when not cached. Never touches the network.
 */
export function getCachedDesign(db: ReadableDB, idOrSlug: number | string, options: { now?: number; fileRoot?: string } = {}): CachedDesign | null {
  const key = String(idOrSlug).trim();
  const row = (/^\d+$/.test(key)
    ? prepared(db, `SELECT d.*, ${SUMMARY_COLUMNS} FROM designs d, sync_state s WHERE s.id = 1 AND d.id = ?`).get(Number(key))
    : prepared(db, `SELECT d.*, ${SUMMARY_COLUMNS} FROM designs d, sync_state s WHERE s.id = 1 AND d.slug = ? ORDER BY d.fetched_at DESC LIMIT 1`).get(key)) as
    (SummaryRow & FormColumns & {
      list_json: string | null; list_layout: number | null; user_form_json: string | null; user_form_layout: number | null;
      list_updated_at: string | null; user_form_updated_at: string | null; fetched_at: number;
    }) | undefined;
  if (!row) return null;
  const list = readForm(row.list_json, row.list_layout, row);
  const user = readForm(row.user_form_json, row.user_form_layout, row);
  const listNewer = (Date.parse(row.list_updated_at ?? '') || 0) >= (Date.parse(row.user_form_updated_at ?? '') || 0);
  const design = listNewer ? { ...user, ...list } : { ...list, ...user };

  const images = (prepared(db, 'SELECT id, raw_json FROM images WHERE design_id = ? ORDER BY position').all(row.id) as { id: number; raw_json: string }[])
    .map((image) => {
      const raw = parseObject(image.raw_json) ?? {};
      const localFiles: Record<string, string> = {};
      if (options.fileRoot) {
        for (const rendition of CACHED_RENDITIONS) {
          const url = renditionUrl(raw, rendition);
          const found = url ? peekCachedFile(db, options.fileRoot, url) : null;
          if (found) localFiles[rendition] = found.path;
        }
      }
      return { id: image.id, raw, localFiles };
    });
  const documents = (prepared(db, 'SELECT raw_json FROM documents WHERE design_id = ? ORDER BY position').all(row.id) as { raw_json: string }[])
    .map((document) => parseObject(document.raw_json) ?? {});
  // Only the list form has tags (spec §2.1).
  const tags = listedTagNames(list?.tags);
  const userRow = row.userId === null ? undefined : prepared(db, 'SELECT screen_name, public_json, own_json FROM users WHERE id = ?').get(row.userId) as
    { screen_name: string; public_json: string | null; own_json: string | null } | undefined;
  const summary = toSummary({
    id: row.id, slug: row.slug, name: row.name, excerpt: row.excerpt, license: row.license, state: row.state, userId: row.userId,
    author: row.author, primaryImageId: row.primaryImageId, coverImageId: row.coverImageId, createdAt: row.createdAt, updatedAt: row.updatedAt, own: row.own, checkedAt: row.checkedAt, keptOffline: row.keptOffline,
  });
  const now = options.now ?? Date.now();
  return {
    summary,
    design,
    forms: { list, user },
    images,
    documents,
    author: {
      id: row.userId,
      screenName: row.author || userRow?.screen_name || '',
      public: parseObject(userRow?.public_json ?? null),
      own: parseObject(userRow?.own_json ?? null),
    },
    tags,
    license: isLicenseCode(row.license) ? LICENSES[row.license] : null,
    fetchedAt: row.fetched_at,
    checkedAt: row.checkedAt,
    ageMs: Math.max(0, now - row.checkedAt),
  };
}

/** The image a grid shows for a design: its primary image, else its first. */
export function coverImage(design: Pick<CachedDesign, 'images' | 'summary'>): CachedImage | null {
  return design.images.find((image) => image.id === design.summary.primaryImageId) ?? design.images[0] ?? null;
}
