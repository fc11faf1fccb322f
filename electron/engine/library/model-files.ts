import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { isSlicerFileType } from '../../../shared/files/model-files';
import { isServiceError } from '../api/service-error';
import { cachedDocument } from '../cache/child-reads';
import { peekCachedFile } from '../cache/file-cache';
import { engineLog } from '../log/engine-log';
import type { ServiceClient } from '../api/service-client';
import type { DesignCache } from '../cache/design-cache';
import type { DesignChanges } from '../runtime/design-changes';
import type { SettingsStore } from '../settings/settings-store';
import { EngineError } from '../runtime/engine-error';

/** What a design's model files are read, fetched and handed out with, given by whoever composes the engine. */
export interface ModelFileDeps {
  /** The cache: its documents read, its file cache filled. */
  cache: Pick<DesignCache, 'reader' | 'files'>;
  /** The file cache's folder. */
  fileRoot: string;
  /** Where copies handed to the person's apps are put, under their own names (`<profile>/opened`). */
  openedDir: string;
  /** Whether a service is chosen, and whether it answers now. */
  serviceChosen: () => boolean;
  online: () => boolean;
  /** The client for what a person waits on. */
  interactiveClient: () => ServiceClient;
  /** Told when a file is fetched: its design's page says it is here now. */
  changes: Pick<DesignChanges, 'designsChanged'>;
  /** The settings: the app each file type was last opened with (`openModelWith`). */
  settings: Pick<SettingsStore, 'read' | 'update'>;
}

/** A 3D model file of a design as the file cache holds it, with the name it is handed out under. */
export interface CachedModelFile {
  documentId: number;
  /** The cached bytes (named by their hash, without an extension). */
  cachedPath: string;
  /** Its own file name (from its file's address), always ending in its type: what a slicer or a download shows. */
  fileName: string;
  type: string;
  size: number;
}

/** A model file of a cached document: where the service has it, and what it is handed out as. */
export interface ModelFileSource {
  documentId: number;
  url: string;
  /** What it is cached under (the document's updated_at): another version is fetched again when the service answers. */
  version: string | null;
  fileName: string;
  type: string;
}

/** The address of a document's file on the service, or null when it names none. */
export function fileUrlOf(raw: Record<string, unknown>): string | null {
  const url = (raw.file as { url?: unknown } | undefined)?.url;
  return typeof url === 'string' ? url : null;
}

/** The type of a file address (its path's extension, lowercased). */
function typeOf(url: string): string {
  try {
    return extname(new URL(url, 'http://file.invalid').pathname).slice(1).toLowerCase();
  } catch {
    return '';
  }
}

/** The last segment of the file's address, decoded and made safe as a file name; the type's extension kept. */
export function fileNameOf(url: string, documentId: number, type: string): string {
  let name = '';
  try {
    name = decodeURIComponent(basename(new URL(url, 'http://file.invalid').pathname));
  } catch {
    name = '';
  }
  name = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_').replace(/^[.\s]+/, '').trim();
  if (name === '' || extname(name).slice(1).toLowerCase() !== type) name = `design-file-${documentId}.${type}`;
  return name.slice(-200);
}

/**
 * A cached document's model file (a type a slicer opens: never an executable, whatever the service labels it), or
 * null when the document is not known here or is no such file.
 */
export function modelFileSource(deps: Pick<ModelFileDeps, 'cache'>, documentId: number): ModelFileSource | null {
  const document = cachedDocument(deps.cache.reader, documentId);
  const url = document ? fileUrlOf(document.raw) : null;
  if (!document || !url) return null;
  const type = typeOf(url);
  if (!isSlicerFileType(type)) return null;
  const version = typeof document.raw.updated_at === 'string' ? document.raw.updated_at : null;
  return { documentId, url, version, fileName: fileNameOf(url, documentId, type), type };
}

/** A model file when the file cache holds its bytes (any version); null otherwise. Nothing is fetched. */
export function cachedModelFile(deps: Pick<ModelFileDeps, 'cache' | 'fileRoot'>, documentId: number): CachedModelFile | null {
  const source = modelFileSource(deps, documentId);
  const stored = source ? peekCachedFile(deps.cache.reader, deps.fileRoot, source.url) : null;
  if (!source || !stored) return null;
  return { documentId, cachedPath: stored.path, fileName: source.fileName, type: source.type, size: stored.size };
}

/** Why a document cannot be handed to a slicer at all: not known here, or not a model file. */
export function notAModelFile(deps: Pick<ModelFileDeps, 'cache'>, documentId: number): EngineError {
  const document = cachedDocument(deps.cache.reader, documentId);
  if (!document) return EngineError.of('not-cached', 'engine.refusal.slicer.fileUnknown');
  const url = fileUrlOf(document.raw);
  const type = url ? typeOf(url) : '';
  return type ? EngineError.of('conflict', 'engine.refusal.slicer.notAModelOfType', { type }) : EngineError.of('conflict', 'engine.refusal.slicer.notAModel');
}

/**
 * A model file from the file cache, fetched from the service into it first when it holds none (or an older version
 * while the service answers). Offline, an older copy serves; with none kept, a 'not-cached' problem says so.
 */
export async function modelFileOnDemand(deps: ModelFileDeps, documentId: number, signal?: AbortSignal): Promise<CachedModelFile> {
  const source = modelFileSource(deps, documentId);
  if (!source) throw notAModelFile(deps, documentId);
  const files = deps.cache.files;
  const kept = (path: string, size: number): CachedModelFile => ({ documentId, cachedPath: path, fileName: source.fileName, type: source.type, size });
  const local = peekCachedFile(deps.cache.reader, deps.fileRoot, source.url);
  if (local && (files.has(source.url, source.version) || !deps.online() || !deps.serviceChosen())) return kept(local.path, local.size);
  const unreachable = () => new EngineError({
    kind: 'not-cached',
    message: `${source.fileName} is not kept offline, and the service cannot be reached to get it. Try again once you are online (a file you open or view in 3D is kept).`,
  });
  if (!deps.serviceChosen()) throw unreachable();
  try {
    const client = deps.interactiveClient();
    const stored = await files.ensure(source.url, (url, s) => client.download(url, s), { version: source.version, ...(signal ? { signal } : {}) });
    // Its design's page says the file is kept offline now.
    const designId = cachedDocument(deps.cache.reader, documentId)?.designId;
    if (designId !== undefined) deps.changes.designsChanged([designId]);
    return kept(stored.path, stored.size);
  } catch (error) {
    if (local) {
      engineLog.warn('files', `${source.url} could not be fetched; the older cached copy is opened`, error);
      return kept(local.path, local.size);
    }
    if (isServiceError(error, 'offline')) {
      engineLog.warn('files', `${source.url} could not be fetched`, error);
      throw unreachable();
    }
    throw error;
  }
}

/** Where copies handed to the person's apps are put, under their own names (the cache names files by hash). */
export const openedFilesDir = (profileRoot: string) => join(profileRoot, 'opened');

/**
 * The model file copied under its own name (profile/opened/<document>/<name>), for a slicer or the system's app for
 * its type: an app shows the file's name, and never gets the cache's own file to change.
 */
export function copyForOpening(deps: Pick<ModelFileDeps, 'openedDir'>, file: CachedModelFile): string {
  const folder = join(deps.openedDir, String(file.documentId));
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const target = join(folder, file.fileName);
  try {
    copyFileSync(file.cachedPath, target);
  } catch (error) {
    // A slicer may hold the last copy open (Windows locks it): that copy is the same file, opened again.
    if (!existsSync(target)) throw error;
    engineLog.warn('files', `${target} could not be replaced; the copy already there is opened`, error);
  }
  return target;
}
