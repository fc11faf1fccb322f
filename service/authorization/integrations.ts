import { randomBytes } from 'node:crypto';
import type { ServiceDatabase } from '../database/open-database';

/** The one application registered with the local service (spec §5.1). */
export const REGISTERED_APPLICATION = 'design-sync';

export interface AuthorizedIntegration {
  id: number;
  user_id: number;
  application_id: number;
  token: string;
  created_at: number;
  revoked_at: number | null;
}

export function findApplication(db: ServiceDatabase, slug: string): { id: number; slug: string; name: string } | undefined {
  return db.prepare('SELECT * FROM applications WHERE slug = ?').get(slug) as { id: number; slug: string; name: string } | undefined;
}

export function liveAuthorization(db: ServiceDatabase, userId: number, applicationId: number): AuthorizedIntegration | undefined {
  return db
    .prepare('SELECT * FROM authorized_integrations WHERE user_id = ? AND application_id = ? AND revoked_at IS NULL')
    .get(userId, applicationId) as AuthorizedIntegration | undefined;
}

/**
 * The user's live authorization of the application, created if there is none. Authorizing again hands
 * back the same token, so a second computer signing in does not sign the first one out.
 */
export function grantAuthorization(db: ServiceDatabase, userId: number, applicationId: number, now: number): AuthorizedIntegration {
  return db.transaction(() => {
    const existing = liveAuthorization(db, userId, applicationId);
    if (existing) return existing;
    const token = randomBytes(24).toString('base64url');
    const { lastInsertRowid } = db
      .prepare('INSERT INTO authorized_integrations (user_id, application_id, token, created_at) VALUES (?, ?, ?, ?)')
      .run(userId, applicationId, token, now);
    return db.prepare('SELECT * FROM authorized_integrations WHERE id = ?').get(Number(lastInsertRowid)) as AuthorizedIntegration;
  })();
}

/**
 * Forgets authorizations the service made for its own use and never handed to anyone (the demo seed creates content
 * through the real API with them): no trace on the profile page, and the person's first sign-in asks Allow/Deny.
 */
export function forgetAuthorizations(db: ServiceDatabase, ids: readonly number[]): void {
  db.prepare('DELETE FROM authorized_integrations WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(ids));
}

/** Revokes one of the user's authorizations; its token fails from then on. Returns whether one was revoked. */
export function revokeAuthorization(db: ServiceDatabase, userId: number, authorizationId: number, now: number): boolean {
  const { changes } = db
    .prepare('UPDATE authorized_integrations SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL')
    .run(now, authorizationId, userId);
  return changes > 0;
}
