import { UnreadableModelError } from './model-error';
import { ModelFetchError, type FetchProgress } from './model-fetch';
import type { ModelRead } from './model-parts';
import type { ModelWorkerAnswer, ModelWorkerRequest } from './model-worker';

/** What the page hears of a file the model worker fetches. */
export interface FetchWatch {
  /** Bytes fetched of the total, a few times a second and once at the end. */
  onProgress(progress: FetchProgress): void;
  /** The whole file is fetched (and so kept in the file cache); it is read next. */
  onFetched(): void;
}

/** A model worker started as the view opens: it loads while the file is fetched, and reads one file. */
export interface ModelReader {
  /**
   * Fetches a file of the window's host (`url`, of its origin) in the worker and reads it there: its parts as typed
   * arrays, with their bounds, notes and decoded textures. Throws ModelFetchError for the host's answer that is not
   * the file, UnreadableModelError for a file that cannot be read. The worker closes once it has answered. Once only.
   */
  fetchAndRead(url: string, watch: FetchWatch): Promise<ModelRead>;
  /** Stops the worker (a file that will not be read, a view closed). */
  stop(): void;
}

/** A loader's own failure, in the person's words. */
export function unreadable(error: unknown): UnreadableModelError {
  if (error instanceof UnreadableModelError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // The loader's own words (English, as three.js says them) for what it could not read.
  return new UnreadableModelError('design.model.error.loaderFailed', { why: message.replace(/^THREE\.\w+:\s*/, '').replace(/\.$/, '') });
}

/**
 * Starts the model worker for a file of `type` at once, so that its start and the loading of the type's reader go on
 * while the file is fetched and the scene is made; `signal` stops it (and a fetch or read under way) when the view is
 * closed. No three.js here: the page loads that only when a model is shown.
 */
export function startModelReader(type: string, signal?: AbortSignal): ModelReader {
  signal?.throwIfAborted();
  const worker = new Worker(new URL('./model-worker.ts', import.meta.url), { type: 'module', name: 'design-sync model reader' });
  let settle: { resolve(read: ModelRead): void; reject(error: unknown): void; watch: FetchWatch } | null = null;
  let stopped = false;
  /** An error before the file was handed over (the module could not be loaded): reported when it is. */
  let failed: unknown = null;
  /** `closing`: the worker has given its last answer and closes itself. */
  const stop = (error?: unknown, closing = false) => {
    if (stopped) return;
    stopped = true;
    signal?.removeEventListener('abort', aborted);
    if (!closing) worker.terminate();
    if (error === undefined) return;
    if (settle) settle.reject(error);
    else failed = error;
  };
  // A view closed while its file is fetched or read stops the worker: a large file is not read for nothing.
  const aborted = () => stop(signal!.reason);
  signal?.addEventListener('abort', aborted, { once: true });
  worker.onmessage = (event: MessageEvent<ModelWorkerAnswer>) => {
    const answer = event.data;
    switch (answer.kind) {
      case 'progress':
        settle?.watch.onProgress(answer.progress);
        return;
      case 'fetched':
        settle?.watch.onFetched();
        return;
      case 'fetch-failed':
        return stop(answer.status > 0 ? new ModelFetchError(answer.status) : new Error(answer.message), true);
      case 'read': {
        const waiting = settle;
        stop(undefined, true);
        waiting?.resolve(answer.read);
        return;
      }
      case 'unreadable':
        return stop(answer.words ? new UnreadableModelError(answer.words.id, answer.words.values) : unreadable(new Error(answer.message)), true);
    }
  };
  worker.onerror = (event) => {
    event.preventDefault();
    stop(event.message
      ? new UnreadableModelError('design.model.error.readerStopped', { why: event.message })
      : new UnreadableModelError('design.model.error.readerStoppedUnknown'));
  };
  const prepare: ModelWorkerRequest = { kind: 'prepare', type };
  worker.postMessage(prepare);
  const ask = (request: ModelWorkerRequest, watch: FetchWatch) => new Promise<ModelRead>((resolve, reject) => {
    if (settle) throw new Error('a model reader reads one file');
    settle = { resolve, reject, watch };
    if (failed !== null) return reject(failed);
    if (signal?.aborted) return reject(signal.reason);
    if (stopped) return reject(new UnreadableModelError('design.model.error.readerStoppedUnknown'));
    worker.postMessage(request);
  });
  return {
    fetchAndRead: (url, watch) => ask({ kind: 'fetch', type, url: new URL(url, location.href).href }, watch),
    stop: () => stop(new UnreadableModelError('design.model.error.readerStoppedUnknown')),
  };
}
