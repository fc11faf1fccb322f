import type Database from 'better-sqlite3';
import { openSqlite } from '../sqlite/open-sqlite';
import { CACHE_MIGRATIONS } from './migrations';

/**
 * Typed handles, as Signal Desktop does it: code that only reads takes a ReadableDB, code that writes takes
 * a WritableDB. Both are the same connection; the brand only stops a read path from being handed to a write.
 */
export type ReadableDB = Database.Database & { readonly __cacheReadable: true };
export type WritableDB = ReadableDB & { readonly __cacheWritable: true };

export class CacheDatabaseFromTheFutureError extends Error {
  constructor(readonly location: string, readonly found: number, readonly known: number) {
    super(`${location} has cache schema version ${found}, newer than this version of design-sync knows (${known}); refusing to open it. ` +
      'Use the newer design-sync with this profile, or move the file aside to start a new cache (designs are downloaded again at the next pull).');
    this.name = 'CacheDatabaseFromTheFutureError';
  }
}

/**
 * SQLite's page cache for a connection to the cache, in KiB (SQLite's default is 2,000). A search reads its 200
 * candidates' rows by id, each through the designs table's interior pages: at a million designs those are 6 MB,
 * more than the default holds, so every look-up read them again from the operating system. Pages are cached only as
 * they are read: a small cache takes no more memory than its file.
 */
export const PAGE_CACHE_KIB = 65_536;

/**
 * Opens (creating if needed) the cache database: WAL, synchronous=NORMAL (a cache may lose its last commit on power
 * loss), foreign keys on, a page cache of PAGE_CACHE_KIB. A damaged file fails with SQLite's SQLITE_NOTADB or
 * SQLITE_CORRUPT (openDesignCache sets it aside and makes a new one).
 */
export function openCacheDatabase(path: string): WritableDB {
  const db = openSqlite(path);
  try {
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    // Reads the schema now (SQLite reads it at the first statement): a damaged schema page fails here, at opening.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    migrateCache(db, path);
  } catch (error) {
    db.close();
    throw error;
  }
  return db as WritableDB;
}

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Runs the pending migrations, up to `target` (all by default), in one transaction. */
export function migrateCache(db: Database.Database, location = 'the cache database', target = CACHE_MIGRATIONS.length): void {
  const current = schemaVersion(db);
  if (current > CACHE_MIGRATIONS.length) throw new CacheDatabaseFromTheFutureError(location, current, CACHE_MIGRATIONS.length);
  if (current >= target) return;
  db.transaction(() => {
    for (let version = current; version < target; version++) CACHE_MIGRATIONS[version]!(db);
    db.pragma(`user_version = ${target}`);
  })();
}

/** A handle that writes: for the one place that opened the database (pull, search merge, file cache). */
export function asWritable(db: Database.Database): WritableDB {
  return db as WritableDB;
}

/** Whether a second connection (a thread's) can open the same database: a file in WAL mode; ':memory:' or a temporary one cannot. */
export function opensAgain(db: ReadableDB): boolean {
  return db.name !== '' && db.name !== ':memory:' && !db.memory && !db.readonly;
}
