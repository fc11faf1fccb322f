/**
 * The thumbnail worker: makes a model's picture wholly off the page's thread. It fetches the model from the window's
 * host (or takes its bytes), reads it as the 3D view's model worker does, draws it with WebGL on an OffscreenCanvas
 * and encodes the PNG; the page only receives the picture. One picture at a time, in the order asked. Built by Vite as
 * a module worker of the window's own origin (the CSP allows `worker-src 'self'`, nothing else).
 */
import { UnreadableModelError } from '../views/design/model-parts';
import type { ModelWords } from '../views/design/model-words';
import { renderThumbnail } from './render-thumbnail';

export interface ThumbnailWorkerRequest {
  id: number;
  /** The model's type (its file's extension, lower case). */
  type: string;
  /** Where to fetch the model (an absolute URL of the window's host), or its bytes (transferred). */
  source: { url: string; maxBytes: number } | { bytes: ArrayBuffer };
}

export type ThumbnailWorkerAnswer = { id: number } & (
  | { outcome: 'drawn'; picture: Blob }
  /** The model is larger than `maxBytes`: not fetched whole, no picture made. */
  | { outcome: 'tooLarge' }
  /** The file cannot be read: why, in words. */
  | { outcome: 'unreadable'; words: ModelWords; message: string }
  /** Anything else (the host's answer, WebGL): said in English, for the console. */
  | { outcome: 'failed'; message: string }
);

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ThumbnailWorkerRequest>) => void) | null;
  postMessage(message: ThumbnailWorkerAnswer): void;
};

/** The model's bytes from the host, or null when it declares or turns out larger than `maxBytes`. */
async function fetched(url: string, maxBytes: number): Promise<ArrayBuffer | null> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the window's host answered ${response.status} for ${url}`);
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    return null;
  }
  const bytes = await response.arrayBuffer();
  return bytes.byteLength > maxBytes ? null : bytes;
}

async function answer({ id, type, source }: ThumbnailWorkerRequest): Promise<ThumbnailWorkerAnswer> {
  try {
    const bytes = 'bytes' in source ? source.bytes : await fetched(source.url, source.maxBytes);
    if (!bytes) return { id, outcome: 'tooLarge' };
    return { id, outcome: 'drawn', picture: await renderThumbnail(type, bytes) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UnreadableModelError) return { id, outcome: 'unreadable', words: error.words, message };
    return { id, outcome: 'failed', message };
  }
}

/** Pictures are made in turn: one drawing at a time on the worker's one canvas. */
let turn: Promise<void> = Promise.resolve();

scope.onmessage = (event) => {
  const request = event.data;
  turn = turn.then(async () => scope.postMessage(await answer(request)));
};
