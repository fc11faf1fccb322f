/**
 * The page's side of the thumbnail worker (thumbnail-worker.ts): one worker for every picture, made for the first
 * and let go a while after the last (with it its WebGL context). The page's thread only posts a request and receives
 * the PNG.
 */
import type { ModelWords } from '../views/design/model-words';
import type { ThumbnailWorkerAnswer, ThumbnailWorkerRequest } from './thumbnail-worker';

/** The worker (and its WebGL context) is let go this long after its last picture. */
const WORKER_KEPT_MS = 10_000;

/**
 * A model file the worker could not read (the 3D view's UnreadableModelError, said there in English as its message):
 * why, as words, without loading the model readers on the page.
 */
export class UnreadableThumbnailModelError extends Error {
  override name = 'UnreadableModelError';

  constructor(message: string, readonly words: ModelWords) {
    super(message);
  }
}

/** What came of a picture asked for: its PNG, or none since the model is larger than allowed. */
export type Drawn = { picture: Blob } | { tooLarge: true };

interface Pending {
  resolve(drawn: Drawn): void;
  reject(error: unknown): void;
}

let worker: Worker | null = null;
let releaseTimer: ReturnType<typeof setTimeout> | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

function stopWorker(reason: unknown): void {
  const stopped = worker;
  worker = null;
  stopped?.terminate();
  const waiting = [...pending.values()];
  pending.clear();
  for (const { reject } of waiting) reject(reason);
}

function theWorker(): Worker {
  if (releaseTimer !== null) clearTimeout(releaseTimer);
  releaseTimer = null;
  if (worker) return worker;
  const made = new Worker(new URL('./thumbnail-worker.ts', import.meta.url), { type: 'module', name: 'design-sync thumbnails' });
  made.onmessage = (event: MessageEvent<ThumbnailWorkerAnswer>) => {
    const answer = event.data;
    const asked = pending.get(answer.id);
    pending.delete(answer.id);
    if (pending.size === 0 && worker === made) releaseTimer = setTimeout(() => stopWorker(new Error('The thumbnail worker was let go.')), WORKER_KEPT_MS);
    if (!asked) return;
    if (answer.outcome === 'drawn') asked.resolve({ picture: answer.picture });
    else if (answer.outcome === 'tooLarge') asked.resolve({ tooLarge: true });
    else if (answer.outcome === 'unreadable') asked.reject(new UnreadableThumbnailModelError(answer.message, answer.words));
    else asked.reject(new Error(answer.message));
  };
  made.onerror = (event) => {
    // The worker stopped (it could not load, or ran out of memory): what it was asked fails; the next picture starts a new one.
    event.preventDefault();
    if (worker === made) stopWorker(new Error(`The thumbnail worker stopped: ${event.message || 'no reason given'}.`));
  };
  worker = made;
  return made;
}

/**
 * A model's picture (THUMBNAIL_WIDTH × THUMBNAIL_HEIGHT, PNG) made in the thumbnail worker, from the host's URL of it
 * (fetched there, not when larger than `maxBytes`) or from its bytes (handed over: do not use them after). Pictures
 * are made in the order asked. Rejects with UnreadableThumbnailModelError, with why in words, for a file that cannot be read;
 * `signal` drops the answer (a drawing under way is finished by the worker, unseen).
 */
export function drawThumbnail(type: string, source: { url: string; maxBytes: number } | { bytes: ArrayBuffer }, signal?: AbortSignal): Promise<Drawn> {
  return new Promise<Drawn>((resolve, reject) => {
    signal?.throwIfAborted();
    const id = nextId++;
    const drop = () => {
      pending.delete(id);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', drop, { once: true });
    pending.set(id, {
      resolve(drawn) {
        signal?.removeEventListener('abort', drop);
        resolve(drawn);
      },
      reject(error) {
        signal?.removeEventListener('abort', drop);
        reject(error);
      },
    });
    const request: ThumbnailWorkerRequest = { id, type, source: 'url' in source ? { url: new URL(source.url, location.href).href, maxBytes: source.maxBytes } : source };
    theWorker().postMessage(request, 'bytes' in source ? [source.bytes] : []);
  });
}
