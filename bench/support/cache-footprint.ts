import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { MB, round } from './measure';

const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : 0);

/** What a cache database takes on disk: its file, WAL and shared-memory index, and how much of the file is the search index. */
export function cacheFootprint(cacheDatabase: string): { cacheDiskMb: number; cacheDbMb: number; cacheWalMb: number; searchIndexMb: number } {
  const db = new Database(cacheDatabase, { readonly: true });
  try {
    const { bytes } = db.prepare(`SELECT coalesce(sum(pgsize), 0) AS bytes FROM dbstat WHERE name LIKE 'designs_fts%'`).get() as { bytes: number };
    const file = sizeOf(cacheDatabase);
    const wal = sizeOf(`${cacheDatabase}-wal`) + sizeOf(`${cacheDatabase}-shm`);
    return { cacheDiskMb: round((file + wal) / MB, 1), cacheDbMb: round(file / MB, 1), cacheWalMb: round(wal / MB, 1), searchIndexMb: round(bytes / MB, 1) };
  } finally {
    db.close();
  }
}
