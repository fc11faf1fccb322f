import { statSync } from 'node:fs';
import { cachedDocument } from '../cache/child-reads';
import { peekCachedFile } from '../cache/file-cache';
import { currentGeneratedThumbnail, MAX_THUMBNAIL_MODEL_BYTES, thumbnailsDirOf } from '../library/generated-thumbnails';
import { engineLog } from '../log/engine-log';
import type { Engine } from '../runtime/engine';
import type { ServedFile } from './contract-endpoint';
import { servicesOf } from '../composition/engine-services';

/**
 * The address of a design's picture made here from its model: `/files/generated/<design id>/<made at>` (the time it
 * was made names each picture, so a newer one is never hidden by a cached older one).
 */
export const generatedThumbnailAddress = (designId: number, madeAt: number) => `/files/generated/${designId}/${madeAt}`;

/**
 * The address a picture's model is read from: `/files/thumbnail-models/<document id>`, the document's file as
 * `/files/documents/…` serves it, but never one larger than MAX_THUMBNAIL_MODEL_BYTES (its size asked of the service
 * first when it is not cached; unknown, it is not fetched), so no large file is downloaded only for a card.
 */
export const thumbnailModelAddress = (documentId: number) => `/files/thumbnail-models/${documentId}`;

/** The document a picture's model address names, or null. */
export function parseThumbnailModelAddress(address: string): number | null {
  const match = /^\/files\/thumbnail-models\/(\d{1,15})$/.exec(address);
  return match ? Number(match[1]) : null;
}

/**
 * A model a picture is made from, when small enough (see thumbnailModelAddress); `serveDocument` serves the document
 * as its `/files/documents/` address does. A model known to be too large is remembered as one no picture is made of,
 * so its design's card and page stop waiting for one.
 */
export async function serveThumbnailModel(engine: Engine, documentId: number, serveDocument: (address: string) => Promise<ServedFile | null>, signal?: AbortSignal): Promise<ServedFile | null> {
  const document = cachedDocument(engine.cache.reader, documentId);
  const url = (document?.raw.file as { url?: unknown } | undefined)?.url;
  if (!document || typeof url !== 'string') return null;
  const address = `/files/documents/${documentId}/model`;
  const tooLarge = (size: number) => {
    engineLog.info('thumbnails', `no picture is made from document ${documentId}: it is ${size} bytes, not downloaded only for a card`);
    servicesOf(engine).thumbnails.failed(document.designId, documentId,
      `the model is ${(size / 1024 ** 2).toFixed(1)} MiB, more than the ${MAX_THUMBNAIL_MODEL_BYTES / 1024 ** 2} MiB a picture is made from`);
    return null;
  };
  const local = peekCachedFile(engine.cache.reader, engine.profile.fileCache, url);
  if (local) return local.size <= MAX_THUMBNAIL_MODEL_BYTES ? serveDocument(address) : tooLarge(local.size);
  const version = typeof document.raw.updated_at === 'string' ? document.raw.updated_at : null;
  const size = (await servicesOf(engine).library.documentSizes([{ url, version }], signal ?? AbortSignal.timeout(10_000))).get(url);
  if (size === undefined) {
    engineLog.info('thumbnails', `no picture is made from document ${documentId} now: its size is not known, and it is not downloaded only for a card`);
    return null;
  }
  return size > MAX_THUMBNAIL_MODEL_BYTES ? tooLarge(size) : serveDocument(address);
}

/** The design a generated picture's address names, or null when it is not one (or malformed). */
export function parseGeneratedThumbnailAddress(address: string): number | null {
  const match = /^\/files\/generated\/(\d{1,15})\/\d{1,15}$/.exec(address);
  return match ? Number(match[1]) : null;
}

/** The design's current generated picture (only from the profile's thumbnails folder, never fetched), or null. */
export function serveGeneratedThumbnail(engine: Engine, designId: number): ServedFile | null {
  const current = currentGeneratedThumbnail(engine.cache.reader, thumbnailsDirOf(engine.profile.root), designId);
  if (!current) return null;
  try {
    return { path: current.path, contentType: 'image/png', size: statSync(current.path).size };
  } catch (error) {
    engineLog.warn('thumbnails', `the generated picture ${current.path} of design ${designId} cannot be read`, error);
    return null;
  }
}
