import type { ReadableDB } from './cache-database';
import { prepared } from './prepared';
import { engineLog } from '../log/engine-log';

export interface CachedUser {
  id: number;
  screenName: string;
  /** The public form as the service last sent it (null when only the name is known, from a design's `user`). */
  public: Record<string, unknown> | null;
}

function parse(json: string | null): Record<string, unknown> | null {
  if (!json) return null;
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch (error) {
    engineLog.warn('cache', 'a cached user is not readable JSON (shown as unknown)', error);
    return null;
  }
}

/** A user the cache knows, by id or screen name (the public users endpoint takes either). Never touches the network. */
export function cachedUser(db: ReadableDB, idOrName: number | string): CachedUser | null {
  const key = String(idOrName).trim();
  const row = (/^\d+$/.test(key)
    ? prepared(db, 'SELECT id, screen_name, public_json, own_json FROM users WHERE id = ?').get(Number(key))
    : prepared(db, 'SELECT id, screen_name, public_json, own_json FROM users WHERE screen_name = ? COLLATE NOCASE').get(key)) as
    { id: number; screen_name: string; public_json: string | null; own_json: string | null } | undefined;
  if (!row) return null;
  return { id: row.id, screenName: row.screen_name, public: parse(row.public_json) ?? parse(row.own_json) };
}

/** The screen names the cache knows for these user ids. */
export function screenNames(db: ReadableDB, ids: readonly number[]): Map<number, string> {
  if (ids.length === 0) return new Map();
  const rows = prepared(db, 'SELECT id, screen_name FROM users WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as { id: number; screen_name: string }[];
  return new Map(rows.filter((row) => row.screen_name).map((row) => [row.id, row.screen_name]));
}

/** The cached designs of one author, newest first (for the author's view offline). */
export function designIdsOfUser(db: ReadableDB, userId: number, limit = 500): number[] {
  return (prepared(db, 'SELECT id FROM designs WHERE user_id = ? ORDER BY id DESC LIMIT ?').all(userId, limit) as { id: number }[]).map((row) => row.id);
}
