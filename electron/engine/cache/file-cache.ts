import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ChunkedAnswer } from '../api/transport';
import type { ReadableDB, WritableDB } from './cache-database';
import { downloadHashes, type StreamHash } from './hash-thread';
import { prepared } from './prepared';
import { engineLog } from '../log/engine-log';

export const DEFAULT_FILE_CACHE_BYTES = 500 * 1024 * 1024;

export interface StoredFile {
  url: string;
  hash: string;
  size: number;
  path: string;
}

export interface EnsureResult extends StoredFile {
  downloaded: boolean;
}

/**
 * Fetches a url as a streamed response (ServiceClient.download does, with the token only for the service's origin),
 * or as the connection's chunks (ServiceClient.downloadChunks: no web stream between the socket and the file). An
 * aborted signal must end the answer's body (as a failure).
 */
export type Fetcher = (url: string, signal?: AbortSignal) => Promise<Response | ChunkedAnswer>;

export interface FileCacheOptions {
  maxBytes?: number;
  now?: () => number;
}

/** Where the bytes with this sha256 live: files/ab/cdef… */
export function pathForHash(root: string, hash: string): string {
  return join(root, hash.slice(0, 2), hash.slice(2));
}

/** Read-only view of the file cache: a url's local file, or null. Never touches the network, never writes. */
export function peekCachedFile(db: ReadableDB, root: string, url: string): StoredFile | null {
  const row = prepared(db, 'SELECT url, hash, size FROM file_index WHERE url = ?').get(url) as { url: string; hash: string; size: number } | undefined;
  if (!row) return null;
  const path = pathForHash(root, row.hash);
  // A file of another size than stored (cut short by a crash before the system wrote it out) is not served.
  return sizeOnDisk(path) === row.size ? { ...row, path } : null;
}

/**
 * Content-addressed, size-bounded cache of downloaded files. The index (url → sha256, size, version,
 * last use) lives in the cache database; the bytes in `root`, named by their hash, so two urls with the
 * same bytes share one file. Downloads stream to a temp file in `root/tmp` while hashing, then are renamed
 * into place: a file under its hash name is always whole. Least recently used urls go first when the bound is passed.
 */
export class FileCache {
  private limit: number;
  private readonly now: () => number;
  private readonly inFlight = new Map<string, Promise<EnsureResult>>();

  constructor(readonly db: WritableDB, readonly root: string, options: FileCacheOptions = {}) {
    this.limit = options.maxBytes ?? DEFAULT_FILE_CACHE_BYTES;
    this.now = options.now ?? Date.now;
    mkdirSync(join(root, 'tmp'), { recursive: true });
    this.removeStaleTempFiles();
  }

  get maxBytes(): number {
    return this.limit;
  }

  /** A new size bound; what no longer fits is evicted now, least recently used first. */
  setLimit(bytes: number): void {
    this.limit = bytes;
    this.evict();
  }

  /** The local file for a url, or null; marks it used. Never touches the network. */
  localPath(url: string): string | null {
    const found = peekCachedFile(this.db, this.root, url);
    if (!found) return null;
    prepared(this.db, 'UPDATE file_index SET last_used_at = ? WHERE url = ?').run(this.now(), url);
    return found.path;
  }

  /** Whether the url is cached at this version (e.g. the image's updated_at) with its whole file present. */
  has(url: string, version: string | null = null): boolean {
    const row = prepared(this.db, 'SELECT hash, size, version FROM file_index WHERE url = ?').get(url) as { hash: string; size: number; version: string | null } | undefined;
    return row !== undefined && row.version === version && sizeOnDisk(pathForHash(this.root, row.hash)) === row.size;
  }

  /** The url's file, downloading it only when it is missing or cached for another version. */
  async ensure(url: string, fetcher: Fetcher, options: { version?: string | null; signal?: AbortSignal; onBytes?: (bytes: number) => void } = {}): Promise<EnsureResult> {
    const version = options.version ?? null;
    if (this.has(url, version)) return { ...peekCachedFile(this.db, this.root, url)!, downloaded: false };
    const key = `${url}\n${version}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const work = this.download(url, version, fetcher, options.signal, options.onBytes).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, work);
    return work;
  }

  /** `onBytes` hears each chunk's length as it comes (a download's progress). */
  private async download(url: string, version: string | null, fetcher: Fetcher, signal?: AbortSignal, onBytes?: (bytes: number) => void): Promise<EnsureResult> {
    const response = await fetcher(url, signal);
    const body = response instanceof Response ? response.body : response.chunks;
    if (!body) throw new Error(`No body in the answer for ${url}`);
    const temp = join(this.root, 'tmp', `${randomBytes(8).toString('hex')}.part`);
    let file: FileHandle | null = null;
    try {
      try {
        file = await open(temp, 'wx');
      } catch (error) {
        // The answer is not read: its connection is let go.
        if (body instanceof ReadableStream) await body.cancel(error).catch(() => undefined);
        else await body.return(undefined).catch(() => undefined);
        throw error;
      }
      const { size, digest } = body instanceof ReadableStream
        ? await storeBody(body, file, signal, onBytes)
        : await storeChunks(body, response instanceof Response ? false : response.movable === true, file, signal, onBytes);
      await file.close();
      file = null;
      const path = pathForHash(this.root, digest);
      if (sizeOnDisk(path) === size) rmSync(temp, { force: true });
      else moveInto(temp, path);
      const previous = prepared(this.db, 'SELECT hash FROM file_index WHERE url = ?').get(url) as { hash: string } | undefined;
      const now = this.now();
      prepared(this.db,
        `INSERT INTO file_index (url, hash, size, version, content_type, stored_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (url) DO UPDATE SET hash = excluded.hash, size = excluded.size, version = excluded.version,
           content_type = excluded.content_type, stored_at = excluded.stored_at, last_used_at = excluded.last_used_at`,
      ).run(url, digest, size, version, response.headers.get('content-type'), now, now);
      if (previous && previous.hash !== digest) this.removeIfUnreferenced(previous.hash);
      // A file a kept design needs is not held to the bound: storing it cannot have passed the bound.
      if (!isNeededByKeptDesign(this.db, url)) this.evict(url);
      return { url, hash: digest, size, path, downloaded: true };
    } catch (error) {
      if (file) await file.close().catch((closing: unknown) => engineLog.warn('cache', `a broken download ${temp} could not be closed`, closing));
      rmSync(temp, { force: true });
      throw error;
    }
  }

  /** Bytes on disk: each distinct hash counted once. */
  totalBytes(): number {
    const row = prepared(this.db, 'SELECT coalesce(sum(size), 0) AS total FROM (SELECT hash, max(size) AS size FROM file_index GROUP BY hash)').get() as { total: number };
    return row.total;
  }

  /** Bytes on disk that designs kept offline need (each distinct hash once): never evicted, not held to the bound. */
  keptBytes(): number {
    const row = prepared(this.db, `SELECT coalesce(sum(size), 0) AS total FROM (
      SELECT f.hash, max(f.size) AS size FROM file_index f WHERE f.url IN (SELECT url FROM kept_files) GROUP BY f.hash)`).get() as { total: number };
    return row.total;
  }

  /** What the bound applies to: the bytes of files no design kept offline needs. */
  evictableBytes(): number {
    return this.totalBytes() - this.keptBytes();
  }

  /**
   * Drops least recently used urls until the files no kept design needs fit the bound; `keep` (the file just stored)
   * goes last. A file a design kept offline needs is never dropped (kept_files), nor counted against the bound.
   */
  evict(keep?: string): { removedUrls: number; freedBytes: number } {
    let total = this.evictableBytes();
    let removedUrls = 0;
    let freedBytes = 0;
    if (total <= this.maxBytes) return { removedUrls, freedBytes };
    const candidates = prepared(this.db, `SELECT url, hash, size FROM file_index f
      WHERE url IS NOT ? AND NOT EXISTS (SELECT 1 FROM kept_files k WHERE k.url = f.url)
      ORDER BY last_used_at ASC, stored_at ASC`).iterate(keep ?? null) as Iterable<{ url: string; hash: string; size: number }>;
    const victims: { url: string; hash: string; size: number }[] = [];
    for (const candidate of candidates) {
      victims.push(candidate);
      if (victims.length >= 1000) break;
    }
    for (const victim of victims) {
      if (total <= this.maxBytes) break;
      prepared(this.db, 'DELETE FROM file_index WHERE url = ?').run(victim.url);
      removedUrls++;
      if (this.removeIfUnreferenced(victim.hash)) {
        freedBytes += victim.size;
        total -= victim.size;
      }
    }
    if (total > this.maxBytes && victims.length === 1000) {
      const more = this.evict(keep);
      return { removedUrls: removedUrls + more.removedUrls, freedBytes: freedBytes + more.freedBytes };
    }
    return { removedUrls, freedBytes };
  }

  /** Removes the file of a hash no url points to any more; whether it was unreferenced. */
  private removeIfUnreferenced(hash: string): boolean {
    if (prepared(this.db, 'SELECT 1 FROM file_index WHERE hash = ?').get(hash)) return false;
    rmSync(pathForHash(this.root, hash), { force: true });
    return true;
  }

  /** Temp files left by a process that died mid-download (older than an hour, so never one still being written). */
  private removeStaleTempFiles(): void {
    const dir = join(this.root, 'tmp');
    const cutoff = Date.now() - 60 * 60 * 1000;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      try {
        if (statSync(path).mtimeMs < cutoff) rmSync(path, { force: true });
      } catch (error) {
        // Gone already (its download ended meanwhile) is fine.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') engineLog.warn('cache', `a stale download ${path} could not be removed`, error);
      }
    }
  }
}

/**
 * A download's chunks go to the hash thread (hash-thread.ts) in batches of at least this many bytes: one message, one
 * `writev` and one wake-up of the thread a batch, while the next batch gathers.
 */
const BATCH_BYTES = 256 * 1024;

/**
 * Whether a chunk's memory may be moved to the hash thread as it is: the whole of an ArrayBuffer of its own (not shared,
 * nor a slice of Buffer's pool of small buffers, which is never moved).
 */
function isWholeBuffer(chunk: Uint8Array): boolean {
  return chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && chunk.byteLength > Buffer.poolSize
    && !(chunk.buffer instanceof SharedArrayBuffer);
}

/**
 * A download's bytes on their way into its file, written and hashed (SHA-256, the file's address) on the hash thread a
 * batch at a time while the next batch gathers. A chunk of memory of its own, from a body whose chunks are the
 * reader's (`movable`: node:http's), is moved there as it is (no copy, and it is not left to this thread's garbage
 * collector); any other is copied into a batch's buffer. A body that fits in one batch is hashed here and written on
 * libuv's pool, at its end. `add` returns a promise only when the caller must wait (a batch waiting for the one before).
 */
class BatchedFileWriter {
  private parts: Uint8Array[] = [];
  private batched = 0;
  /** Where chunks that are not moved are copied: the batch's last part while it has room. */
  private gather: Buffer | null = null;
  private gathered = 0;
  private writing: Promise<void> | null = null;
  /** Opened with the first batch sent to the thread. */
  private hash: StreamHash | null = null;
  private size = 0;

  constructor(private readonly file: FileHandle, private readonly onBytes: ((bytes: number) => void) | undefined, private readonly movable: boolean) {}

  add(value: Uint8Array): Promise<void> | undefined {
    if (value.byteLength === 0) return undefined;
    this.size += value.byteLength;
    this.onBytes?.(value.byteLength);
    if (this.movable && isWholeBuffer(value)) {
      this.parts.push(value);
      this.gather = null;
    } else {
      this.copy(value);
    }
    this.batched += value.byteLength;
    return this.batched >= BATCH_BYTES ? this.flush() : undefined;
  }

  /** Every byte written and hashed; resolves with the size and the hex SHA-256. */
  async end(): Promise<{ size: number; digest: string }> {
    if (!this.hash) {
      const hash = createHash('sha256');
      for (const part of this.parts) hash.update(part);
      await writeWhole(this.file, this.parts);
      this.parts = [];
      return { size: this.size, digest: hash.digest('hex') };
    }
    if (this.batched > 0) await this.flush();
    await this.writing;
    return { size: this.size, digest: await this.hash.digest() };
  }

  /** Waits for the write and hash under way (its failure is the caller's to report) and lets all go. */
  async abandon(): Promise<void> {
    await this.writing?.catch(() => undefined);
    this.hash?.drop();
    this.parts = [];
    this.gather = null;
  }

  /** Copies a chunk the batch cannot take as it is into the batch's buffers. */
  private copy(value: Uint8Array): void {
    for (let at = 0; at < value.byteLength;) {
      if (!this.gather || this.gathered === this.gather.byteLength) {
        this.gather = Buffer.allocUnsafeSlow(BATCH_BYTES);
        this.gathered = 0;
        this.parts.push(this.gather.subarray(0, 0));
      }
      const bytes = Math.min(this.gather.byteLength - this.gathered, value.byteLength - at);
      this.gather.set(at === 0 && bytes === value.byteLength ? value : value.subarray(at, at + bytes), this.gathered);
      this.gathered += bytes;
      at += bytes;
      this.parts[this.parts.length - 1] = this.gather.subarray(0, this.gathered);
    }
  }

  /** Sends the batch to the thread once the one before it is done (so that they are written in order). */
  private async flush(): Promise<void> {
    const parts = this.parts;
    this.parts = [];
    this.batched = 0;
    this.gather = null;
    if (this.writing) await this.writing;
    this.hash ??= downloadHashes.open();
    this.writing = this.hash.update(parts, this.file.fd);
    this.writing.catch(() => undefined); // awaited before the next batch or at the end
  }
}

/**
 * Reads a body to its end into `file`; resolves with its size and SHA-256 once every byte is written and hashed. A failure (the body's, a write's, the signal's) leaves no write running when it rejects, so the caller may
 * close and remove the file at once.
 */
async function storeBody(body: ReadableStream<Uint8Array>, file: FileHandle, signal: AbortSignal | undefined, onBytes: ((bytes: number) => void) | undefined): Promise<{ size: number; digest: string }> {
  signal?.throwIfAborted();
  const reader = body.getReader();
  // A read waiting for bytes ends (as done) when the reader is cancelled: the signal is checked after each read.
  const onAbort = () => void reader.cancel(signal!.reason).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  // A web stream's chunks may be views of memory their maker still uses: copied, never moved.
  const writer = new BatchedFileWriter(file, onBytes, false);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      const wait = writer.add(value);
      if (wait) await wait;
    }
    return await writer.end();
  } catch (error) {
    await writer.abandon();
    reader.cancel(error).catch(() => undefined);
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * As `storeBody`, for the connection's chunks: each chunk one step of an async iteration, nothing read ahead. The
 * answer ends (as a failure) when the signal aborts, which the fetcher sees to; ending early closes it.
 */
async function storeChunks(chunks: AsyncGenerator<Uint8Array>, movable: boolean, file: FileHandle, signal: AbortSignal | undefined, onBytes: ((bytes: number) => void) | undefined): Promise<{ size: number; digest: string }> {
  const writer = new BatchedFileWriter(file, onBytes, movable);
  try {
    signal?.throwIfAborted();
    for await (const value of chunks) {
      signal?.throwIfAborted();
      const wait = writer.add(value);
      if (wait) await wait;
    }
    signal?.throwIfAborted();
    return await writer.end();
  } catch (error) {
    await writer.abandon();
    await chunks.return(undefined).catch(() => undefined);
    throw error;
  }
}

/** Writes every byte of the parts, in order, at the file's position (a short write goes on with what is left). */
async function writeWhole(file: FileHandle, parts: readonly Uint8Array[]): Promise<void> {
  let left = parts.slice();
  let bytes = left.reduce((sum, part) => sum + part.byteLength, 0);
  while (bytes > 0) {
    const { bytesWritten } = await file.writev(left);
    if (bytesWritten === 0) throw new Error('a write to the cache stored nothing');
    bytes -= bytesWritten;
    let skip = bytesWritten;
    while (left.length > 0 && skip >= left[0]!.byteLength) skip -= left.shift()!.byteLength;
    if (left.length > 0) left = [left[0]!.subarray(skip), ...left.slice(1)];
  }
}

/** The size of the file at `path`, or -1 when there is none. */
function sizeOnDisk(path: string): number {
  return statSync(path, { throwIfNoEntry: false })?.size ?? -1;
}

/** Renames a whole download into its place, making its hash folder (files/ab) when it is not there yet. */
function moveInto(temp: string, path: string): void {
  try {
    renameSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(path), { recursive: true });
    renameSync(temp, path);
  }
}

/** Whether a design kept offline needs the file at this address (such files are not held to the bound). */
function isNeededByKeptDesign(db: ReadableDB, url: string): boolean {
  return prepared(db, 'SELECT 1 FROM kept_files WHERE url = ?').get(url) !== undefined;
}
