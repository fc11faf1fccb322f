import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import { FormDataEncoder } from 'form-data-encoder';

export interface UploadFile {
  /** The file on disk; it is streamed, never read whole into memory. */
  path: string;
  /** The name the service sees; defaults to the file's own name. */
  fileName?: string;
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

/**
 * A multipart/form-data body of Rails-style fields (`image[name]`) and one file, streamed from disk
 * (form-data-encoder over a file-backed Blob), with a known Content-Length and progress as bytes are taken.
 * `onStall`: called when the receiver takes no bytes for `stallTimeoutMs`.
 */
export async function multipartBody(
  hash: string,
  fields: Record<string, string | undefined>,
  file: UploadFile | undefined,
  options: { onProgress?: (progress: UploadProgress) => void; onStall?: () => void; stallTimeoutMs?: number } = {},
): Promise<MultipartBody> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.set(`${hash}[${name}]`, value);
  if (file) form.set(`${hash}[file]`, await openAsBlob(file.path), file.fileName ?? basename(file.path));
  const encoder = new FormDataEncoder(form);
  const totalBytes = Number(encoder.contentLength);

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
      for await (const chunk of encoder.encode()) {
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
