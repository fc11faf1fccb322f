import type { ReadableDB, WritableDB } from './cache-database';
import { prepared } from './prepared';

/**
 * The secondary indexes whose keys come in no useful order during a pull (names, slugs, dates, licenses, authors,
 * popularity, tags). Inserting a million rows into each of them, one at a time, rewrites most of their pages at
 * every commit; made again from the finished table, each is one sort. The indexes a walk or the window's default
 * view needs while the cache fills stay: the ids (newest first), own designs, covers.
 */
export const INDEXES_SET_ASIDE_FOR_BULK_FILL = [
  'designs_by_slug', 'designs_by_updated', 'designs_by_created', 'designs_by_name', 'designs_by_license',
  'designs_by_user', 'designs_by_popularity', 'designs_by_license_popularity', 'designs_by_license_name',
  'design_tags_by_tag',
] as const;

/**
 * A listing this large, into a cache that holds less than a quarter of it, is written without those indexes. At
 * 100,000 designs, inserting into them cost about 5.5 s and making them again 1.4 s; below some 20,000 the difference
 * is too small to be worth a library sorted by name being read without its index while the cache fills.
 */
export const BULK_FILL_FROM = 20_000;

export function isBulkFill(db: ReadableDB, listingTotal: number | null, from = BULK_FILL_FROM): boolean {
  if (listingTotal === null || listingTotal < from) return false;
  const { cached } = prepared(db, 'SELECT count(*) AS cached FROM designs').get() as { cached: number };
  return cached * 4 < listingTotal;
}

/** Drops those indexes, keeping each one's CREATE statement in indexes_set_aside, in one transaction. */
export function setIndexesAside(db: WritableDB): number {
  return db.transaction(() => {
    let setAside = 0;
    for (const name of INDEXES_SET_ASIDE_FOR_BULK_FILL) {
      const index = prepared(db, `SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?`).get(name) as { sql: string } | undefined;
      if (!index) continue;
      prepared(db, 'INSERT OR REPLACE INTO indexes_set_aside (name, sql) VALUES (?, ?)').run(name, index.sql);
      db.exec(`DROP INDEX ${name}`);
      setAside++;
    }
    return setAside;
  })();
}

export function hasIndexesSetAside(db: ReadableDB): boolean {
  return prepared(db, 'SELECT 1 FROM indexes_set_aside LIMIT 1').get() !== undefined;
}

/** Makes every index set aside again, each in a transaction of its own (with its row of indexes_set_aside). */
export function restoreIndexesSetAside(db: WritableDB): number {
  const setAside = prepared(db, 'SELECT name, sql FROM indexes_set_aside ORDER BY name').all() as { name: string; sql: string }[];
  for (const { name, sql } of setAside) {
    db.transaction(() => {
      db.exec(sql.replace(/^CREATE INDEX /i, 'CREATE INDEX IF NOT EXISTS '));
      prepared(db, 'DELETE FROM indexes_set_aside WHERE name = ?').run(name);
    })();
  }
  return setAside.length;
}
