import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EDITABLE_PROFILE_FIELDS, addFieldError, type FieldErrors } from '../../shared';
import { requireUser } from '../authentication/current-user';
import type { UserRow } from '../database/rows';
import { listUserDesigns } from '../designs/design-repository';
import { serializeUserDesigns } from '../designs/design-serializer';
import { notFound, unprocessable } from '../http/errors';
import { notModifiedSince } from '../http/last-modified';
import { parsePaging, setPagingHeaders, type Paging } from '../http/paging';
import { idOrSlug } from '../http/params';
import type { ServiceContext } from '../server/service-context';
import { PREFERENCE_DEFAULTS, preferencesOf, serializeOwnUser, serializePublicUser } from './user-serializer';

function findUser(ctx: ServiceContext, raw: string): UserRow {
  const key = idOrSlug(raw);
  const user = ('id' in key
    ? ctx.db.prepare('SELECT * FROM users WHERE id = ?').get(key.id)
    : ctx.db.prepare('SELECT * FROM users WHERE slug = ? OR screen_name = ?').get(key.slug, key.slug)) as UserRow | undefined;
  if (!user) throw notFound('User');
  return user;
}

/** GET /v1/users/:user_id/users lists the users that :user_id follows (docs/service-choices.md). */
function findFollowed(ctx: ServiceContext, follower: UserRow, raw: string): UserRow {
  const user = findUser(ctx, raw);
  const follows = ctx.db.prepare('SELECT 1 FROM follows WHERE follower_id = ? AND followed_id = ?').get(follower.id, user.id);
  if (!follows) throw notFound('User');
  return user;
}

function sendUserPage(request: FastifyRequest, reply: FastifyReply, paging: Paging, rows: UserRow[], total: number) {
  setPagingHeaders(reply, request.url, paging, total);
  return rows.map(serializePublicUser);
}

function sendUserDesigns(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply, owner: UserRow) {
  const paging = parsePaging(request.query);
  const page = listUserDesigns(ctx.db, owner.id, request.currentUser?.id ?? null, paging);
  setPagingHeaders(reply, request.url, paging, page.total);
  return serializeUserDesigns(ctx.db, page.rows);
}

function sendUser(request: FastifyRequest, reply: FastifyReply, user: UserRow) {
  if (notModifiedSince(request, reply, user.updated_at)) return reply;
  return serializePublicUser(user);
}

const TEXT_PROFILE_FIELDS = new Set(['real_name', 'name', 'about', 'location', 'url']);

export function registerUserRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/v1/users', async (request, reply) => {
    const paging = parsePaging(request.query);
    const rows = ctx.db.prepare('SELECT * FROM users ORDER BY id LIMIT ? OFFSET ?').all(paging.limit, paging.offset) as UserRow[];
    const { total } = ctx.db.prepare('SELECT count(*) AS total FROM users').get() as { total: number };
    return sendUserPage(request, reply, paging, rows, total);
  });

  app.get<{ Params: { id: string } }>('/v1/users/:id', async (request, reply) => sendUser(request, reply, findUser(ctx, request.params.id)));

  app.get<{ Params: { id: string } }>('/v1/users/:id/designs', async (request, reply) =>
    sendUserDesigns(ctx, request, reply, findUser(ctx, request.params.id)));

  app.get<{ Params: { user_id: string } }>('/v1/users/:user_id/users', async (request, reply) => {
    const follower = findUser(ctx, request.params.user_id);
    const paging = parsePaging(request.query);
    const rows = ctx.db
      .prepare('SELECT u.* FROM follows f JOIN users u ON u.id = f.followed_id WHERE f.follower_id = ? ORDER BY u.id LIMIT ? OFFSET ?')
      .all(follower.id, paging.limit, paging.offset) as UserRow[];
    const { total } = ctx.db.prepare('SELECT count(*) AS total FROM follows WHERE follower_id = ?').get(follower.id) as { total: number };
    return sendUserPage(request, reply, paging, rows, total);
  });

  app.get<{ Params: { user_id: string; id: string } }>('/v1/users/:user_id/users/:id', async (request, reply) =>
    sendUser(request, reply, findFollowed(ctx, findUser(ctx, request.params.user_id), request.params.id)));

  app.get<{ Params: { user_id: string; id: string } }>('/v1/users/:user_id/users/:id/designs', async (request, reply) =>
    sendUserDesigns(ctx, request, reply, findFollowed(ctx, findUser(ctx, request.params.user_id), request.params.id)));

  app.get('/v1/user/whoami', async (request) => serializeOwnUser(requireUser(request)));

  /** Not shown by the spec: takes a `user` hash of profile fields, answers 200 with the own form. */
  app.put('/api/users/whoami', async (request) => {
    const user = requireUser(request);
    const hash = (request.body as Record<string, unknown> | undefined)?.user;
    const errors: FieldErrors = {};
    if (!hash || typeof hash !== 'object' || Array.isArray(hash)) {
      throw unprocessable({ user: ['is missing: send the fields inside a "user" hash'] });
    }
    const changes: Record<string, string | boolean | null> = {};
    for (const [field, value] of Object.entries(hash as Record<string, unknown>)) {
      if (!(EDITABLE_PROFILE_FIELDS as readonly string[]).includes(field)) {
        addFieldError(errors, field, 'is not a field you can change');
      } else if (field in PREFERENCE_DEFAULTS) {
        const flag = value === true || value === 'true' || value === '1' ? true : value === false || value === 'false' || value === '0' ? false : undefined;
        if (flag === undefined) addFieldError(errors, field, 'must be true or false');
        else changes[field] = flag;
      } else if (field === 'donate_url') {
        if (value === null || value === '' || typeof value === 'string') changes[field] = value === '' ? null : (value as string | null);
        else addFieldError(errors, field, 'must be text');
      } else if (TEXT_PROFILE_FIELDS.has(field)) {
        if (typeof value !== 'string') addFieldError(errors, field, 'must be text');
        else if (value.length > 10_000) addFieldError(errors, field, 'is too long (maximum is 10000 characters)');
        else changes[field] = value;
      }
    }
    if (Object.keys(errors).length > 0) throw unprocessable(errors);

    const preferences = preferencesOf(user) as Record<string, boolean>;
    const columns: Record<string, string | null> = {};
    for (const [field, value] of Object.entries(changes)) {
      if (field in PREFERENCE_DEFAULTS) preferences[field] = value as boolean;
      else columns[field] = value as string | null;
    }
    const sets = Object.keys(columns).map((column) => `${column} = @${column}`);
    ctx.db
      .prepare(`UPDATE users SET ${[...sets, 'preferences = @preferences', 'updated_at = max(updated_at + 1, @now)'].join(', ')} WHERE id = @id`)
      .run({ ...columns, preferences: JSON.stringify(preferences), now: ctx.now(), id: user.id });
    return serializeOwnUser(ctx.db.prepare('SELECT * FROM users WHERE id = ?').get(user.id) as UserRow);
  });
}
