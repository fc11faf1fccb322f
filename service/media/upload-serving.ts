import { existsSync, renameSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fileExtension, IMAGE_RENDITIONS } from '../../shared';
import type { DesignRow, DocumentRow, UserRow } from '../database/rows';
import { findVisibleDesign } from '../designs/design-repository';
import { CONVERTED_STL_FILE, DOCUMENT_FILE } from '../documents/document-files';
import { stlSource } from '../documents/document-formats';
import { countDesignDownload, countDocumentDownload, findDocument, listDesignDocuments } from '../documents/document-repository';
import { HttpError, notFound } from '../http/errors';
import { numericId } from '../http/params';
import { ORIGINAL_FILE } from '../images/image-files';
import { findImage } from '../images/image-repository';
import type { ServiceContext } from '../server/service-context';
import { avatarFileForName } from './avatars';
import { newTempPath, removeQuietly, storageDir } from './file-store';
import { IMAGE_CONTENT_TYPES, sniffImageFormat } from './image-decoding';
import { convertObjToStl } from './obj-to-stl';
import { renditionFileName } from './renditions';
import { sendGeneratedStream, sendStoredFile } from './send-file';
import {
  DOCUMENT_ALTERNATIVE_FORMATS, documentAlternativePath, documentFilePath, documentsZipPath, imageOriginalPath,
  imageRenditionPath, UPLOADS_PREFIX, type DocumentAlternativeFormat,
} from './urls';
import { uniqueEntryNames, zipFilesStream } from './zip-stream';

const DOCUMENT_CONTENT_TYPES: Record<string, string> = {
  stl: 'model/stl', obj: 'model/obj', '3mf': 'model/3mf', amf: 'application/x-amf', ply: 'application/x-ply',
  step: 'model/step', stp: 'model/step', scad: 'text/plain; charset=utf-8', jscad: 'text/javascript; charset=utf-8',
  txt: 'text/plain; charset=utf-8', md: 'text/markdown; charset=utf-8', pdf: 'application/pdf', zip: 'application/zip',
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', svg: 'image/svg+xml',
};

/** The decoded last segment of a URL path, as Fastify hands it to a :name parameter. */
function lastSegment(path: string): string {
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
}

function baseName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

const fileNotFound = () => notFound('File');

/** The design, when the caller may see it (published, or theirs with their auth_token); 404 otherwise. */
function visibleDesign(ctx: ServiceContext, request: FastifyRequest, designId: number): DesignRow {
  const design = findVisibleDesign(ctx.db, { id: designId }, request.currentUser?.id ?? null);
  if (!design) throw fileNotFound();
  return design;
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await file.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } catch {
    return Buffer.alloc(0);
  } finally {
    await file.close();
  }
}

const conversions = new Map<string, Promise<string>>();

/** The binary STL of an OBJ document, converted on first request and kept beside it (named by content hash). */
async function convertedStl(ctx: ServiceContext, document: DocumentRow): Promise<string> {
  const dir = storageDir(ctx, document.storage_key);
  const target = join(dir, `${document.modelhash}-${CONVERTED_STL_FILE}`);
  if (existsSync(target)) return target;
  let running = conversions.get(target);
  if (!running) {
    running = (async () => {
      const temp = newTempPath(ctx, 'converted-stl');
      try {
        await convertObjToStl(join(dir, DOCUMENT_FILE), temp);
        renameSync(temp, target);
        return target;
      } finally {
        removeQuietly(temp);
        conversions.delete(target);
      }
    })();
    conversions.set(target, running);
  }
  return running;
}

/** The STL of a document (itself for .stl, converted for .obj) and its name for downloads. */
async function stlFile(ctx: ServiceContext, document: DocumentRow): Promise<string> {
  const source = stlSource(document.file_name);
  if (source === 'stl') return join(storageDir(ctx, document.storage_key), DOCUMENT_FILE);
  if (source === 'obj') return convertedStl(ctx, document);
  throw fileNotFound();
}

/**
 * Serves stored files under /uploads: image originals and renditions, document files (counted as downloads),
 * alternative formats of models, the documents zip of a design and avatars. URL names are matched against
 * the names the service hands out and never used as paths, so nothing outside the store can be reached.
 */
export function registerUploadServing(app: FastifyInstance, ctx: ServiceContext): void {
  app.get<{ Params: { id: string; name: string } }>(`${UPLOADS_PREFIX}/image/file/:id/:name`, async (request, reply) => {
    const image = findImage(ctx.db, numericId(request.params.id, 'File'));
    if (!image) throw fileNotFound();
    visibleDesign(ctx, request, image.design_id);
    const dir = storageDir(ctx, image.storage_key);
    const name = request.params.name;
    if (name === lastSegment(imageOriginalPath(image))) {
      const path = join(dir, ORIGINAL_FILE);
      const format = sniffImageFormat(await readHead(path, 32).catch(() => Buffer.alloc(0)));
      return sendStoredFile(request, reply, path, { contentType: format ? IMAGE_CONTENT_TYPES[format] : 'application/octet-stream' });
    }
    const rendition = IMAGE_RENDITIONS.find((candidate) => name === lastSegment(imageRenditionPath(image, candidate)));
    if (!rendition) throw fileNotFound();
    return sendStoredFile(request, reply, join(dir, renditionFileName(rendition)), { contentType: 'image/jpeg' });
  });

  app.get<{ Params: { id: string; name: string } }>(`${UPLOADS_PREFIX}/document/file/:id/:name`, async (request, reply) => {
    const document = findDocument(ctx.db, numericId(request.params.id, 'File'));
    if (!document || request.params.name !== lastSegment(documentFilePath(document))) throw fileNotFound();
    visibleDesign(ctx, request, document.design_id);
    return sendStoredFile(request, reply, join(storageDir(ctx, document.storage_key), DOCUMENT_FILE), {
      contentType: DOCUMENT_CONTENT_TYPES[fileExtension(document.file_name)] ?? 'application/octet-stream',
      downloadName: document.file_name,
      onDownload: () => countDocumentDownload(ctx.db, document),
    });
  });

  app.get<{ Params: { format: string; id: string; name: string } }>(`${UPLOADS_PREFIX}/document/:format/:id/:name`, async (request, reply) => {
    const format = DOCUMENT_ALTERNATIVE_FORMATS.find((candidate) => candidate === request.params.format) as DocumentAlternativeFormat | undefined;
    if (!format) throw fileNotFound();
    const document = findDocument(ctx.db, numericId(request.params.id, 'File'));
    if (!document || request.params.name !== lastSegment(documentAlternativePath(document, format))) throw fileNotFound();
    visibleDesign(ctx, request, document.design_id);
    const base = baseName(document.file_name);
    if (format === 'stl') {
      return sendStoredFile(request, reply, await stlFile(ctx, document), { contentType: 'model/stl', downloadName: `${base}.stl` });
    }
    if (format === 'stl_zip') {
      const path = await stlFile(ctx, document);
      return sendGeneratedStream(request, reply, 'application/zip', `${base}.zip`, () => zipFilesStream([{ name: `${base}.stl`, path }]));
    }
    if (fileExtension(document.file_name) !== 'obj') throw fileNotFound();
    const path = join(storageDir(ctx, document.storage_key), DOCUMENT_FILE);
    return sendGeneratedStream(request, reply, 'application/zip', `${base}.zip`, () => zipFilesStream([{ name: document.file_name, path }]));
  });

  app.get<{ Params: { id: string; name: string } }>(`${UPLOADS_PREFIX}/design/documents_zip/:id/:name`, async (request, reply) => {
    const design = visibleDesign(ctx, request, numericId(request.params.id, 'File'));
    if (request.params.name !== lastSegment(documentsZipPath(design.id, design.slug))) throw fileNotFound();
    const documents = listDesignDocuments(ctx.db, design.id);
    if (documents.length === 0) throw new HttpError(404, { error: 'This design has no documents' });
    const names = uniqueEntryNames(documents.map((document) => document.file_name));
    const entries = documents.map((document, i) => ({
      name: names[i]!, path: join(storageDir(ctx, document.storage_key), DOCUMENT_FILE), mtime: new Date(document.updated_at),
    }));
    if (request.method === 'GET') countDesignDownload(ctx.db, design.id);
    return sendGeneratedStream(request, reply, 'application/zip', `${design.slug}.zip`, () => zipFilesStream(entries));
  });

  app.get<{ Params: { userId: string; name: string } }>(`${UPLOADS_PREFIX}/user/avatar/:userId/:name`, async (request, reply) => {
    const user = ctx.db.prepare('SELECT * FROM users WHERE id = ?').get(numericId(request.params.userId, 'File')) as UserRow | undefined;
    const file = avatarFileForName(request.params.name);
    if (!user?.avatar_image_path || !file) throw fileNotFound();
    return sendStoredFile(request, reply, join(storageDir(ctx, user.avatar_image_path), file), { contentType: 'image/jpeg' });
  });
}
