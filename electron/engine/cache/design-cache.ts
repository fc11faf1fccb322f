import { mkdirSync } from 'node:fs';
import type { ReadableDB, WritableDB } from './cache-database';
import { openCacheDatabase } from './cache-database';
import { FileCache, type FileCacheOptions } from './file-cache';

/** The cache of one profile: its database and its file cache, opened together. */
export interface DesignCache {
  db: WritableDB;
  /** The same connection, typed so that what receives it can only read. */
  reader: ReadableDB;
  files: FileCache;
  close(): void;
}

export function openDesignCache(paths: { cacheDatabase: string; fileCache: string }, options: FileCacheOptions = {}): DesignCache {
  mkdirSync(paths.fileCache, { recursive: true });
  const db = openCacheDatabase(paths.cacheDatabase);
  const files = new FileCache(db, paths.fileCache, options);
  return {
    db,
    reader: db,
    files,
    close: () => {
      if (db.open) db.close();
    },
  };
}
