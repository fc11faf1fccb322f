import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

function matches(ifNoneMatch: string, etag: string): boolean {
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === bare);
}

/**
 * As the live service (Rails' Rack::ETag, seen in the recorded answers): a GET answered 200 gets a weak ETag of its body
 * unless it already carries a validator. Lists therefore carry a weak ETag and no Last-Modified; a single read carries
 * the Last-Modified its route set (http/last-modified.ts) and no ETag; stored files keep their own strong ETag.
 * A matching If-None-Match turns the answer into a 304.
 */
export function registerWeakEtags(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
    if (reply.hasHeader('etag') || reply.hasHeader('last-modified')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const etag = `W/"${createHash('md5').update(payload).digest('hex')}"`;
    reply.header('etag', etag);
    const ifNoneMatch = request.headers['if-none-match'];
    if (!ifNoneMatch || !matches(ifNoneMatch, etag)) return payload;
    reply.code(304);
    return '';
  });
}
