import { realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { engineLog } from '../engine/log/engine-log';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

export function contentTypeOf(path: string): string {
  return TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

function inside(base: string, path: string): boolean {
  return path === base || path.startsWith(base + sep);
}

/** A file of the window's folder: where it is, its size, and when it was last written (a rebuild writes it again). */
export interface StaticFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/**
 * The file under `root` that a URL path names (index.html for a folder), or null: a path that leaves `root` (`..`,
 * encoded or not, or a symbolic link pointing out), names nothing, or is not a regular file.
 */
export async function resolveStaticFile(root: string, pathname: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const base = resolve(root);
  const wanted = resolve(base, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`);
  if (!inside(base, wanted)) return null;
  const realBase = await realpath(base).catch((error: unknown) => {
    engineLog.warn('window-host', `the window's folder ${base} cannot be resolved`, error);
    return null;
  });
  if (!realBase) return null;
  for (const candidate of [wanted, join(wanted, 'index.html')]) {
    try {
      const real = await realpath(candidate);
      const info = await stat(real);
      if (info.isFile() && inside(realBase, real)) return { path: real, size: info.size, mtimeMs: info.mtimeMs };
    } catch (error) {
      // Not this one (no such file, or a file where a folder was looked for); anything else is logged.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') engineLog.warn('window-host', `the window's file ${candidate} cannot be read`, error);
    }
  }
  return null;
}
