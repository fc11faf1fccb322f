import type { LicenseCode } from '../../../shared';
import type { ReadableDB } from './cache-database';
import { prepared } from './prepared';
import { searchMatch } from './search-terms';

/** What the library's counts filter by: the words typed (each a prefix) and licenses. */
export interface CountFilter {
  query?: string;
  license?: readonly LicenseCode[];
}

/** A count that may have stopped early: `lowerBound` says there are more than `n` matches. */
export interface BoundedCount {
  n: number;
  lowerBound: boolean;
}

interface CountParams {
  /** The FTS5 expression of the words (none typed: undefined). */
  match?: string;
  /** The licenses as JSON (none chosen: undefined). */
  licenses?: string;
}

/** The filter's parameters; null when the words typed match nothing (no searchable word). */
function paramsOf(db: ReadableDB, filter: CountFilter): CountParams | null {
  const params: CountParams = {};
  if (filter.query !== undefined && filter.query.trim() !== '') {
    const match = searchMatch(db, filter.query);
    if (match === null) return null;
    params.match = match;
  }
  if (filter.license && filter.license.length > 0) params.licenses = JSON.stringify(filter.license);
  return params;
}

const LICENSED = 'd.license IN (SELECT value FROM json_each(@licenses))';
/** Each match's license, from the narrow index of ids and licenses (SQLite would read the wide row: migration 0012). */
const LICENSE_OF_MATCH = 'CROSS JOIN designs d INDEXED BY designs_by_id_license ON d.id = m.rowid';
/** The newest matches of the words, at most @scan of them (FTS5 gives them in descending rowid order and stops). */
const NEWEST_MATCHES = 'SELECT rowid FROM designs_fts WHERE designs_fts MATCH @match ORDER BY rowid DESC LIMIT @scan';

/**
 * Words and licenses: each of the words' newest matches is looked up for its license, at most this many (2,000
 * lookups take a few ms at a million designs, 10,000 took 30–60 ms).
 */
export const LICENSED_SCAN = 2_000;

const countOf = (db: ReadableDB, sql: string, params: object): number => (prepared(db, sql).get(params) as { n: number }).n;

/**
 * How many cached designs match, counting at most `bound` + 1 of them: a short prefix matches half of a million
 * designs, and counting every match took 124 ms (229 ms with a license filter) where the page itself takes a few.
 * Without words the count is exact (the license indexes count a million designs in milliseconds). Words alone: the
 * search index's matches are counted as it finds them, up to bound + 1. Words and licenses: the licensed designs
 * among the words' newest matches (at most LICENSED_SCAN + 1 of them, each looked up), a lower bound when the words
 * have more matches than that.
 */
export function boundedDesignCount(db: ReadableDB, filter: CountFilter, bound: number): BoundedCount {
  const params = paramsOf(db, filter);
  if (!params) return { n: 0, lowerBound: false };
  const scan = Math.max(1, Math.floor(bound)) + 1;
  if (params.match === undefined) return { n: exactWithoutWords(db, params), lowerBound: false };
  if (params.licenses === undefined) {
    const n = countOf(db, `SELECT count(*) AS n FROM (SELECT 1 FROM designs_fts WHERE designs_fts MATCH @match LIMIT @scan)`, { match: params.match, scan });
    return n >= scan ? { n: scan - 1, lowerBound: true } : { n, lowerBound: false };
  }
  const licensedScan = Math.min(scan, LICENSED_SCAN + 1);
  const { scanned, n } = prepared(db, `SELECT count(*) AS scanned, coalesce(sum(${LICENSED}), 0) AS n FROM (${NEWEST_MATCHES}) m ${LICENSE_OF_MATCH}`)
    .get({ ...params, scan: licensedScan }) as { scanned: number; n: number };
  return { n, lowerBound: scanned >= licensedScan };
}

function exactWithoutWords(db: ReadableDB, params: CountParams): number {
  if (params.licenses === undefined) return countOf(db, 'SELECT count(*) AS n FROM designs', {});
  return countOf(db, `SELECT count(*) AS n FROM designs d WHERE ${LICENSED}`, { licenses: params.licenses });
}

/**
 * Per license code (null: a design without one), the designs matching the words, among at most their newest
 * `bound` + 1 matches: `lowerBound` when the words have more (each count is then "at least").
 */
export function boundedCountsByLicense(db: ReadableDB, query: string, bound: number): { rows: { license: string | null; n: number }[]; lowerBound: boolean } {
  const params = paramsOf(db, { query });
  if (!params) return { rows: [], lowerBound: false };
  if (params.match === undefined) return { rows: prepared(db, 'SELECT license, count(*) AS n FROM designs GROUP BY license').all() as { license: string | null; n: number }[], lowerBound: false };
  const scan = Math.max(1, Math.floor(bound)) + 1;
  const rows = prepared(db, `SELECT d.license AS license, count(*) AS n FROM (${NEWEST_MATCHES}) m ${LICENSE_OF_MATCH} GROUP BY d.license`)
    .all({ match: params.match, scan }) as { license: string | null; n: number }[];
  return { rows, lowerBound: rows.reduce((sum, row) => sum + row.n, 0) >= scan };
}
