import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { engineLog } from '../log/engine-log';
import { damageReason, integrityProblem, isDamagedDatabaseError, setAsideDamaged } from '../sqlite/damaged-database';
import { isInBulkFill, resumeSearchIndexMerges, setAsideIndexesLeft } from './bulk-fill';
import type { ReadableDB, WritableDB } from './cache-database';
import { openCacheDatabase } from './cache-database';
import { DesignsStore } from './designs-store';
import { FileCache, type FileCacheOptions } from './file-cache';

/** Said once, when a damaged cache was set aside and a new one made (the CLI on standard error, the window in Settings). */
export const CACHE_REBUILT_NOTICE = 'The offline cache was damaged and has been rebuilt; designs will be downloaded again at the next pull.';

/** Said when the cache is found damaged while in use: a connection in use cannot be replaced, the next start does it. */
export function cacheDamagedNotice(reason: string): string {
  return `The offline cache is damaged (${reason}). It is rebuilt the next time design-sync starts (restart it to rebuild it now); ` +
    'designs will then be downloaded again at the next pull.';
}

/** A damaged cache set aside when the cache was opened. */
export interface CacheRebuild {
  /** What was wrong ("database disk image is malformed", "file is not a database"…). */
  reason: string;
  /** Where the damaged file went (`cache.sqlite.corrupt-<time>`; the newest two are kept). */
  setAsideAs: string;
  notice: string;
}

/** The cache of one profile: its database and its file cache, opened together. */
export interface DesignCache {
  db: WritableDB;
  /** The same connection, typed so that what receives it can only read. */
  reader: ReadableDB;
  files: FileCache;
  /** The one writer of its designs and users (and of their image and document lists outside a pull), with its events. */
  designs: DesignsStore;
  /** Set when a damaged cache was found at opening and replaced by a new, empty one. */
  readonly rebuilt: CacheRebuild | null;
  /**
   * Tells the cache of a failure met while using it. When the failure is a damage error and the cache's own check
   * confirms its database is damaged (the error may have come from another database), the cache is marked to be
   * rebuilt at the next opening; returns the words to show, else null.
   */
  noteFailure(error: unknown): string | null;
  close(): void;
}

/** Beside the database: its presence says "rebuild at the next opening", its text why. */
function damageMarker(databasePath: string): string {
  return `${databasePath}.damaged`;
}

function readMarker(databasePath: string): string | null {
  try {
    return readFileSync(damageMarker(databasePath), 'utf8').trim() || 'found damaged while in use';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') engineLog.warn('cache', `the cache's damage marker could not be read`, error);
    return null;
  }
}

/** Why whatever is at `path` cannot be a database file at all (a folder…), or null. */
function notAFile(path: string): string | null {
  if (!existsSync(path)) return null;
  const stat = statSync(path);
  return stat.isFile() ? null : `${path} is a ${stat.isDirectory() ? 'folder' : 'special file'}, not a database file`;
}

/**
 * The downloaded files of a cache that was set aside: their index went with it, so nothing would ever find or evict
 * them again. Emptied, but for files being downloaded now (`tmp/`).
 */
function emptyFileCache(root: string): void {
  for (const name of readdirSync(root)) {
    if (name !== 'tmp') rmSync(join(root, name), { recursive: true, force: true });
  }
}

function openOrRebuild(paths: { cacheDatabase: string; fileCache: string }): { db: WritableDB; rebuilt: CacheRebuild | null } {
  const path = paths.cacheDatabase;
  let reason = readMarker(path) ?? notAFile(path);
  if (reason === null) {
    try {
      return { db: openCacheDatabase(path), rebuilt: null };
    } catch (error) {
      if (!isDamagedDatabaseError(error)) throw error;
      reason = damageReason(error);
      engineLog.error('cache', `the cache database ${path} cannot be opened`, error);
    }
  }
  const setAsideAs = setAsideDamaged(path);
  rmSync(damageMarker(path), { force: true });
  emptyFileCache(paths.fileCache);
  const db = openCacheDatabase(path);
  engineLog.warn('cache', `the cache database was damaged (${reason}): set aside as ${setAsideAs}; a new one was made and the downloaded files emptied`);
  return { db, rebuilt: { reason, setAsideAs, notice: CACHE_REBUILT_NOTICE } };
}

/**
 * A pull filling the cache in bulk that stopped (a crash) before it undid its changes: the search index's merges it
 * paused are given back now. The indexes it set aside (or that a walk left behind it, the engine closed before its
 * fill made them) are left to the engine's search index fill, which makes them on a thread of their own
 * (runtime/search-index-fill.ts): made here, at a million designs they held the opening for seconds. The library's
 * sorts are slower without them, never wrong. A cache damaged where this looks is not refused here: the damage is
 * met, and said, where the cache is used.
 */
function undoStoppedBulkFill(db: WritableDB): void {
  try {
    if (!isInBulkFill(db)) return;
    resumeSearchIndexMerges(db);
    const left = setAsideIndexesLeft(db);
    if (left > 0) engineLog.info('cache', `${left} of the library's indexes, set aside by a pull that filled the cache in bulk, are still to be made again (by the search index fill)`);
  } catch (error) {
    engineLog.warn('cache', 'whether a bulk fill was left unfinished could not be checked', error);
  }
}

/**
 * Opens a profile's cache. The cache is only a cache: a damaged database (not a database, malformed, a folder in its
 * place, or marked damaged while in use) is set aside as `cache.sqlite.corrupt-<time>` and a new one made, and
 * `rebuilt` says so. A cache from a newer design-sync is refused (CacheDatabaseFromTheFutureError): it is not damaged.
 */
export function openDesignCache(paths: { cacheDatabase: string; fileCache: string }, options: FileCacheOptions = {}): DesignCache {
  mkdirSync(paths.fileCache, { recursive: true });
  const { db, rebuilt } = openOrRebuild(paths);
  undoStoppedBulkFill(db);
  const files = new FileCache(db, paths.fileCache, options);
  const designs = new DesignsStore(db);
  let damaged: string | null = null;
  return {
    db,
    reader: db,
    files,
    designs,
    rebuilt,
    noteFailure(error) {
      if (damaged !== null) return damaged;
      if (!isDamagedDatabaseError(error) || !db.open) return null;
      let problem: string | null;
      try {
        problem = integrityProblem(db);
      } catch (checkError) {
        engineLog.warn('cache', 'the cache could not be checked after a damage error', checkError);
        return null;
      }
      if (problem === null) return null;
      engineLog.error('cache', `the cache database ${paths.cacheDatabase} is damaged (${problem}); it is rebuilt at the next start`, error);
      try {
        writeFileSync(damageMarker(paths.cacheDatabase), `${damageReason(error)}\n`);
      } catch (markError) {
        engineLog.warn('cache', 'the cache could not be marked for rebuilding', markError);
      }
      damaged = cacheDamagedNotice(damageReason(error));
      return damaged;
    },
    close: () => {
      if (db.open) db.close();
    },
  };
}
