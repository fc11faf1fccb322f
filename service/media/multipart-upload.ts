import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { addFieldError, type FieldErrors } from '../../shared';
import { badRequest, HttpError, payloadTooLarge, unprocessable } from '../http/errors';
import type { ServiceContext } from '../server/service-context';
import { newTempPath, removeQuietly } from './file-store';

/** How many leading bytes of an upload are kept in memory for content sniffing. */
export const HEAD_BYTES = 64 * 1024;

/** An uploaded file, streamed to a temporary file while hashed and counted. */
export interface ReceivedFile {
  tmpPath: string;
  /** The client's file name, without any directory part. */
  fileName: string;
  bytes: number;
  sha1: string;
  /** The first HEAD_BYTES bytes (fewer for a smaller file). */
  head: Buffer;
}

export interface UploadForm {
  /** name and description, when sent. */
  fields: { name?: string; description?: string };
  file: ReceivedFile | null;
  /** Deletes the temporary file if it is still there. Safe to call more than once. */
  discard(): void;
}

export type UploadResource = 'image' | 'document';

const TEXT_FIELDS = ['name', 'description'] as const;
type TextField = (typeof TEXT_FIELDS)[number];

function textFieldName(resource: UploadResource, partName: string): TextField | null {
  for (const field of TEXT_FIELDS) {
    if (partName === `${resource}[${field}]` || partName === field) return field;
  }
  return null;
}

function isFilePartName(resource: UploadResource, partName: string): boolean {
  return partName === `${resource}[file]` || partName === 'file';
}

/** The file name as sent, reduced to its last path segment (some clients send C:\…\name). */
export function cleanFileName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  return base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
}

async function streamToTemp(ctx: ServiceContext, part: MultipartFile, tmpPath: string): Promise<Omit<ReceivedFile, 'fileName'>> {
  const hash = createHash('sha1');
  let bytes = 0;
  const headChunks: Buffer[] = [];
  let headLength = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      if (headLength < HEAD_BYTES) {
        const slice = chunk.subarray(0, HEAD_BYTES - headLength);
        headChunks.push(Buffer.from(slice));
        headLength += slice.length;
      }
      done(null, chunk);
    },
  });
  const out = createWriteStream(tmpPath, { flags: 'wx' });
  try {
    await pipeline(part.file, tap, out);
  } catch (error) {
    // pipeline rejects on the first error, possibly before the file has even been opened: wait until it is
    // closed, or the caller's clean-up could run before the open and leave the file behind.
    if (!out.closed) await once(out, 'close').catch(() => undefined);
    throw error;
  }
  if (part.file.truncated) throw payloadTooLarge(ctx.options.maxUploadBytes);
  return { tmpPath, bytes, sha1: hash.digest('hex'), head: Buffer.concat(headChunks) };
}

/**
 * Parser failures (no boundary, a part cut short…) are the client's: 400 with busboy's reason. Errors that carry
 * their own status (@fastify/multipart's limits) or come from the file system stay as they are.
 */
function asMalformedBody(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const { statusCode, syscall } = error as Error & { statusCode?: number; syscall?: string };
  if (statusCode !== undefined || syscall !== undefined) return error;
  return badRequest(`The multipart/form-data body is malformed: ${error.message}`);
}

function isTooLarge(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'FST_REQ_FILE_TOO_LARGE';
}

/**
 * Reads a multipart/form-data upload of an image or document (fields `<resource>[name]`, `<resource>[description]`,
 * `<resource>[file]`; a bare `file`, `name` or `description` is accepted too). Parts may come in any order.
 * The file never sits whole in memory: it streams to tmp/ while its SHA-1 and size are computed.
 * Every failure removes the temporary file before the error leaves.
 */
export async function receiveUploadForm(ctx: ServiceContext, request: FastifyRequest, resource: UploadResource): Promise<UploadForm> {
  const fields: UploadForm['fields'] = {};
  const errors: FieldErrors = {};
  let file: ReceivedFile | null = null;
  let pendingTmp: string | null = null;
  const ignoredFileParts: string[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (!isFilePartName(resource, part.fieldname) || file) {
          ignoredFileParts.push(part.fieldname);
          part.file.resume();
          continue;
        }
        pendingTmp = newTempPath(ctx, `upload-${resource}`);
        const received = await streamToTemp(ctx, part, pendingTmp);
        const fileName = cleanFileName(part.filename);
        if (fileName === '' && received.bytes === 0) {
          removeQuietly(pendingTmp); // a browser's "no file chosen"
        } else {
          file = { ...received, fileName: fileName || 'file' };
        }
        pendingTmp = null;
        continue;
      }
      const value = part as MultipartValue;
      const field = textFieldName(resource, value.fieldname);
      if (!field) continue;
      if (value.valueTruncated) addFieldError(errors, field, 'is too long (maximum is 1 MB)');
      else fields[field] = String(value.value);
    }
  } catch (error) {
    removeQuietly(pendingTmp);
    removeQuietly(file?.tmpPath);
    if (error instanceof HttpError) throw error;
    if (isTooLarge(error)) throw payloadTooLarge(ctx.options.maxUploadBytes);
    throw asMalformedBody(error);
  }
  const form: UploadForm = { fields, file, discard: () => removeQuietly(file?.tmpPath) };
  if (Object.keys(errors).length > 0) {
    form.discard();
    throw unprocessable(errors);
  }
  if (!file && ignoredFileParts.length > 0) {
    throw unprocessable({
      file: [`can't be blank: send the file in the ${resource}[file] part (got a file in ${ignoredFileParts.map((n) => JSON.stringify(n)).join(', ')})`],
    });
  }
  return form;
}

/** name and description from a JSON or form body ({ image: { name } }, or bare name) for an update without a file. */
export function textFieldsFromBody(body: unknown, resource: UploadResource): UploadForm['fields'] {
  if (!body || typeof body !== 'object') return {};
  const outer = body as Record<string, unknown>;
  const hash = outer[resource] && typeof outer[resource] === 'object' ? (outer[resource] as Record<string, unknown>) : outer;
  const fields: UploadForm['fields'] = {};
  const errors: FieldErrors = {};
  for (const field of TEXT_FIELDS) {
    const value = hash[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') addFieldError(errors, field, 'must be a string');
    else fields[field] = value;
  }
  if (Object.keys(errors).length > 0) throw unprocessable(errors);
  return fields;
}

/** The answer to a create request that is not multipart/form-data. */
export function multipartRequired(resource: UploadResource): HttpError {
  return new HttpError(415, {
    error: `Adding ${resource === 'image' ? 'an' : 'a'} ${resource} needs a multipart/form-data body with the file in the ${resource}[file] part`,
  });
}
