import type { ReadableDB } from './cache-database';
import { prepared } from './prepared';

/**
 * A value that changes with every write to the cache, by this connection (total_changes) or another one (data_version:
 * the index thread, another process): what is counted from the cache is good while it stays the same.
 */
export function cacheVersion(db: ReadableDB): string {
  return `${(prepared(db, 'SELECT total_changes() AS n').get() as { n: number }).n}:${String(db.pragma('data_version', { simple: true }))}`;
}
