import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors';

export interface SendFileOptions {
  contentType: string;
  /** Sent as Content-Disposition: attachment with this file name. */
  downloadName?: string;
  /** Called once a GET will send the whole file or a range starting at byte 0 (not for HEAD, 304 or later ranges). */
  onDownload?: () => void;
}

/** attachment; filename="ascii fallback"; filename*=UTF-8''percent-encoded (RFC 6266 / RFC 5987). */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** A single byte range of `bytes=a-b`, `bytes=a-` or `bytes=-n`; null to send everything; 'unsatisfiable' for 416. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null; // several ranges or another unit: answer with the whole file
  const [, from, to] = match;
  if (from === '' && to === '') return null;
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * Sends a stored file: Content-Length, Last-Modified, a strong ETag from size and mtime, 304 for a matching
 * If-None-Match or If-Modified-Since, single byte ranges (206/416; If-Range honoured), and HEAD without reading it.
 */
export async function sendStoredFile(request: FastifyRequest, reply: FastifyReply, path: string, options: SendFileOptions): Promise<FastifyReply> {
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new HttpError(404, { error: 'File not found' });
  }
  const size = info.size;
  const etag = `"${size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const lastModified = new Date(Math.floor(info.mtimeMs / 1000) * 1000);
  reply.header('etag', etag);
  reply.header('last-modified', lastModified.toUTCString());
  reply.header('accept-ranges', 'bytes');
  reply.header('x-content-type-options', 'nosniff');

  const ifNoneMatch = request.headers['if-none-match'];
  const ifModifiedSince = request.headers['if-modified-since'];
  const notModified = ifNoneMatch !== undefined
    ? ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, '')).some((tag) => tag === etag || tag === '*')
    : ifModifiedSince !== undefined && !Number.isNaN(Date.parse(ifModifiedSince)) && lastModified.getTime() <= Date.parse(ifModifiedSince);
  if (notModified) return reply.code(304).send();

  const ifRange = request.headers['if-range'];
  const rangeAllowed = ifRange === undefined || ifRange === etag || ifRange === lastModified.toUTCString();
  const range = rangeAllowed ? parseRange(request.headers.range, size) : null;
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${size}`).send({ error: `Requested range not satisfiable (file is ${size} bytes)` });
  }
  reply.header('content-type', options.contentType);
  if (options.downloadName !== undefined) reply.header('content-disposition', contentDisposition(options.downloadName));
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
  reply.header('content-length', String(size === 0 ? 0 : end - start + 1));
  if (request.method === 'HEAD') return reply.send(Readable.from([]));
  if (start === 0) options.onDownload?.();
  if (size === 0) return reply.send(Readable.from([]));
  return reply.send(createReadStream(path, { start, end }));
}

/** Sends a stream of unknown length (zips made on the fly). HEAD gets the headers only. */
export function sendGeneratedStream(request: FastifyRequest, reply: FastifyReply, contentType: string, downloadName: string, open: () => Readable): FastifyReply {
  reply.header('content-type', contentType);
  reply.header('content-disposition', contentDisposition(downloadName));
  reply.header('x-content-type-options', 'nosniff');
  if (request.method === 'HEAD') return reply.send(Readable.from([]));
  return reply.send(open());
}
