import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../database/rows';
import { authenticationRequired, tokenRejected } from '../http/errors';
import type { ServiceContext } from '../server/service-context';

declare module 'fastify' {
  interface FastifyRequest {
    /** The user whose auth_token came with the request, or null for an anonymous request. */
    currentUser: UserRow | null;
    /** An auth_token came that no user holds (unknown or revoked), and the request is answered anonymously. */
    unknownToken: boolean;
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
 * The catalogue's public reads. The live service answered these with a made-up auth_token as if anonymous (200, public
 * data: the recorded answers, docs/service-choices.md); everything else refuses an unknown or revoked token with 401.
 */
const PUBLIC_READS = new Set([
  '/v1/designs', '/v1/designs/search', '/v1/designs/:id',
  '/v1/designs/:design_id/images', '/v1/designs/:design_id/images/:id',
  '/v1/designs/:design_id/documents', '/v1/designs/:design_id/documents/:id',
]);

function isPublicRead(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && PUBLIC_READS.has(request.routeOptions.url ?? '');
}

/**
 * Spec §5.6: the token travels as the auth_token query parameter. A request without one is anonymous. A request with a
 * token that is unknown or revoked is refused with 401, except the catalogue's public reads, answered anonymously; a
 * public read that finds nothing for them still answers 401 (the error handler), so that a draft is never taken for
 * deleted because the sign-in was refused.
 */
export function registerAuthentication(app: FastifyInstance, ctx: ServiceContext): void {
  app.decorateRequest('currentUser', null);
  app.decorateRequest('unknownToken', false);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/v1/') && !request.url.startsWith('/api/') && !request.url.startsWith('/uploads/')) return;
    const token = (request.query as Record<string, unknown> | undefined)?.auth_token;
    if (token === undefined) return;
    const user = typeof token === 'string' && token.length > 0 ? findUserByToken(ctx, token) : undefined;
    if (user) {
      request.currentUser = user;
      return;
    }
    if (!isPublicRead(request)) throw tokenRejected();
    request.unknownToken = true;
  });
}

export function requireUser(request: FastifyRequest): UserRow {
  if (!request.currentUser) throw request.unknownToken ? tokenRejected() : authenticationRequired();
  return request.currentUser;
}
