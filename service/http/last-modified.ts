import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Sets Last-Modified and answers 304 when If-Modified-Since is at or after it.
 * Returns true when the caller should send nothing more. For single reads only: lists get a weak ETag instead (weak-etag.ts).
 */
export function notModifiedSince(request: FastifyRequest, reply: FastifyReply, lastModifiedMs: number | null): boolean {
  if (lastModifiedMs === null) return false;
  const seconds = Math.floor(lastModifiedMs / 1000) * 1000;
  reply.header('last-modified', new Date(seconds).toUTCString());
  const since = request.headers['if-modified-since'];
  if (!since || request.headers['if-none-match']) return false;
  const sinceMs = Date.parse(since);
  if (Number.isNaN(sinceMs) || seconds > sinceMs) return false;
  reply.code(304).send();
  return true;
}
