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
  body: ReadableStream<Uint8Array>;
  headers: Record<string, string>;
  totalBytes: number;
}

/**
 * A multipart/form-data body of Rails-style fields (`image[name]`) and one file, streamed from disk
 * (form-data-encoder over a file-backed Blob), with a known Content-Length and progress as bytes leave.
 * `stallTimeoutMs`: abort when the receiver takes no bytes for that long.
 */
export async function multipartBody(
  hash: string,
  fields: Record<string, string | undefined>,
  file: UploadFile | undefined,
  options: { onProgress?: (progress: UploadProgress) => void; onStall?: () => void; stallTimeoutMs?: number } = {},
): Promise<MultipartBody> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.set(`${hash}[${name}]`, value);
  if (file) {
    form.set(`${hash}[file]`, await openAsBlob(file.path), file.fileName ?? basename(file.path));
  }
  const encoder = new FormDataEncoder(form);
  const totalBytes = Number(encoder.contentLength);
  const chunks = encoder.encode();
  let sentBytes = 0;
  let lastReport = 0;
  let stallTimer: NodeJS.Timeout | undefined;
  const armStall = () => {
    if (!options.stallTimeoutMs || !options.onStall) return;
    clearTimeout(stallTimer);
    stallTimer = setTimeout(options.onStall, options.stallTimeoutMs);
  };

  const body = new ReadableStream<Uint8Array>({
    start: armStall,
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) {
        clearTimeout(stallTimer);
        options.onProgress?.({ sentBytes: totalBytes, totalBytes });
        controller.close();
        return;
      }
      armStall();
      sentBytes += next.value.byteLength;
      controller.enqueue(next.value);
      const now = Date.now();
      if (now - lastReport > 100) {
        lastReport = now;
        options.onProgress?.({ sentBytes, totalBytes });
      }
    },
    cancel() {
      clearTimeout(stallTimer);
      void chunks.return?.(undefined);
    },
  });
  return { body, headers: { 'content-type': encoder.contentType, 'content-length': String(totalBytes) }, totalBytes };
}
