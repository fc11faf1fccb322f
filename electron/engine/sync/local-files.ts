import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { link, lstat, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { FALLBACK_TRASH_DIR, TEMP_PREFIX, TEMP_SUFFIX } from './sync-names';

/** One entry of a folder, by lstat (symbolic links are never followed). */
export interface LocalEntry {
  /** The name as it is on disk (maybe NFD, as macOS tools sometimes write). */
  name: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
  mtimeMs: number;
  /** "dev:ino". */
  inode: string;
}

export const inodeOf = (stats: Stats) => `${stats.dev}:${stats.ino}`;

export function entryOf(name: string, stats: Stats): LocalEntry {
  const type = stats.isSymbolicLink() ? 'symlink' : stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other';
  return { name, type, size: stats.size, mtimeMs: Math.floor(stats.mtimeMs), inode: inodeOf(stats) };
}

/** The entries of a folder; null when the folder is not there. */
export async function readFolder(dir: string): Promise<LocalEntry[] | null> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  const entries: LocalEntry[] = [];
  // lstat in small batches: fast on 10k files without opening thousands of handles at once.
  for (let i = 0; i < names.length; i += 64) {
    const batch = await Promise.all(names.slice(i, i + 64).map(async (name) => {
      try {
        return entryOf(name, await lstat(join(dir, name)));
      } catch (error) {
        if (isMissing(error)) return null; // gone between readdir and lstat
        throw error;
      }
    }));
    for (const entry of batch) if (entry) entries.push(entry);
  }
  return entries;
}

export async function statEntry(path: string): Promise<LocalEntry | null> {
  try {
    return entryOf(basename(path), await lstat(path));
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** SHA-1 of a file, streamed (the service's modelhash is the SHA-1 of a document). */
export async function sha1File(path: string): Promise<string> {
  const hash = createHash('sha1');
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The first bytes of a file (to recognize an executable whatever its name). */
export async function readHead(path: string, bytes = 4096): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export function tempPathIn(dir: string): string {
  return join(dir, `${TEMP_PREFIX}${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
}

/**
 * Writes a downloaded body to a temporary name in `dir` (ignored by scans), flushed to disk, hashing it on the
 * way. The caller moves it into place (placeNew / placeOver) or removes it.
 */
export async function downloadToTemp(dir: string, body: WebReadableStream<Uint8Array> | ReadableStream<Uint8Array> | null): Promise<{ path: string; sha1: string; size: number }> {
  const path = tempPathIn(dir);
  const hash = createHash('sha1');
  let size = 0;
  const handle = await open(path, 'wx', 0o644);
  try {
    if (body) {
      for await (const chunk of Readable.fromWeb(body as WebReadableStream<Uint8Array>)) {
        const bytes = chunk as Buffer;
        hash.update(bytes);
        size += bytes.length;
        let written = 0;
        while (written < bytes.length) written += (await handle.write(bytes, written)).bytesWritten;
      }
    }
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(path).catch(() => {});
    throw error;
  }
  await handle.close();
  return { path, sha1: hash.digest('hex'), size };
}

/** Moves a finished temporary file to `target` only if nothing is there (a hard link fails on an existing name). */
export async function placeNew(temp: string, target: string): Promise<boolean> {
  try {
    await link(temp, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      await unlink(temp).catch(() => {});
      return false;
    }
    // File systems without hard links (FAT, some network shares): check, then rename.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EXDEV') {
      if (await statEntry(target)) {
        await unlink(temp).catch(() => {});
        return false;
      }
      await rename(temp, target);
      return true;
    }
    await unlink(temp).catch(() => {});
    throw error;
  }
  await unlink(temp);
  return true;
}

/** Renames `from` to `to` unless `to` exists. */
export async function renameNoClobber(from: string, to: string): Promise<boolean> {
  if (await statEntry(to)) return false;
  try {
    await link(from, to);
    await unlink(from);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EXDEV') {
      await rename(from, to);
      return true;
    }
    throw error;
  }
}

export type TrashMode = 'system' | 'folder';
/** Moves a file out of the sync folder where a person can get it back; resolves with where it went, in words. */
export type TrashFile = (path: string, root: string) => Promise<string>;

/** The fallback: `<root>/.design-sync-trash/<date>/<name>` (ignored by scans, as every dotfile). */
export async function trashToFolder(path: string, root: string): Promise<string> {
  const day = new Date().toISOString().slice(0, 10);
  const dir = join(root, FALLBACK_TRASH_DIR, day);
  await mkdir(dir, { recursive: true });
  const name = basename(path);
  const dot = name.lastIndexOf('.');
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
    if (await renameNoClobber(path, join(dir, candidate))) return join(dir, candidate);
  }
}

/**
 * The system's trash (the `trash` package: Recycle Bin, macOS Trash, XDG trash); where there is none or it fails
 * (a headless machine), the fallback folder in the sync root.
 */
export async function trashToSystem(path: string, root: string): Promise<string> {
  try {
    const { default: trash } = await import('trash');
    await trash(path, { glob: false });
    if (!(await statEntry(path))) return 'the system trash';
  } catch {
    // fall through to the folder
  }
  return trashToFolder(path, root);
}

export function trashFunction(mode: TrashMode | TrashFile): TrashFile {
  if (typeof mode === 'function') return mode;
  return mode === 'folder' ? trashToFolder : trashToSystem;
}
