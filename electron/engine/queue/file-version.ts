import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { looksLikeWindowsExecutable } from '../../../shared';
import type { Said } from './said';
import { uploadRefusalSaid, windowsProgramRefusal } from './upload-refusal';

/** One version of a local file, as the queue and the last synced state compare it. */
export interface FileVersion {
  size: number;
  /** Whole milliseconds (base_files.mtime_ms is an integer). */
  mtimeMs: number;
  /** "dev:ino", to tell a moved file from a new one. */
  inode: string;
}

/** A path of the sync folder ('/'-separated, relative to the root) on this disk. */
export function absolutePath(root: string, relative: string): string {
  return join(root, ...relative.split('/'));
}

export function fileNameOf(relative: string): string {
  return relative.split('/').pop() ?? relative;
}

export function folderOf(relative: string): string {
  return relative.split('/')[0] ?? relative;
}

/** The file's version now, or null when it is gone. */
export async function currentVersion(path: string): Promise<FileVersion | null> {
  try {
    const found = await stat(path, { bigint: false });
    if (!found.isFile()) return null;
    return { size: found.size, mtimeMs: Math.trunc(found.mtimeMs), inode: `${found.dev}:${found.ino}` };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw error;
  }
}

/** Same size and modification time (to the millisecond: the folder side may have rounded either way). */
export function sameVersion(a: { size: number; mtimeMs: number }, b: { size: number | null; mtimeMs: number | null }): boolean {
  return b.size !== null && b.mtimeMs !== null && a.size === b.size && Math.abs(a.mtimeMs - b.mtimeMs) < 1;
}

/** Hex SHA-1 of a file's content, streamed (the service's modelhash is the same hash of a document). */
export async function sha1OfFile(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha1');
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024, signal })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Why this file must not be sent as `kind`, in words, or null: by its name (shared rules), and a document by its first bytes. */
export async function refusalOf(kind: 'image' | 'document', path: string, fileName: string): Promise<Said | null> {
  const byName = uploadRefusalSaid(kind, fileName);
  if (byName) return byName;
  if (kind !== 'document') return null;
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (looksLikeWindowsExecutable(head.subarray(0, bytesRead))) return windowsProgramRefusal(fileName);
  } finally {
    await handle.close();
  }
  return null;
}
