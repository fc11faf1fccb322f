import { createHash, hash as hashOf, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { link, lstat, mkdir, open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, join, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { mapInSlices } from './time-slices';
import { FALLBACK_TRASH_DIR, TEMP_PREFIX, TEMP_SUFFIX } from './sync-names';
import { fileSystemProblem } from '../sync-state/sync-root';
import { engineLog, warnUnlessMissing } from '../log/engine-log';

/** What an entry that is neither a file, a folder nor a symbolic link is (never read, never sent). */
export type SpecialKind = 'fifo' | 'socket' | 'character-device' | 'block-device';

/** One entry of a folder, by lstat (symbolic links are never followed). */
export interface LocalEntry {
  /** The name as it is on disk (maybe NFD, as macOS tools sometimes write). */
  name: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  /** For 'other': what it is (a named pipe, a socket, a device). */
  special?: SpecialKind;
  size: number;
  mtimeMs: number;
  /** "dev:ino". */
  inode: string;
}

/** An entry whose name is not valid UTF-8: it has no name a string can hold, so it cannot be synced. */
export interface BadlyNamedEntry {
  /** The name as shown (each invalid byte as U+FFFD). */
  shownAs: string;
  /** The name's bytes, in hexadecimal (to find it in a terminal). */
  bytes: string;
  type: LocalEntry['type'] | 'gone';
}

export const inodeOf = (stats: Stats) => `${stats.dev}:${stats.ino}`;

function specialOf(stats: Stats): SpecialKind | undefined {
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character-device';
  if (stats.isBlockDevice()) return 'block-device';
  return undefined;
}

export function entryOf(name: string, stats: Stats): LocalEntry {
  const type = stats.isSymbolicLink() ? 'symlink' : stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other';
  const entry: LocalEntry = { name, type, size: stats.size, mtimeMs: Math.floor(stats.mtimeMs), inode: inodeOf(stats) };
  if (type === 'other') {
    const special = specialOf(stats);
    if (special) entry.special = special;
  }
  return entry;
}

/** A special entry in words, for the person: "a named pipe (FIFO)". */
export function describeSpecial(entry: Pick<LocalEntry, 'special'>): string {
  switch (entry.special) {
    case 'fifo': return 'a named pipe (FIFO)';
    case 'socket': return 'a socket';
    case 'character-device': return 'a device (character device)';
    case 'block-device': return 'a device (block device)';
    default: return 'neither a file nor a folder';
  }
}

/**
 * The entries of a folder; null when the folder is not there. Entries whose name is not valid UTF-8 cannot be held in
 * a string (Node shows each bad byte as U+FFFD, and that name names nothing on disk): they are left out of the
 * entries and, when `badNames` is given, listed there.
 */
export async function readFolder(dir: string, badNames?: BadlyNamedEntry[]): Promise<LocalEntry[] | null> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  // Gone between readdir and lstat: left out.
  const entries = await mapInSlices(names, (name) => statEntrySync(join(dir, name), name));
  // Only a name holding U+FFFD may be a badly encoded one: the folder is read again as bytes only then.
  if (badNames && names.some((name) => name.includes('\uFFFD'))) badNames.push(...(await badlyNamed(dir)));
  return entries.filter((entry) => entry !== null);
}

async function badlyNamed(dir: string): Promise<BadlyNamedEntry[]> {
  let raw: Buffer[];
  try {
    raw = await readdir(dir, { encoding: 'buffer' });
  } catch {
    return [];
  }
  const prefix = Buffer.from(dir.endsWith(sep) ? dir : `${dir}${sep}`);
  const found: BadlyNamedEntry[] = [];
  for (const bytes of raw) {
    const shownAs = bytes.toString('utf8');
    if (Buffer.from(shownAs, 'utf8').equals(bytes)) continue; // valid UTF-8 (a real U+FFFD in the name)
    let type: BadlyNamedEntry['type'] = 'gone';
    try {
      type = entryOf(shownAs, lstatSync(Buffer.concat([prefix, bytes]))).type;
    } catch {
      // gone meanwhile
    }
    if (type !== 'gone') found.push({ shownAs, bytes: bytes.toString('hex'), type });
  }
  return found;
}

/** Many paths' entries (null where nothing is), stat'ed in time slices (see mapInSlices). */
export function statEntries(paths: readonly string[]): Promise<(LocalEntry | null)[]> {
  return mapInSlices(paths, (path) => statEntrySync(path));
}

function statEntrySync(path: string, name = basename(path)): LocalEntry | null {
  try {
    return entryOf(name, lstatSync(path));
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
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
  return (await readLargeFile(path)).sha1;
}

/** How many first bytes of a file tell an executable whatever its name. */
const HEAD_BYTES = 4096;

/** Files up to this size are read whole in one synchronous read (see readContents); larger ones are streamed. */
const SMALL_FILE_BYTES = 1024 * 1024;

export interface FileContent {
  sha1: string;
  /** The first bytes (up to 4 KiB), to tell an executable whatever its name. */
  head: Uint8Array;
}

/**
 * The SHA-1 and first bytes of each file, read once: what a scan needs of a new or changed file. Small files (by the
 * size their lstat gave) are read whole in time slices, one open, read and close each, with one byte more asked
 * than expected so that a short read says the end was reached; larger ones are streamed a few at a time.
 */
export async function readContents(files: readonly { path: string; size: number }[]): Promise<FileContent[]> {
  const results = await mapInSlices(files, (file) => (file.size <= SMALL_FILE_BYTES ? readSmallFile(file.path, file.size) : null));
  const large = files.flatMap((file, index) => (results[index] === null ? [index] : []));
  for (let i = 0; i < large.length; i += 4) {
    await Promise.all(large.slice(i, i + 4).map(async (index) => (results[index] = await readLargeFile(files[index]!.path))));
  }
  return results as FileContent[];
}

function readSmallFile(path: string, expectedSize: number): FileContent | null {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(expectedSize + 1);
    const bytesRead = readSync(fd, buffer, 0, buffer.length, 0);
    if (bytesRead > expectedSize) return null; // grew since its lstat: streamed like a large file
    const content = buffer.subarray(0, bytesRead);
    return { sha1: hashOf('sha1', content, 'hex'), head: content.subarray(0, HEAD_BYTES) };
  } finally {
    closeSync(fd);
  }
}

async function readLargeFile(path: string): Promise<FileContent> {
  const hash = createHash('sha1');
  let head: Uint8Array | null = null;
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) {
    head ??= Buffer.from((chunk as Buffer).subarray(0, HEAD_BYTES));
    hash.update(chunk as Buffer);
  }
  return { sha1: hash.digest('hex'), head: head ?? new Uint8Array(0) };
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
  let handle: FileHandle;
  try {
    handle = await open(path, 'wx', 0o644);
  } catch (error) {
    throw inWords(error, dir);
  }
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
    await handle.close().catch(warnUnlessMissing('sync', `could not close the temporary download ${path}`));
    await unlink(path).catch(warnUnlessMissing('sync', `could not remove the temporary download ${path}`));
    throw inWords(error, dir);
  }
  try {
    await handle.close();
  } catch (error) {
    await unlink(path).catch(warnUnlessMissing('sync', `could not remove the temporary download ${path}`));
    throw inWords(error, dir);
  }
  return { path, sha1: hash.digest('hex'), size };
}

/**
 * A failure to write a download in `dir` (the disk full, the folder read-only…), in words a person can act on instead
 * of the system's code; anything else (the connection dropped) is left as it is.
 */
function inWords(error: unknown, dir: string): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code) || code.startsWith('ECONN') || code === 'ETIMEDOUT' || code === 'EPIPE') return error;
  const { problem, todo } = fileSystemProblem(error);
  const what = code === 'EACCES' || code === 'EPERM' ? 'make the folder writable for your user (it may have been made read-only)'
    : code === 'EROFS' ? 'mount the disk read-write, or move the sync folder to a disk you can write to'
    : `${todo.charAt(0).toLowerCase()}${todo.slice(1).replace(/\.$/, '')}`;
  return new Error(`cannot write in ${dir}: ${problem}; ${what}`, { cause: error });
}

/** Moves a finished temporary file to `target` only if nothing is there (a hard link fails on an existing name). */
export async function placeNew(temp: string, target: string): Promise<boolean> {
  try {
    await link(temp, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      await unlink(temp).catch(warnUnlessMissing('sync', `could not remove the temporary download ${temp}`));
      return false;
    }
    // File systems without hard links (FAT, some network shares): check, then rename.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EXDEV') {
      if (await statEntry(target)) {
        await unlink(temp).catch(warnUnlessMissing('sync', `could not remove the temporary download ${temp}`));
        return false;
      }
      await rename(temp, target);
      return true;
    }
    await unlink(temp).catch(warnUnlessMissing('sync', `could not remove the temporary download ${temp}`));
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
  } catch (error) {
    engineLog.warn('sync', `the system trash refused ${path}; it goes to the sync folder's own trash`, error);
  }
  return trashToFolder(path, root);
}

export function trashFunction(mode: TrashMode | TrashFile): TrashFile {
  if (typeof mode === 'function') return mode;
  return mode === 'folder' ? trashToFolder : trashToSystem;
}
