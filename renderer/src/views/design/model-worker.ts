/**
 * The model worker: fetches a model file from the window's host, reads it (a 200 MB file takes seconds to parse; 3MF
 * and AMF are XML, read here with @xmldom/xmldom since a worker has no DOMParser) and draws it on the view's canvas,
 * which the page hands over as an OffscreenCanvas: three.js, its WebGL context and every drawing live here, and the
 * page's thread is never held by them. The page forwards what the person does on the canvas (model-input.ts) and its
 * size; the worker tells it the model's facts once read, and when the first whole drawing is done. Started as the view
 * opens, it loads the reader for the file's type and three.js while the file is fetched. Built by Vite as a module
 * worker of the window's own origin (the CSP allows `worker-src 'self'`, nothing else).
 */
import { ElementProxy } from './model-element-proxy';
import { fetchModelBytes, ModelFetchError, type FetchProgress } from './model-fetch';
import type { CanvasBox, ForwardedEvent } from './model-input';
import { sendModelSteps, type ModelStep } from './model-marks';
import { facetsOnly, inPieces, UnreadableModelError, type ModelRead } from './model-parts';
import type { ModelScene } from './model-scene';
import type { ModelWords } from './model-words';
import { readerOf, readModel } from './model-read';

/** What the page knows of a model once it is read: what it shows beside the drawing. */
export interface ModelFacts {
  triangles: number;
  /** Its size in millimetres: width, depth (along the bed) and height. */
  size: { width: number; depth: number; height: number };
  /** A G-code file's layers (bottom first, with their height in mm); empty for a mesh. */
  layers: { z: number }[];
  /** What the file holds that the view does not show, one sentence each. */
  notes: ModelWords[];
}

export type ModelWorkerRequest =
  /** The file's type, as soon as it is known: its reader and three.js are loaded (once) while the bytes come. */
  | { kind: 'prepare'; type: string }
  /**
   * A file of the window's host (an absolute URL of its origin), fetched here, read and drawn on `canvas` (the view's,
   * handed over), at `box`; null where the page could not hand it over (only its facts are then told).
   */
  | { kind: 'fetch'; type: string; url: string; canvas: OffscreenCanvas | null; box: CanvasBox; dark: boolean }
  /** The page shows the model's facts: drawing starts. */
  | { kind: 'show' }
  | { kind: 'input'; event: ForwardedEvent }
  | { kind: 'resize'; box: CanvasBox }
  | { kind: 'fit' }
  /** Shows a G-code file's layers 1 to `layer`. */
  | { kind: 'layers'; layer: number }
  /** The view is closed: everything here is let go, and the worker closes itself. */
  | { kind: 'close' };

export type ModelWorkerAnswer =
  /** Bytes fetched of the total (a few a second, and the last one). */
  | { kind: 'progress'; progress: FetchProgress }
  /** The whole file fetched: it is read next. */
  | { kind: 'fetched' }
  /** The host's answer was not the file (`status`), or the fetch failed (`status` 0, the browser's `message`). */
  | { kind: 'fetch-failed'; status: number; message: string }
  /** A file that cannot be read: why, as words (ours) or as a loader's message (`words` null). */
  | { kind: 'unreadable'; message: string; words: ModelWords | null }
  /** The model is read and its scene made: drawn once the page says `show`. */
  | { kind: 'shown'; facts: ModelFacts }
  /**
   * The model is read but cannot be drawn here (no WebGL context, or no canvas): its facts, and why (the browser's
   * words); the worker then closes itself.
   */
  | { kind: 'not-drawable'; facts: ModelFacts; message: string }
  /** A step of the view taken here (model-marks.ts), at `at` ms since the epoch. */
  | { kind: 'step'; step: ModelStep; at: number }
  /** The first whole drawing of the model is done (a fence after it signalled). */
  | { kind: 'drawn' }
  /** The worker let everything go and closes itself. */
  | { kind: 'closed' };

const PROGRESS_EVERY_MS = 150;

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ModelWorkerRequest>) => void) | null;
  postMessage(message: ModelWorkerAnswer, transfer?: Transferable[]): void;
  close(): void;
};

/** The last answer: the worker then closes itself (the page's terminating it held its thread for tens of ms). */
function lastly(answer: ModelWorkerAnswer): void {
  scope.postMessage(answer);
  scope.close();
}

sendModelSteps((step, at) => scope.postMessage({ kind: 'step', step, at }));

/** three.js and the scene's module, loaded once the file is asked for, while its bytes come. */
let sceneModule: Promise<typeof import('./model-scene')> | null = null;
const loadScene = () => (sceneModule ??= import('./model-scene'));

/** The view's canvas, its renderer (or why there is none), and the scene once made. */
const view: {
  element: ElementProxy | null;
  /** Where the canvas is on the page, and its size, as last told. */
  box: CanvasBox;
  renderer: import('three').WebGLRenderer | null;
  noWebGL: string | null;
  scene: ModelScene | null;
  /** The page asked to show (drawing starts once the scene is made). */
  showing: boolean;
  closed: AbortController;
} = { element: null, box: { left: 0, top: 0, width: 1, height: 1, pixelRatio: 1 }, renderer: null, noWebGL: null, scene: null, showing: false, closed: new AbortController() };

/** Made as soon as the file's size is known (its answer's first bytes), while the rest comes. */
async function prepareRenderer(canvas: OffscreenCanvas | null, fileBytes: number | null): Promise<void> {
  if (view.renderer || view.noWebGL !== null) return;
  if (!canvas) {
    view.noWebGL = 'the canvas could not be handed to the model worker';
    return;
  }
  const { makeRenderer } = await loadScene();
  if (view.renderer || view.noWebGL !== null) return;
  try {
    view.renderer = makeRenderer(canvas, fileBytes);
  } catch (error) {
    view.noWebGL = error instanceof Error ? error.message : String(error);
  }
}

async function fetched(url: string, onSize: (bytes: number | null) => void): Promise<ArrayBuffer | null> {
  let said = 0;
  let sized = false;
  try {
    const bytes = await fetchModelBytes(url, view.closed.signal, (progress) => {
      if (!sized) {
        sized = true;
        onSize(progress.total);
      }
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

function unreadableAnswer(error: unknown): ModelWorkerAnswer {
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'unreadable', message, words: error instanceof UnreadableModelError ? error.words : null };
}

async function fetchReadAndDraw(request: Extract<ModelWorkerRequest, { kind: 'fetch' }>): Promise<void> {
  const scene = loadScene();
  // A failure to load three.js is told when the model is shown, not as a stray rejection now.
  scene.catch(() => undefined);
  let renderer: Promise<void> = Promise.resolve();
  let bytes = await fetched(request.url, (size) => {
    renderer = prepareRenderer(request.canvas, size);
  });
  if (!bytes) return;
  const fileBytes = bytes.byteLength;
  let read: ModelRead;
  try {
    const whole = await readModel(request.type, bytes);
    // The file's bytes are not kept while the model is drawn (the worker lives on with the view; 95 MB of an STL).
    bytes = null;
    // An STL file's normals are its facets' (one a triangle): the view draws them flat without them.
    read = inPieces(request.type === 'stl' ? facetsOnly(whole) : whole);
  } catch (error) {
    return lastly(unreadableAnswer(error));
  }
  try {
    const { factsOfRead, showModel } = await scene;
    await renderer;
    await prepareRenderer(request.canvas, fileBytes);
    if (view.closed.signal.aborted) return;
    if (!view.renderer) {
      // Read, but not drawable here: the page shows its facts and says why there is no drawing.
      return lastly({ kind: 'not-drawable', facts: await factsOfRead(request.type, read), message: view.noWebGL ?? '' });
    }
    view.element = new ElementProxy(view.box);
    const shown = await showModel(view.renderer, view.element, view.box, request.type, Promise.resolve(read), request.dark, view.closed.signal);
    if (view.closed.signal.aborted) {
      shown.dispose();
      return;
    }
    view.scene = shown;
    void shown.drawn.then(() => scope.postMessage({ kind: 'drawn' }));
    scope.postMessage({ kind: 'shown', facts: factsOf(shown) });
    if (view.showing) shown.show();
  } catch (error) {
    lastly(unreadableAnswer(error));
  }
}

function factsOf(scene: ModelScene): ModelFacts {
  return { triangles: scene.triangles, size: scene.size, layers: scene.layers, notes: scene.notes };
}

/** Lets the scene, the renderer and its context go, and closes the worker (its memory goes with it). */
function close(): void {
  view.closed.abort();
  view.scene?.dispose();
  view.scene = null;
  view.renderer?.dispose();
  view.renderer = null;
  lastly({ kind: 'closed' });
}

scope.onmessage = (event) => {
  const request = event.data;
  switch (request.kind) {
    case 'prepare':
      // Loaded now; a failure to load them is reported when the file is read or shown.
      readerOf(request.type).catch(() => undefined);
      loadScene().catch(() => undefined);
      return;
    case 'fetch':
      view.box = request.box;
      void fetchReadAndDraw(request);
      return;
    case 'show':
      view.showing = true;
      view.scene?.show();
      return;
    case 'input':
      view.element?.forward(request.event);
      return;
    case 'resize':
      view.box = request.box;
      if (view.scene) view.scene.resize(request.box);
      else view.element?.place(request.box);
      return;
    case 'fit':
      view.scene?.fit();
      return;
    case 'layers':
      view.scene?.showLayersUpTo(request.layer);
      return;
    case 'close':
      close();
      return;
  }
};
