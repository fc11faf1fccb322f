/**
 * The thumbnail worker: makes a model's picture wholly off the page's thread. It fetches the model from the window's
 * host (or takes its bytes), reads it as the 3D view's model worker does, draws it with WebGL on an OffscreenCanvas
 * and encodes the PNG; the page only receives the picture. Pictures are drawn one at a time as their models arrive
 * (the next one's model is fetched while one is drawn). Built by Vite as a module worker of the window's own origin
 * (the CSP allows `worker-src 'self'`, nothing else).
 */
import { UnreadableModelError } from '../views/design/model-parts';
import type { ModelWords } from '../views/design/model-words';
import { NoWebGLError, renderThumbnail, type PhaseTimes } from './render-thumbnail';

export interface ThumbnailWorkerRequest {
  id: number;
  /** The model's type (its file's extension, lower case). */
  type: string;
  /** Where to fetch the model (an absolute URL of the window's host), or its bytes (transferred). */
  source: { url: string; maxBytes: number } | { bytes: ArrayBuffer };
}

/** No drawing starts before this time (ms since the epoch, as performance.timeOrigin + now()): the person is typing. */
export interface ThumbnailWorkerHold {
  holdUntil: number;
}

export type ThumbnailWorkerAnswer = {
  id: number;
  /** How long its steps took (the worker's clock, which starts at `timeOrigin`). */
  took: PhaseTimes;
  timeOrigin: number;
} & (
  | { outcome: 'drawn'; picture: Blob }
  /** The model is larger than `maxBytes`: not fetched whole, no picture made. */
  | { outcome: 'tooLarge' }
  /** The file cannot be read: why, in words. */
  | { outcome: 'unreadable'; words: ModelWords; message: string }
  /** No picture can be drawn here, whatever the model (no WebGL in the worker): said in English, for the console. */
  | { outcome: 'unavailable'; message: string }
  /** Anything else (the host's answer, a lost context): said in English, for the console. */
  | { outcome: 'failed'; message: string }
);

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ThumbnailWorkerRequest | ThumbnailWorkerHold>) => void) | null;
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

/** Pictures are drawn in turn, one at a time on the worker's one canvas; a model is fetched meanwhile. */
let turn: Promise<unknown> = Promise.resolve();
/** See ThumbnailWorkerHold. */
let holdUntil = 0;

/** Settles once no hold is in force (the page moves it on with each key the person types). */
async function unheld(): Promise<void> {
  for (;;) {
    const wait = holdUntil - (performance.timeOrigin + performance.now());
    if (wait <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

async function answer({ id, type, source }: ThumbnailWorkerRequest): Promise<ThumbnailWorkerAnswer> {
  const took: PhaseTimes = {};
  const about = { id, took, timeOrigin: performance.timeOrigin };
  try {
    const began = performance.now();
    const bytes = 'bytes' in source ? source.bytes : await fetched(source.url, source.maxBytes);
    if ('url' in source) took.fetch = [began, performance.now() - began];
    if (!bytes) return { ...about, outcome: 'tooLarge' };
    const drawing = turn.then(unheld).then(() => renderThumbnail(type, bytes, took));
    turn = drawing.catch(() => undefined);
    return { ...about, outcome: 'drawn', picture: await drawing };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UnreadableModelError) return { ...about, outcome: 'unreadable', words: error.words, message };
    if (error instanceof NoWebGLError) return { ...about, outcome: 'unavailable', message };
    return { ...about, outcome: 'failed', message };
  }
}

scope.onmessage = (event) => {
  const message = event.data;
  if ('holdUntil' in message) holdUntil = Math.max(holdUntil, message.holdUntil);
  else void answer(message).then((answered) => scope.postMessage(answered));
};
