import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_LICENSE, validateDesignInput, addFieldError, type FieldErrors } from '../../shared';
import { requireUser } from '../authentication/current-user';
import type { DesignRow } from '../database/rows';
import { forbidden, notFound, unprocessable } from '../http/errors';
import { notModifiedSince } from '../http/last-modified';
import { parsePaging, setPagingHeaders } from '../http/paging';
import { idOrSlug } from '../http/params';
import { removeStorage } from '../media/file-store';
import type { ServiceContext } from '../server/service-context';
import {
  findVisibleDesign, insertDesign, listPublishedDesigns, searchPublishedDesigns, type DesignPage,
} from './design-repository';
import { serializeDesign, serializeDesigns } from './design-serializer';

/** The design a request names (id or slug), if the caller may see it; 404 otherwise. */
export function loadVisibleDesign(ctx: ServiceContext, request: FastifyRequest, raw: string): DesignRow {
  const design = findVisibleDesign(ctx.db, idOrSlug(raw), request.currentUser?.id ?? null);
  if (!design) throw notFound('Design');
  return design;
}

/** The design, if the caller owns it: 401 without a user, 404 if unseen, §7's 403 if someone else's. */
export function loadOwnDesign(ctx: ServiceContext, request: FastifyRequest, raw: string): DesignRow {
  const user = requireUser(request);
  const design = loadVisibleDesign(ctx, request, raw);
  if (design.user_id !== user.id) throw forbidden();
  return design;
}

function designHash(body: unknown): unknown {
  return body && typeof body === 'object' ? (body as Record<string, unknown>).design : undefined;
}

/** No body at all, or one without a single field. */
function isEmptyBody(body: unknown): boolean {
  if (body === undefined || body === null || body === '') return true;
  return typeof body === 'object' && Object.keys(body).length === 0;
}

function sendDesignPage(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply, page: DesignPage, paging: ReturnType<typeof parsePaging>) {
  setPagingHeaders(reply, request.url, paging, page.total);
  return serializeDesigns(ctx.db, page.rows);
}

export function registerDesignRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/v1/designs', async (request, reply) => {
    const paging = parsePaging(request.query);
    return sendDesignPage(ctx, request, reply, listPublishedDesigns(ctx.db, paging), paging);
  });

  app.get('/v1/designs/search', async (request, reply) => {
    const paging = parsePaging(request.query);
    const q = (request.query as Record<string, unknown>).q;
    return sendDesignPage(ctx, request, reply, searchPublishedDesigns(ctx.db, typeof q === 'string' ? q : '', paging), paging);
  });

  app.get<{ Params: { id: string } }>('/v1/designs/:id', async (request, reply) => {
    const design = loadVisibleDesign(ctx, request, request.params.id);
    if (notModifiedSince(request, reply, design.updated_at)) return reply;
    return serializeDesign(ctx.db, design);
  });

  app.post('/v1/designs', async (request, reply) => {
    const user = requireUser(request);
    const result = validateDesignInput(designHash(request.body), 'create');
    if (!result.ok) throw unprocessable(result.errors);
    const { name, excerpt, license, description } = result.value;
    const design = insertDesign(ctx.db, {
      userId: user.id, name: name!, excerpt: excerpt!, license: license ?? DEFAULT_LICENSE,
      description: description ?? '', now: ctx.now(),
    });
    reply.code(201).header('location', `/v1/designs/${design.id}`);
    return serializeDesign(ctx.db, design);
  });

  /** The ways of real clients to publish (see docs/service-choices.md); publishing a published design changes nothing. */
  const publish = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const design = loadOwnDesign(ctx, request, request.params.id);
    ctx.db
      .prepare(`UPDATE designs SET state = 'published', updated_at = max(updated_at + 1, @now) WHERE id = @id AND state <> 'published'`)
      .run({ id: design.id, now: ctx.now() });
    return reply.code(204).send();
  };

  const update = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const design = loadOwnDesign(ctx, request, request.params.id);
    const result = validateDesignInput(designHash(request.body), 'update');
    if (!result.ok) throw unprocessable(result.errors);
    const changes = result.value;
    if (changes.primary_image_id !== undefined && changes.primary_image_id !== null) {
      const owned = ctx.db.prepare('SELECT 1 FROM images WHERE id = ? AND design_id = ?').get(changes.primary_image_id, design.id);
      if (!owned) {
        const errors: FieldErrors = {};
        addFieldError(errors, 'primary_image_id', "must be the id of one of the design's images");
        throw unprocessable(errors);
      }
    }
    const next = { ...design, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
    ctx.db
      .prepare(
        `UPDATE designs SET name = @name, excerpt = @excerpt, license = @license, description = @description,
         primary_image_id = @primary_image_id, state = @state, updated_at = max(updated_at + 1, @now) WHERE id = @id`,
      )
      .run({ ...next, now: ctx.now() });
    return reply.code(204).send();
  };
  app.patch('/v1/designs/:id', update);
  // An empty PUT publishes, as Cura's "Share on YouMagine" asks (docs/service-choices.md); one with fields updates.
  app.put<{ Params: { id: string } }>('/v1/designs/:id', (request, reply) => (isEmptyBody(request.body) ? publish(request, reply) : update(request, reply)));
  app.put('/v1/designs/:id/mark_as/publish', publish);

  app.delete<{ Params: { id: string } }>('/v1/designs/:id', async (request, reply) => {
    const design = loadOwnDesign(ctx, request, request.params.id);
    const stored = ctx.db
      .prepare('SELECT storage_key FROM images WHERE design_id = ? UNION ALL SELECT storage_key FROM documents WHERE design_id = ?')
      .all(design.id, design.id) as { storage_key: string }[];
    ctx.db.prepare('DELETE FROM designs WHERE id = ?').run(design.id);
    for (const { storage_key } of stored) removeStorage(ctx, storage_key);
    return reply.code(204).send();
  });
}
