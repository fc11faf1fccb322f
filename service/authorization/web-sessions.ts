import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServiceDatabase } from '../database/open-database';
import type { UserRow } from '../database/rows';

/** Browser sign-in sessions for the service's own pages (spec §5). Never used by the API, which takes tokens only. */
export const SESSION_COOKIE = 'ds_session';
/** A sign-in session lasts this long from sign-in, whatever the activity. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

export interface WebSession {
  user: UserRow;
  csrfToken: string;
  createdAt: number;
}

export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The database keeps a hash of the cookie value, so a copy of the database does not hold live cookies. */
function sessionKey(cookieValue: string): string {
  return createHash('sha256').update(cookieValue).digest('hex');
}

/** Starts a session; returns the cookie value. Expired sessions of everyone are swept at the same time. */
export function createWebSession(db: ServiceDatabase, userId: number, now: number): string {
  const cookieValue = randomSecret();
  db.prepare('DELETE FROM web_sessions WHERE created_at <= ?').run(now - SESSION_LIFETIME_MS);
  db.prepare('INSERT INTO web_sessions (id, user_id, csrf_token, created_at) VALUES (?, ?, ?, ?)')
    .run(sessionKey(cookieValue), userId, randomSecret(), now);
  return cookieValue;
}

/** The live session the cookie names, or undefined (unknown, ended or older than SESSION_LIFETIME_MS). */
export function findWebSession(db: ServiceDatabase, cookieValue: string | undefined, now: number): WebSession | undefined {
  if (!cookieValue) return undefined;
  const key = sessionKey(cookieValue);
  const row = db.prepare('SELECT user_id, csrf_token, created_at FROM web_sessions WHERE id = ?').get(key) as
    | { user_id: number; csrf_token: string; created_at: number }
    | undefined;
  if (!row) return undefined;
  if (now - row.created_at >= SESSION_LIFETIME_MS) {
    db.prepare('DELETE FROM web_sessions WHERE id = ?').run(key);
    return undefined;
  }
  const user = db.prepare('SELECT * FROM users WHERE id = ?').get(row.user_id) as UserRow | undefined;
  if (!user) return undefined;
  return { user, csrfToken: row.csrf_token, createdAt: row.created_at };
}

export function endWebSession(db: ServiceDatabase, cookieValue: string | undefined): void {
  if (cookieValue) db.prepare('DELETE FROM web_sessions WHERE id = ?').run(sessionKey(cookieValue));
}

/** Constant-time comparison of a submitted secret with the expected one; a missing or non-string value never matches. */
export function secretsMatch(submitted: unknown, expected: string | undefined): boolean {
  if (typeof submitted !== 'string' || !expected) return false;
  const a = Buffer.from(submitted);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
