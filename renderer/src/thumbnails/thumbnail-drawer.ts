/**
 * The page's side of the thumbnail worker (thumbnail-worker.ts): one worker for every picture, made for the first
 * and let go a while after the last (with it its WebGL context). The page's thread only posts a request and receives
 * the PNG.
 */
import type { ModelWords } from '../views/design/model-words';
import type { ThumbnailWorkerAnswer, ThumbnailWorkerHold, ThumbnailWorkerRequest } from './thumbnail-worker';

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

/**
 * The worker could not be started (or stopped before its first answer), or has no WebGL: no picture can be made in
 * this window.
 */
export class ThumbnailsUnavailableError extends Error {
  override name = 'ThumbnailsUnavailableError';
}

/** What came of a picture asked for: its PNG, or none since the model is larger than allowed. */
export type Drawn = { picture: Blob } | { tooLarge: true };

interface Pending {
  resolve(drawn: Drawn): void;
  reject(error: unknown): void;
}

/** The names of the performance measures of a picture's steps in the worker (read by the thumbnails benchmark). */
export const THUMBNAIL_MEASURE = { fetch: 'design-sync thumbnail fetch', read: 'design-sync thumbnail read', draw: 'design-sync thumbnail draw' } as const;

/** Each step's time in the worker, on the page's performance timeline (the worker's clock moved to the page's). */
function measure(answer: ThumbnailWorkerAnswer): void {
  const shift = answer.timeOrigin - performance.timeOrigin;
  for (const step of ['fetch', 'read', 'draw'] as const) {
    const took = answer.took[step];
    if (took) performance.measure(THUMBNAIL_MEASURE[step], { start: took[0] + shift, duration: took[1] });
  }
}

let worker: Worker | null = null;
let releaseTimer: ReturnType<typeof setTimeout> | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();
/** Set once a worker stopped before answering anything or had no WebGL: every later picture is refused with it at once. */
let unavailable: ThumbnailsUnavailableError | null = null;

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
  let answered = false;
  made.onmessage = (event: MessageEvent<ThumbnailWorkerAnswer>) => {
    answered = true;
    const answer = event.data;
    measure(answer);
    const asked = pending.get(answer.id);
    pending.delete(answer.id);
    if (pending.size === 0 && worker === made) releaseTimer = setTimeout(() => stopWorker(new Error('The thumbnail worker was let go.')), WORKER_KEPT_MS);
    if (!asked) return;
    if (answer.outcome === 'drawn') asked.resolve({ picture: answer.picture });
    else if (answer.outcome === 'tooLarge') asked.resolve({ tooLarge: true });
    else if (answer.outcome === 'unreadable') asked.reject(new UnreadableThumbnailModelError(answer.message, answer.words));
    else if (answer.outcome === 'unavailable') asked.reject(unavailable = new ThumbnailsUnavailableError(answer.message));
    else asked.reject(new Error(answer.message));
  };
  made.onerror = (event) => {
    // The worker stopped (it could not load, or ran out of memory): what it was asked fails; the next picture starts a new one.
    event.preventDefault();
    if (worker !== made) return;
    const why = event.message || 'no reason given';
    if (answered) stopWorker(new Error(`The thumbnail worker stopped: ${why}.`));
    else stopWorker(unavailable = new ThumbnailsUnavailableError(`The thumbnail worker could not be started: ${why}.`));
  };
  worker = made;
  return made;
}

/**
 * A model's picture (THUMBNAIL_WIDTH × THUMBNAIL_HEIGHT, PNG) made in the thumbnail worker, from the host's URL of it
 * (fetched there, not when larger than `maxBytes`) or from its bytes (handed over: do not use them after). Pictures
 * are drawn one at a time, the next one's model fetched meanwhile. Rejects with UnreadableThumbnailModelError, with why in words, for a file that cannot be read;
 * Rejects with ThumbnailsUnavailableError for every picture once the worker could not be started or had no WebGL. `signal` drops the answer (a drawing under way is finished by the worker, unseen).
 */
export function drawThumbnail(type: string, source: { url: string; maxBytes: number } | { bytes: ArrayBuffer }, signal?: AbortSignal): Promise<Drawn> {
  return new Promise<Drawn>((resolve, reject) => {
    signal?.throwIfAborted();
    if (unavailable) throw unavailable;
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

/**
 * No drawing of a picture asked for starts in the worker before `until` (the page's performance.now()): the person is
 * typing. One under way is finished.
 */
export function holdDrawing(until: number): void {
  if (!worker) return;
  const hold: ThumbnailWorkerHold = { holdUntil: performance.timeOrigin + until };
  worker.postMessage(hold);
}
