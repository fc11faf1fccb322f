import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../database/rows';
import { authenticationRequired, tokenRejected } from '../http/errors';
import type { ServiceContext } from '../server/service-context';

declare module 'fastify' {
  interface FastifyRequest {
    /** The user whose auth_token came with the request, or null for an anonymous request. */
    currentUser: UserRow | null;
  }
}

export function findUserByToken(ctx: ServiceContext, token: string): UserRow | undefined {
  return ctx.db
    .prepare(
      `SELECT users.* FROM authorized_integrations ai JOIN users ON users.id = ai.user_id
       WHERE ai.token = ? AND ai.revoked_at IS NULL`,
    )
    .get(token) as UserRow | undefined;
}

/**
 * Spec §5.6: the token travels as the auth_token query parameter. A request without one is anonymous
 * (public reads work); a request with a token that is unknown or revoked is refused with 401 whatever it asks.
 */
export function registerAuthentication(app: FastifyInstance, ctx: ServiceContext): void {
  app.decorateRequest('currentUser', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/v1/') && !request.url.startsWith('/api/') && !request.url.startsWith('/uploads/')) return;
    const token = (request.query as Record<string, unknown> | undefined)?.auth_token;
    if (token === undefined) return;
    const user = typeof token === 'string' && token.length > 0 ? findUserByToken(ctx, token) : undefined;
    if (!user) throw tokenRejected();
    request.currentUser = user;
  });
}

export function requireUser(request: FastifyRequest): UserRow {
  if (!request.currentUser) throw authenticationRequired();
  return request.currentUser;
}
