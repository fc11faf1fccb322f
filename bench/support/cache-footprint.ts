import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { MB, round } from './measure';

const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : 0);

export interface CacheFootprint {
  cacheDiskMb: number;
  cacheDbMb: number;
  cacheWalMb: number;
  /** The search index (designs_fts's tables). */
  searchIndexMb: number;
  /** The designs table itself (its rows), and the indexes over it. */
  designsTableMb: number;
  designsIndexesMb: number;
  /** A design's stored list form, on average, in bytes (compact-form.ts). */
  listFormBytes: number;
}

/** What a cache database takes on disk: its file, WAL and shared-memory index, and what of the file holds what. */
export function cacheFootprint(cacheDatabase: string): CacheFootprint {
  const db = new Database(cacheDatabase, { readonly: true });
  try {
    const bytesOf = (where: string) => (db.prepare(`SELECT coalesce(sum(pgsize), 0) AS bytes FROM dbstat WHERE ${where}`).get() as { bytes: number }).bytes;
    const searchIndex = bytesOf(`name LIKE 'designs_fts%'`);
    const designsTable = bytesOf(`name = 'designs'`);
    const designsIndexes = bytesOf(`name IN (SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'designs')`);
    const { form } = db.prepare('SELECT coalesce(avg(length(CAST(list_json AS BLOB))), 0) AS form FROM designs').get() as { form: number };
    const file = sizeOf(cacheDatabase);
    const wal = sizeOf(`${cacheDatabase}-wal`) + sizeOf(`${cacheDatabase}-shm`);
    return {
      cacheDiskMb: round((file + wal) / MB, 1), cacheDbMb: round(file / MB, 1), cacheWalMb: round(wal / MB, 1), searchIndexMb: round(searchIndex / MB, 1),
      designsTableMb: round(designsTable / MB, 1), designsIndexesMb: round(designsIndexes / MB, 1), listFormBytes: round(form, 0),
    };
  } finally {
    db.close();
  }
}
