import { createHash } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { FormDataEncoder } from 'form-data-encoder';
import { throttled, type TokenBucket } from './bandwidth';

/** What was read of an upload's file, once it was read whole. */
export interface FileRead {
  /** Hex SHA-1 of the bytes read (the bytes sent). */
  sha1: string;
  size: number;
  /** The open file's modification time after the last read, in whole milliseconds. */
  mtimeMs: number;
  /** "dev:ino" of the file read. */
  inode: string;
}

export interface UploadFile {
  /** The file on disk; it is streamed, never read whole into memory. */
  path: string;
  /** The name the service sees; defaults to the file's own name. */
  fileName?: string;
  /**
   * Called once the whole file has been read into the body, before the body's last bytes (its closing boundary) are
   * given to the connection: the service cannot act on a request before them. What must be known, durably, before
   * the service can act on it is written here; throwing cuts the request short, so the service never has all of it.
   */
  beforeLastBytes?: (read: FileRead) => void | Promise<void>;
}

export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
}

export interface MultipartBody {
  chunks: AsyncIterable<Uint8Array>;
  headers: Record<string, string>;
  totalBytes: number;
}

/** The file changed (or went) while it was read into an upload's body: what was read is not one version of it. */
export class FileChangedWhileReadError extends Error {
  constructor(path: string) {
    super(`${path} changed while it was being read`);
    this.name = 'FileChangedWhileReadError';
  }
}

const READ_BYTES = 1024 * 1024;

/**
 * The file's bytes, hashed as they are read (one read serves the hash and the body). Like a file-backed Blob, it
 * fails as soon as the file's size or modification time is no longer what they were when it was opened.
 * Read into two buffers in turn: a chunk's memory is reused two chunks later, once the connection has it
 * (streamed-body.ts), so sending a file allocates two megabytes, not its size.
 */
async function* fileBytes(file: UploadFile, expectedSize: number): AsyncGenerator<Uint8Array> {
  const handle = await open(file.path, 'r');
  try {
    const opened = await handle.stat();
    if (opened.size !== expectedSize) throw new FileChangedWhileReadError(file.path);
    const hash = createHash('sha1');
    const buffers = [Buffer.allocUnsafe(Math.min(READ_BYTES, expectedSize)), Buffer.allocUnsafe(Math.min(READ_BYTES, Math.max(0, expectedSize - READ_BYTES)))];
    let read = 0;
    let stat = opened;
    for (let turn = 0; read < expectedSize; turn++) {
      const length = Math.min(READ_BYTES, expectedSize - read);
      const { bytesRead, buffer } = await handle.read(buffers[turn % 2]!, 0, length, read);
      stat = await handle.stat();
      if (bytesRead === 0 || stat.size !== opened.size || stat.mtimeMs !== opened.mtimeMs) throw new FileChangedWhileReadError(file.path);
      const bytes = buffer.subarray(0, bytesRead);
      hash.update(bytes);
      read += bytesRead;
      yield bytes;
    }
    await file.beforeLastBytes?.({ sha1: hash.digest('hex'), size: read, mtimeMs: Math.trunc(stat.mtimeMs), inode: `${stat.dev}:${stat.ino}` });
  } finally {
    await handle.close();
  }
}

/**
 * A multipart/form-data body of Rails-style fields (`image[name]`) and one file, streamed from disk, with a known
 * Content-Length and progress as bytes are taken. form-data-encoder frames it (over a file-backed Blob, which only
 * gives the file's size and name); the file's bytes come from fileBytes, which hashes them on the way.
 * `onStall`: called when the receiver takes no bytes for `stallTimeoutMs`. `throttle`: the upload limit's bucket.
 */
export async function multipartBody(
  hash: string,
  fields: Record<string, string | undefined>,
  file: UploadFile | undefined,
  options: { onProgress?: (progress: UploadProgress) => void; onStall?: () => void; stallTimeoutMs?: number; throttle?: TokenBucket; signal?: AbortSignal } = {},
): Promise<MultipartBody> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.set(`${hash}[${name}]`, value);
  if (file) form.set(`${hash}[file]`, await openAsBlob(file.path), file.fileName ?? basename(file.path));
  const encoder = new FormDataEncoder(form);
  const totalBytes = Number(encoder.contentLength);

  async function* encoded(): AsyncGenerator<Uint8Array> {
    for (const part of encoder.values()) {
      if (part instanceof Uint8Array) yield part;
      else yield* fileBytes(file!, part.size);
    }
  }

  async function* counted(): AsyncGenerator<Uint8Array> {
    let sentBytes = 0;
    let lastReport = 0;
    let stallTimer: NodeJS.Timeout | undefined;
    const armStall = () => {
      if (!options.stallTimeoutMs || !options.onStall) return;
      clearTimeout(stallTimer);
      stallTimer = setTimeout(options.onStall, options.stallTimeoutMs);
    };
    try {
      armStall();
      // Within the upload limit (shared by every upload of the profile), in slices: progress and the stall timer see each.
      for await (const chunk of options.throttle ? throttled(encoded(), options.throttle, options.signal) : encoded()) {
        sentBytes += chunk.byteLength;
        const now = Date.now();
        if (now - lastReport >= 100) {
          lastReport = now;
          options.onProgress?.({ sentBytes, totalBytes });
        }
        yield chunk;
        armStall();
      }
      options.onProgress?.({ sentBytes: totalBytes, totalBytes });
    } finally {
      clearTimeout(stallTimer);
    }
  }

  return {
    chunks: counted(),
    headers: { 'content-type': encoder.contentType, 'content-length': String(totalBytes) },
    totalBytes,
  };
}
