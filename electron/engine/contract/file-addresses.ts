import { statSync } from 'node:fs';
import { extname } from 'node:path';
import { cachedDocument, cachedImage, designOfCover, primaryImageOfCover } from '../cache/child-reads';
import { renditionUrl } from '../cache/design-reads';
import { cachedUser } from '../cache/user-reads';
import { isKeptFile } from '../keep-offline/kept-store';
import { fileNameOf, modelFileOnDemand } from '../library/model-files';
import { VIEWABLE_MODEL_TYPES } from '../../../shared/files/model-files';
import type { Engine } from '../runtime/engine';
import type { ServedFile } from './contract-endpoint';
import { servicesOf } from '../composition/engine-services';
import { serveProposalModel } from './proposal-models';
import { parseGeneratedThumbnailAddress, parseThumbnailModelAddress, serveGeneratedThumbnail, serveThumbnailModel } from './generated-thumbnail-files';
import { engineLog } from '../log/engine-log';

/** Spec §2.2: the renditions of an image. */
export const RENDITIONS = ['grid', 'large', 'small', 'medium', 'span4', 'span2', 'span1', 'mini', 'carousel', 'carousel_thumb'] as const;
type Rendition = (typeof RENDITIONS)[number];

/**
 * The 3D files the window previews (rule 1: only as the host's own address, never a link to the service's file):
 * STL, OBJ, 3MF, AMF, PLY, glTF/GLB and G-code.
 */
export const PREVIEW_TYPES: ReadonlySet<string> = new Set(VIEWABLE_MODEL_TYPES);

/** How long an address may wait for the service to list the images of a design whose cover it names. */
const LIST_TIMEOUT_MS = 3_000;

export const imageAddress = (imageId: number, rendition: Rendition) => `/files/images/${imageId}/${rendition}`;
export const documentAddress = (documentId: number, name: string) => `/files/documents/${documentId}/${encodeURIComponent(name.replace(/[/\\]/g, '_'))}`;
export const avatarAddress = (userId: number) => `/files/avatars/${userId}`;

const TYPES: Record<string, string> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', tif: 'image/tiff', tiff: 'image/tiff', bmp: 'image/bmp', gif: 'image/gif',
  stl: 'model/stl', obj: 'model/obj', '3mf': 'model/3mf', amf: 'application/x-amf', ply: 'application/x-ply',
  gltf: 'model/gltf+json', glb: 'model/gltf-binary', gcode: 'text/x-gcode',
};

/** The extension of a file's address (its path, not its query), lowercased: "STL" and "stl" are one type. */
export function fileType(url: string): string {
  let path: string;
  try {
    path = new URL(url, 'http://file.invalid').pathname;
  } catch {
    return '';
  }
  return extname(path).slice(1).toLowerCase();
}

/** The file address of a cached document, if any. */
export function documentFileUrl(document: Record<string, unknown>): string | null {
  const url = (document.file as { url?: unknown } | undefined)?.url;
  return typeof url === 'string' ? url : null;
}

/**
 * What a document is: its type from its file's address, whether it is a 3D model (that type, or the service's
 * file_contains_3d_model), and whether the window can preview it. Its display name is only a label: the service names
 * documents "Rack Gear Segment (STL)".
 */
export function documentKind(document: Record<string, unknown>): { type: string; isModel: boolean; previewable: boolean } {
  const url = documentFileUrl(document);
  const type = url ? fileType(url) : '';
  const previewable = PREVIEW_TYPES.has(type);
  return { type, isModel: previewable || document.file_contains_3d_model === true, previewable };
}

function contentTypeOf(url: string): string {
  return TYPES[fileType(url)] ?? 'application/octet-stream';
}

interface Source {
  /** The service's address of the file. */
  url: string;
  /** What it is cached under (the row's updated_at): another version is fetched again when the service can be reached. */
  version: string | null;
  /** The address its type is read from (the file's own, not a display name). */
  typeFrom: string;
  /** Served as an attachment under this name, never shown in the window. */
  downloadName?: string;
}

type Address =
  | { kind: 'image'; id: number; rendition: Rendition }
  | { kind: 'document'; id: number }
  | { kind: 'avatar'; id: number }
  /** A model file as a download (the web host's "Open in your slicer"): the cached copy, fetched into the cache first. */
  | { kind: 'download'; id: number };

const isRendition = (value: string): value is Rendition => (RENDITIONS as readonly string[]).includes(value);

/** A contract file address taken apart; null for anything malformed (no dot segments, ids are digits). */
export function parseFileAddress(address: string): Address | null {
  const image = /^\/files\/images\/(\d{1,15})\/([a-z_0-9]+)$/.exec(address);
  if (image) {
    const rendition = image[2]!;
    return isRendition(rendition) ? { kind: 'image', id: Number(image[1]), rendition } : null;
  }
  const document = /^\/files\/documents\/(\d{1,15})\/([^/\\]+)$/.exec(address);
  if (document) return /^(?:\.|%2e){1,2}$/i.test(document[2]!) ? null : { kind: 'document', id: Number(document[1]) };
  const avatar = /^\/files\/avatars\/(\d{1,15})$/.exec(address);
  if (avatar) return { kind: 'avatar', id: Number(avatar[1]) };
  const download = /^\/files\/downloads\/(\d{1,15})$/.exec(address);
  return download ? { kind: 'download', id: Number(download[1]) } : null;
}

const versionOf = (raw: Record<string, unknown>) => (typeof raw.updated_at === 'string' ? raw.updated_at : null);

function imageSource(engine: Engine, id: number, rendition: Rendition): Source | null {
  const row = cachedImage(engine.cache.reader, id);
  const url = row ? renditionUrl(row.raw, rendition) : null;
  return url ? { url, version: versionOf(row!.raw), typeFrom: url } : null;
}

/** A cover by the URLs of the `primary_image` its design carries (the live service sends it with every design). */
function primaryImageSource(engine: Engine, id: number, rendition: Rendition): Source | null {
  const image = primaryImageOfCover(engine.cache.reader, id);
  const url = image ? renditionUrl(image, rendition) : null;
  return url ? { url, version: null, typeFrom: url } : null;
}

/**
 * A card names its cover before the cache has listed that design's images (a pull lists only the newest): the
 * design is found by its cover and its images listed now, when the service can be reached; when they cannot be
 * listed, or do not hold it, the URLs of the design's own `primary_image` serve.
 */
async function coverSource(engine: Engine, id: number, rendition: Rendition, signal?: AbortSignal): Promise<Source | null> {
  const known = imageSource(engine, id, rendition);
  if (known) return known;
  const designId = engine.connection.serviceUrl() ? designOfCover(engine.cache.reader, id) : null;
  if (designId === null) return primaryImageSource(engine, id, rendition);
  try {
    const timeout = AbortSignal.any([AbortSignal.timeout(LIST_TIMEOUT_MS), ...(signal ? [signal] : [])]);
    await engine.cache.designs.refreshFiles(engine.connection.interactiveClient(), designId, timeout);
  } catch (error) {
    engineLog.warn('files', `the images of design ${designId} could not be listed for its cover ${id}`, error);
    return primaryImageSource(engine, id, rendition);
  }
  return imageSource(engine, id, rendition) ?? primaryImageSource(engine, id, rendition);
}

/**
 * A document the window may show (a model it previews), or any document of a design kept offline: that one only as
 * an attachment under its own name, never shown in the window (its type is the service's word, not ours).
 */
function documentSource(engine: Engine, id: number): Source | null {
  const row = cachedDocument(engine.cache.reader, id);
  const url = row ? documentFileUrl(row.raw) : null;
  if (!row || !url) return null;
  if (documentKind(row.raw).previewable) return { url, version: versionOf(row.raw), typeFrom: url };
  if (!isKeptFile(engine.cache.reader, url)) return null;
  return { url, version: versionOf(row.raw), typeFrom: url, downloadName: fileNameOf(url, id, fileType(url)) };
}

function avatarSource(engine: Engine, id: number): Source | null {
  const file = cachedUser(engine.cache.reader, id)?.public?.avatar_file as Record<string, unknown> | undefined;
  const url = (file?.medium as { url?: unknown } | undefined)?.url ?? file?.url;
  return typeof url === 'string' ? { url, version: null, typeFrom: url } : null;
}

function served(path: string, source: Source): ServedFile | null {
  try {
    if (source.downloadName) return { path, contentType: 'application/octet-stream', size: statSync(path).size, downloadName: source.downloadName };
    return { path, contentType: contentTypeOf(source.typeFrom), size: statSync(path).size };
  } catch (error) {
    engineLog.warn('files', `the cached file ${path} of ${source.url} cannot be read`, error);
    return null;
  }
}

/**
 * A model file served as an attachment under its own name: the file cache's copy, fetched from the service into it
 * first when it holds none. Null when it is no model file, or neither kept nor reachable.
 */
async function modelDownload(engine: Engine, documentId: number, signal?: AbortSignal): Promise<ServedFile | null> {
  let file;
  try {
    file = await modelFileOnDemand(servicesOf(engine).modelFiles, documentId, signal);
  } catch (error) {
    engineLog.warn('files', `the model file of document ${documentId} cannot be downloaded`, error);
    return null;
  }
  return { path: file.cachedPath, contentType: TYPES[file.type] ?? 'application/octet-stream', size: file.size, downloadName: file.fileName };
}

/**
 * The file behind a contract file address: from the file cache, or fetched from the service on demand (and cached)
 * when it can be reached. Null for an address that names nothing known, or a file neither cached nor reachable.
 */
export async function serveFileAddress(engine: Engine, address: string, signal?: AbortSignal): Promise<ServedFile | null> {
  const generated = parseGeneratedThumbnailAddress(address);
  if (generated !== null) return serveGeneratedThumbnail(engine, generated);
  const thumbnailModel = parseThumbnailModelAddress(address);
  if (thumbnailModel !== null) return serveThumbnailModel(engine, thumbnailModel, (document) => serveFileAddress(engine, document, signal), signal);
  if (address.startsWith('/files/proposals/')) return serveProposalModel(servicesOf(engine), address);
  const parsed = parseFileAddress(address);
  if (!parsed) return null;
  if (parsed.kind === 'download') return modelDownload(engine, parsed.id, signal);
  const source = parsed.kind === 'image' ? await coverSource(engine, parsed.id, parsed.rendition, signal)
    : parsed.kind === 'document' ? documentSource(engine, parsed.id)
      : avatarSource(engine, parsed.id);
  if (!source) return null;
  const files = engine.cache.files;
  const current = files.has(source.url, source.version);
  const local = files.localPath(source.url);
  // Offline, an older version is better than nothing; online it is replaced.
  if (local && (current || !engine.connection.connectivity.state.online)) return served(local, source);
  if (!engine.connection.serviceUrl()) return local ? served(local, source) : null;
  try {
    const client = engine.connection.interactiveClient();
    const stored = await files.ensure(source.url, (url, s) => client.download(url, s), { version: source.version, ...(signal ? { signal } : {}) });
    return served(stored.path, source);
  } catch (error) {
    engineLog.warn('files', `${source.url} could not be fetched${local ? '; the older cached copy is served' : ''}`, error);
    return local ? served(local, source) : null;
  }
}
