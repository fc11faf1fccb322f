import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ChunkedAnswer } from '../api/transport';
import type { ReadableDB, WritableDB } from './cache-database';
import { downloadHashes, movableBuffer, type StreamHash } from './hash-thread';
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
        : await storeChunks(body, file, signal, onBytes);
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
 * A download's chunks (16–64 KiB each, as the connection gives them) are copied into a buffer of this size, written
 * when full: the chunk's memory is garbage at once, and the buffers are used again, so that downloads do not leave the
 * garbage collector a trail of megabytes to find (holding chunks until written made it run a full collection every 10
 * MB or so).
 */
const WRITE_BUFFER_BYTES = 256 * 1024;
/** Buffers kept for the next downloads (each download uses two: one filled while the other is written). */
const SPARE_BUFFERS = 16;
/** Spare buffers are let go once no download gave one back for this long. */
const SPARES_KEPT_MS = 30_000;
const spareBuffers: Buffer[] = [];
let sparesTimer: NodeJS.Timeout | null = null;
/** Each its own memory: a full one goes to the hash thread and back without a copy. */
const takeBuffer = () => spareBuffers.pop() ?? movableBuffer(WRITE_BUFFER_BYTES);
const giveBack = (buffer: Buffer) => {
  if (spareBuffers.length < SPARE_BUFFERS) spareBuffers.push(buffer);
  if (sparesTimer) sparesTimer.refresh();
  else sparesTimer = setTimeout(() => {
    sparesTimer = null;
    spareBuffers.length = 0;
  }, SPARES_KEPT_MS).unref();
};

/**
 * A download's bytes on their way into its file: copied into one buffer while the other is written and hashed (SHA-256,
 * the file's address) on the hash thread (hash-thread.ts). A body that fits in one buffer is hashed here and written
 * on libuv's pool, at its end.
 * `add` returns a promise only when the caller must wait (a full buffer waiting for the one before it).
 */
class BufferedFileWriter {
  private filling = takeBuffer();
  private spare: Buffer | null = takeBuffer();
  private filled = 0;
  private writing: Promise<void> | null = null;
  /** Opened with the first full buffer. */
  private hash: StreamHash | null = null;
  private size = 0;
  private released = false;

  constructor(private readonly file: FileHandle, private readonly onBytes: ((bytes: number) => void) | undefined) {}

  add(value: Uint8Array): Promise<void> | undefined {
    this.size += value.byteLength;
    this.onBytes?.(value.byteLength);
    if (value.byteLength < WRITE_BUFFER_BYTES - this.filled) {
      this.filling.set(value, this.filled);
      this.filled += value.byteLength;
      return undefined;
    }
    return this.addAcross(value);
  }

  /** Every byte written and hashed; resolves with the size and the hex SHA-256. */
  async end(): Promise<{ size: number; digest: string }> {
    if (!this.hash) {
      const digest = createHash('sha256').update(this.filling.subarray(0, this.filled)).digest('hex');
      if (this.filled > 0) await writeWhole(this.file, this.filling.subarray(0, this.filled));
      this.release();
      return { size: this.size, digest };
    }
    if (this.filled > 0) await this.flush();
    if (this.writing) await this.writing;
    const digest = await this.hash.digest();
    this.release();
    return { size: this.size, digest };
  }

  /** Waits for the write and hash under way (its failure is the caller's to report) and lets all go. */
  async abandon(): Promise<void> {
    await this.writing?.catch(() => undefined);
    this.hash?.drop();
    this.release();
  }

  /** Gives the buffers back (the buffer of a write or hash that failed is left to the garbage collector). */
  private release(): void {
    if (this.released) return;
    this.released = true;
    giveBack(this.filling);
    if (this.spare) giveBack(this.spare);
    this.spare = null;
  }

  private async addAcross(value: Uint8Array): Promise<void> {
    for (let at = 0; at < value.byteLength;) {
      const bytes = Math.min(WRITE_BUFFER_BYTES - this.filled, value.byteLength - at);
      this.filling.set(at === 0 && bytes === value.byteLength ? value : value.subarray(at, at + bytes), this.filled);
      this.filled += bytes;
      at += bytes;
      if (this.filled === WRITE_BUFFER_BYTES) await this.flush();
    }
  }

  /** Has the thread write and hash what `filling` holds while the other buffer is filled (once the one before it is done). */
  private async flush(): Promise<void> {
    const full = this.filling;
    const length = this.filled;
    if (this.writing) await this.writing;
    this.filling = this.spare!;
    this.spare = null;
    this.filled = 0;
    this.hash ??= downloadHashes.open();
    this.writing = this.hash.update(full, length, this.file.fd).then((back) => {
      this.spare = back;
    });
    this.writing.catch(() => undefined); // awaited before the next write or at the end
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
  const writer = new BufferedFileWriter(file, onBytes);
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
async function storeChunks(chunks: AsyncGenerator<Uint8Array>, file: FileHandle, signal: AbortSignal | undefined, onBytes: ((bytes: number) => void) | undefined): Promise<{ size: number; digest: string }> {
  const writer = new BufferedFileWriter(file, onBytes);
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

/** Writes every byte at the file's position (a short write goes on with what is left). */
async function writeWhole(file: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.byteLength;) {
    const { bytesWritten } = await file.write(bytes, at, bytes.byteLength - at);
    if (bytesWritten === 0) throw new Error('a write to the cache stored nothing');
    at += bytesWritten;
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
