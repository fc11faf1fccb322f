import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { isSlicerFileType } from '../../../shared/files/model-files';
import { cachedDocument } from '../cache/child-reads';
import { peekCachedFile } from '../cache/file-cache';
import type { Engine } from '../runtime/engine';

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

function fileUrlOf(raw: Record<string, unknown>): string | null {
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
 * A model file (a type a slicer opens: never an executable, whatever the service labels it) of a cached document,
 * when the file cache holds its bytes; null otherwise. Nothing is fetched: only what is kept offline is handed out.
 */
export function cachedModelFile(engine: Engine, documentId: number): CachedModelFile | null {
  const document = cachedDocument(engine.cache.reader, documentId);
  const url = document ? fileUrlOf(document.raw) : null;
  if (!url) return null;
  const type = typeOf(url);
  if (!isSlicerFileType(type)) return null;
  const stored = peekCachedFile(engine.cache.reader, engine.profile.fileCache, url);
  if (!stored) return null;
  return { documentId, cachedPath: stored.path, fileName: fileNameOf(url, documentId, type), type, size: stored.size };
}

/** Where copies handed to the system's apps are put, under their own names (the cache names files by hash). */
export const openedFilesDir = (engine: Engine) => join(engine.profile.root, 'opened');

/**
 * The cached model file copied under its own name (profile/opened/<document>/<name>), for the system's app for its
 * type: what the Electron shell opens. Null when the file is not a model kept offline (nothing to open).
 */
export function modelFileToOpen(engine: Engine, documentId: number): string | null {
  const file = cachedModelFile(engine, documentId);
  if (!file) return null;
  const folder = join(openedFilesDir(engine), String(documentId));
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const target = join(folder, file.fileName);
  try {
    copyFileSync(file.cachedPath, target);
  } catch (error) {
    // A slicer may hold the last copy open (Windows locks it): that copy is the same file, opened again.
    if (!existsSync(target)) throw error;
  }
  return target;
}
