import { statSync } from 'node:fs';
import { extname } from 'node:path';
import { cachedDocument, cachedImage } from '../cache/child-reads';
import { renditionUrl } from '../cache/design-reads';
import { cachedUser } from '../cache/user-reads';
import type { Engine } from '../runtime/engine';
import type { ServedFile } from './contract-endpoint';

/** Spec §2.2: the renditions of an image. */
export const RENDITIONS = ['grid', 'large', 'small', 'medium', 'span4', 'span2', 'span1', 'mini', 'carousel', 'carousel_thumb'] as const;
type Rendition = (typeof RENDITIONS)[number];

/** The 3D files the window previews (rule 1: only as the host's own address, never a link to the service's file). */
export const PREVIEW_TYPES = new Set(['stl', 'obj']);

export const imageAddress = (imageId: number, rendition: Rendition) => `/files/images/${imageId}/${rendition}`;
export const documentAddress = (documentId: number, name: string) => `/files/documents/${documentId}/${encodeURIComponent(name.replace(/[/\\]/g, '_'))}`;
export const avatarAddress = (userId: number) => `/files/avatars/${userId}`;

const TYPES: Record<string, string> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', tif: 'image/tiff', tiff: 'image/tiff', bmp: 'image/bmp', gif: 'image/gif',
  stl: 'model/stl', obj: 'model/obj',
};

export function fileType(name: string): string {
  return extname(name).slice(1).toLowerCase();
}

function contentTypeOf(nameOrUrl: string): string {
  return TYPES[fileType(new URL(nameOrUrl, 'http://x').pathname)] ?? 'application/octet-stream';
}

/** What a file address names: the service's address of the file, and the version it is cached under. */
function sourceOf(engine: Engine, address: string): { url: string; version: string | null; name: string } | null {
  const image = /^\/files\/images\/(\d{1,15})\/([a-z_0-9]+)$/.exec(address);
  if (image) {
    const rendition = image[2] as Rendition;
    if (!RENDITIONS.includes(rendition)) return null;
    const row = cachedImage(engine.cache.reader, Number(image[1]));
    const url = row ? renditionUrl(row.raw, rendition) : null;
    return url ? { url, version: typeof row!.raw.updated_at === 'string' ? row!.raw.updated_at : null, name: url } : null;
  }
  const document = /^\/files\/documents\/(\d{1,15})\/[^/]+$/.exec(address);
  if (document) {
    const row = cachedDocument(engine.cache.reader, Number(document[1]));
    const url = (row?.raw.file as { url?: unknown } | undefined)?.url;
    const name = typeof row?.raw.name === 'string' ? row.raw.name : typeof url === 'string' ? url : '';
    if (typeof url !== 'string' || !PREVIEW_TYPES.has(fileType(name))) return null;
    return { url, version: typeof row!.raw.updated_at === 'string' ? row!.raw.updated_at : null, name };
  }
  const avatar = /^\/files\/avatars\/(\d{1,15})$/.exec(address);
  if (avatar) {
    const user = cachedUser(engine.cache.reader, Number(avatar[1]));
    const file = user?.public?.avatar_file as Record<string, unknown> | undefined;
    const url = (file?.medium as { url?: unknown } | undefined)?.url ?? file?.url;
    return typeof url === 'string' ? { url, version: null, name: url } : null;
  }
  return null;
}

/**
 * The file behind a contract file address: from the file cache, or fetched from the service on demand (and cached)
 * when it can be reached. Null for an address that names nothing known, or a file neither cached nor reachable.
 */
export async function serveFileAddress(engine: Engine, address: string, signal?: AbortSignal): Promise<ServedFile | null> {
  const source = sourceOf(engine, address);
  if (!source) return null;
  const files = engine.cache.files;
  const cached = files.localPath(source.url);
  if (cached) {
    return { path: cached, contentType: contentTypeOf(source.name), size: statSync(cached).size };
  }
  if (!engine.serviceUrl()) return null;
  try {
    const client = engine.interactiveClient();
    const stored = await files.ensure(source.url, (url, s) => client.download(url, s), { version: source.version, ...(signal ? { signal } : {}) });
    return { path: stored.path, contentType: contentTypeOf(source.name), size: stored.size };
  } catch {
    return null;
  }
}
