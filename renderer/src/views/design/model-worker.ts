/**
 * The model worker: fetches a model file from the window's host and reads it off the window's main thread (a 200 MB
 * file takes seconds to parse; 3MF and AMF are XML, read here with @xmldom/xmldom since a worker has no DOMParser),
 * and sends its geometry back as typed arrays and decoded images whose buffers are transferred, not copied. Started
 * as the view opens, it loads the reader for the file's type while the file is fetched. Built by Vite as a module
 * worker of the window's own origin (the CSP allows `worker-src 'self'`, nothing else).
 */
import { fetchModelBytes, ModelFetchError, type FetchProgress } from './model-fetch';
import { facetsOnly, inPieces, readTransfers, UnreadableModelError, type ModelRead } from './model-parts';
import type { ModelWords } from './model-words';
import { readerOf, readModel } from './model-read';

export type ModelWorkerRequest =
  /** The file's type, as soon as it is known: its reader is loaded (once) while the bytes come. */
  | { kind: 'prepare'; type: string }
  /** A file of the window's host (an absolute URL of its origin), fetched here and read. */
  | { kind: 'fetch'; type: string; url: string };

export type ModelWorkerAnswer =
  /** Bytes fetched of the total (a few a second, and the last one). */
  | { kind: 'progress'; progress: FetchProgress }
  /** The whole file fetched: it is read next. */
  | { kind: 'fetched' }
  /** The host's answer was not the file (`status`), or the fetch failed (`status` 0, the browser's `message`). */
  | { kind: 'fetch-failed'; status: number; message: string }
  | { kind: 'read'; read: ModelRead }
  /** A file that cannot be read: why, as words (ours) or as a loader's message (`words` null). */
  | { kind: 'unreadable'; message: string; words: ModelWords | null };

const PROGRESS_EVERY_MS = 150;

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ModelWorkerRequest>) => void) | null;
  postMessage(message: ModelWorkerAnswer, transfer?: Transferable[]): void;
  close(): void;
};

/** The last answer: the worker then closes itself (the page's terminating it held its thread for tens of ms). */
function lastly(answer: ModelWorkerAnswer, transfer: Transferable[] = []): void {
  scope.postMessage(answer, transfer);
  scope.close();
}

async function fetched(url: string): Promise<ArrayBuffer | null> {
  let said = 0;
  try {
    const bytes = await fetchModelBytes(url, new AbortController().signal, (progress) => {
      const now = performance.now();
      if (now - said < PROGRESS_EVERY_MS && progress.received !== progress.total) return;
      said = now;
      scope.postMessage({ kind: 'progress', progress });
    });
    scope.postMessage({ kind: 'fetched' });
    return bytes;
  } catch (error) {
    lastly({ kind: 'fetch-failed', status: error instanceof ModelFetchError ? error.status : 0, message: error instanceof Error ? error.message : String(error) });
    return null;
  }
}

scope.onmessage = (event) => {
  const request = event.data;
  if (request.kind === 'prepare') {
    // Loaded now; a failure to load it is reported when the file is read.
    readerOf(request.type).catch(() => undefined);
    return;
  }
  void (async () => {
    const bytes = await fetched(request.url);
    if (!bytes) return;
    try {
      const whole = await readModel(request.type, bytes);
      // An STL file's normals are its facets' (one a triangle): the view draws them flat without them.
      const read = inPieces(request.type === 'stl' ? facetsOnly(whole) : whole);
      lastly({ kind: 'read', read }, readTransfers(read));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      lastly({ kind: 'unreadable', message, words: error instanceof UnreadableModelError ? error.words : null });
    }
  })();
};
