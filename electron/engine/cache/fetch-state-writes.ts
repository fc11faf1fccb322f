import type { WritableDB } from './cache-database';
import { prepared } from './prepared';

/** What the cache remembers about its own fetching: HTTP validators per address, and the sync state's one row. */

export function readValidators(db: WritableDB, url: string): { etag: string | null; lastModified: string | null } | null {
  const row = prepared(db, 'SELECT etag, last_modified AS lastModified FROM http_validators WHERE url = ?').get(url) as
    { etag: string | null; lastModified: string | null } | undefined;
  return row ?? null;
}

export function writeValidators(db: WritableDB, url: string, etag: string | null, lastModified: string | null, now: number): void {
  prepared(db, 
    `INSERT INTO http_validators (url, etag, last_modified, checked_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified, checked_at = excluded.checked_at`,
  ).run(url, etag, lastModified, now);
}

/** The service said "not modified": what the cache holds of `url` was vouched for now. */
export function touchValidators(db: WritableDB, url: string, now: number): void {
  prepared(db, 'UPDATE http_validators SET checked_at = ? WHERE url = ?').run(now, url);
}

export interface SyncState {
  lastFullPullAt: number | null;
  lastListingCount: number | null;
  lastOwnPullAt: number | null;
  ownUserId: number | null;
}

export function updateSyncState(db: WritableDB, changes: Partial<SyncState>): void {
  const columns: Record<keyof SyncState, string> = {
    lastFullPullAt: 'last_full_pull_at', lastListingCount: 'last_listing_count', lastOwnPullAt: 'last_own_pull_at', ownUserId: 'own_user_id',
  };
  for (const [key, value] of Object.entries(changes) as [keyof SyncState, number | null][]) {
    prepared(db, `UPDATE sync_state SET ${columns[key]} = ? WHERE id = 1`).run(value);
  }
}

/** Fields of a design edited here, not yet confirmed by the service. */
