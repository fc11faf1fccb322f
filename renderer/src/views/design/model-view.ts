import { UnreadableModelError, unreadable } from './model-error';
import { ModelFetchError, type FetchProgress } from './model-fetch';
import { forwardInput, type CanvasBox } from './model-input';
import { markModelStepAt } from './model-marks';
import type { ModelFacts, ModelWorkerAnswer, ModelWorkerRequest } from './model-worker';

export { unreadable } from './model-error';
export type { ModelFacts } from './model-worker';

/** How long a worker asked to close may take to let its scene go before it is ended. */
const CLOSE_WITHIN_MS = 2_000;

/** What the page hears of a file the model worker fetches, reads and draws. */
export interface ViewWatch {
  /** Bytes fetched of the total, a few times a second and once at the end. */
  onProgress(progress: FetchProgress): void;
  /** The whole file is fetched (and so kept in the file cache); it is read next. */
  onFetched(): void;
  /** The first whole drawing of the model is on the canvas. */
  onDrawn(): void;
  /** The worker stopped after the model was shown (its script failed): why, in words. */
  onFailed(error: UnreadableModelError): void;
}

/** A model read: its facts, and why it is not drawn (null when it is). */
export interface ModelShown { facts: ModelFacts; notDrawn: string | null }

/**
 * The model worker of one 3D view, started as the view opens: it loads while the file is fetched, reads one file and
 * draws it on the view's canvas. Everything the view does goes through it.
 */
export interface ModelView {
  /**
   * Hands `canvas` to the worker (its drawing is the worker's from now on), which fetches a file of the window's host
   * (`url`, of its origin), reads it and makes its scene. Resolves with the model's facts once it can be shown;
   * throws ModelFetchError for the host's answer that is not the file, UnreadableModelError for a file that cannot
   * be read. What the person does on the canvas, and its size, go to the worker from then on. Once only.
   */
  load(url: string, canvas: HTMLCanvasElement, dark: boolean, watch: ViewWatch): Promise<ModelShown>;
  /** Starts drawing, once the page shows the model's facts. */
  show(): void;
  fit(): void;
  /** Shows a G-code file's layers 1 to `layer`. */
  showLayersUpTo(layer: number): void;
  /** Ends the worker: a fetch or read under way stops, the scene and its memory are let go. */
  close(): void;
}

/** The canvas's place and size on the page, and the display's pixels per CSS pixel. */
function boxOf(canvas: HTMLCanvasElement): CanvasBox {
  const rect = canvas.getBoundingClientRect();
  return { left: rect.left, top: rect.top, width: canvas.clientWidth, height: canvas.clientHeight, pixelRatio: globalThis.devicePixelRatio || 1 };
}

/**
 * Starts the model worker for a file of `type` at once, so that its start and the loading of the type's reader and of
 * three.js go on while the file is fetched; `signal` closes it when the view is closed. No three.js on the page.
 */
export function startModelView(type: string, signal?: AbortSignal): ModelView {
  signal?.throwIfAborted();
  const worker = new Worker(new URL('./model-worker.ts', import.meta.url), { type: 'module', name: 'design-sync model view' });
  const post = (request: ModelWorkerRequest, transfer: Transferable[] = []) => worker.postMessage(request, transfer);
  let settle: { resolve(shown: ModelShown): void; reject(error: unknown): void; watch: ViewWatch } | null = null;
  let shown = false;
  let ended = false;
  /** An error before the file was handed over (the module could not be loaded): reported when it is. */
  let failed: unknown = null;
  const undo: (() => void)[] = [];
  /** The worker is gone (ended here, or closing itself after its last answer): what watched the canvas stops. */
  const finish = (terminate: boolean) => {
    if (ended) return;
    ended = true;
    signal?.removeEventListener('abort', aborted);
    if (terminate) worker.terminate();
    for (const each of undo.splice(0)) each();
  };
  const fail = (error: unknown, closing: boolean) => {
    finish(!closing);
    if (settle && !shown) settle.reject(error);
    else if (settle) settle.watch.onFailed(unreadable(error));
    else failed = error;
  };
  const close = () => {
    if (ended) return;
    if (!shown) return finish(true);
    // A shown model's worker lets its scene and context go and closes itself: ending it from here held the page's
    // thread for tens of ms. One that does not answer in time is ended.
    post({ kind: 'close' });
    const deadline = setTimeout(() => worker.terminate(), CLOSE_WITHIN_MS);
    worker.addEventListener('message', (event: MessageEvent<ModelWorkerAnswer>) => {
      if (event.data.kind === 'closed') clearTimeout(deadline);
    });
    finish(false);
  };
  // A view closed while its file is fetched or read ends the worker: a large file is not read for nothing.
  const aborted = () => close();
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
      case 'step':
        markModelStepAt(answer.step, answer.at);
        return;
      case 'fetch-failed':
        return fail(answer.status > 0 ? new ModelFetchError(answer.status) : new Error(answer.message), true);
      case 'unreadable':
        return fail(answer.words ? new UnreadableModelError(answer.words.id, answer.words.values) : unreadable(new Error(answer.message)), true);
      case 'shown':
        shown = true;
        settle?.resolve({ facts: answer.facts, notDrawn: null });
        return;
      case 'not-drawable':
        finish(false);
        settle?.resolve({ facts: answer.facts, notDrawn: answer.message });
        return;
      case 'drawn':
        settle?.watch.onDrawn();
        return;
      case 'closed':
        return;
    }
  };
  worker.onerror = (event) => {
    event.preventDefault();
    fail(event.message
      ? new UnreadableModelError('design.model.error.readerStopped', { why: event.message })
      : new UnreadableModelError('design.model.error.readerStoppedUnknown'), false);
  };
  post({ kind: 'prepare', type });
  return {
    load: (url, canvas, dark, watch) => new Promise<ModelShown>((resolve, reject) => {
      if (settle) throw new Error('a model view shows one file');
      settle = { resolve, reject, watch };
      if (failed !== null) return reject(failed);
      if (signal?.aborted) return reject(signal.reason);
      if (ended) return reject(new UnreadableModelError('design.model.error.readerStoppedUnknown'));
      // Where a canvas cannot be handed over, the worker reads the model and tells its facts, without a drawing.
      const offscreen = typeof canvas.transferControlToOffscreen === 'function' ? canvas.transferControlToOffscreen() : null;
      post({ kind: 'fetch', type, url: new URL(url, location.href).href, canvas: offscreen, box: boxOf(canvas), dark }, offscreen ? [offscreen] : []);
      undo.push(forwardInput(canvas, (input) => post({ kind: 'input', event: input })));
      // Its size, as the page lays it out, and the display's pixel ratio (a window moved to another screen, a zoom).
      let ratio: MediaQueryList | null = null;
      const resized = () => post({ kind: 'resize', box: boxOf(canvas) });
      const watchRatio = () => {
        ratio?.removeEventListener('change', onRatio);
        ratio = matchMedia(`(resolution: ${globalThis.devicePixelRatio || 1}dppx)`);
        ratio.addEventListener('change', onRatio);
      };
      const onRatio = () => {
        watchRatio();
        resized();
      };
      watchRatio();
      const observer = new ResizeObserver(resized);
      observer.observe(canvas);
      undo.push(() => {
        observer.disconnect();
        ratio?.removeEventListener('change', onRatio);
      });
    }),
    show: () => {
      if (!ended) post({ kind: 'show' });
    },
    fit: () => {
      if (!ended) post({ kind: 'fit' });
    },
    showLayersUpTo: (layer) => {
      if (!ended) post({ kind: 'layers', layer });
    },
    close,
  };
}
