import type { DesignCard, ThumbnailModelView } from '../../../shared';
import { contract } from '../contract/contract';
import { drawThumbnail, holdDrawing, ThumbnailsUnavailableError, UnreadableThumbnailModelError, type Drawn } from './thumbnail-drawer';

/** A model larger than this is not fetched only to make a card's picture (its page's 3D preview still shows it). */
export const MAX_MODEL_BYTES = 64 * 1024 ** 2;
/** The header the window's host asks of a picture it keeps (a cross-site form cannot send it). */
const THUMBNAIL_HEADER = 'x-design-sync-thumbnail';

interface Job {
  key: string;
  designId: number;
  model: ThumbnailModelView;
  /** How many cards (or pages) on screen want it now; none left, it is dropped before it starts. */
  wanted: number;
}

/** Pictures started in this window: each design's model version is tried once, whatever happens. */
const tried = new Set<string>();
/** Asked for and not started yet, in the order asked. */
const waiting = new Map<string, Job>();
/**
 * Pictures asked of the worker and not answered yet: two, so that the next model is fetched while one is drawn (the
 * worker draws one at a time; the page's thread only sends them on).
 */
const AT_ONCE = 2;
let running = 0;
/** The next picture's start is waited for (a quiet moment, then an idle one): asked for once, however many cards ask. */
let scheduled = false;
/** The worker could not be started, or had no WebGL, and that was said: nothing more is tried or said. */
let unavailableSaid = false;

/** No picture is started until this long after the person's last key: typing is answered first. */
const QUIET_AFTER_INPUT_MS = 300;
/**
 * Nor until this long after the first card asked for one: the window's first moments (its first views, a search
 * typed at once) are not shared with starting the worker and its WebGL context.
 */
const QUIET_AFTER_FIRST_ASK_MS = 1_000;
/** performance.now() before which no picture starts. */
let quietUntil = 0;
let firstAsk = true;
if (typeof addEventListener === 'function') {
  for (const type of ['keydown', 'input', 'compositionupdate']) {
    addEventListener(type, () => {
      quietUntil = Math.max(quietUntil, performance.now() + QUIET_AFTER_INPUT_MS);
      // A picture asked of the worker and not drawn yet waits too (one under way is finished, on its own thread).
      if (running > 0) holdDrawing(quietUntil);
    }, { capture: true, passive: true });
  }
}

const keyOf = (designId: number, model: ThumbnailModelView) => `${designId}:${model.documentId}:${model.version ?? ''}`;

const inputPending = () => (navigator as Navigator & { scheduling?: { isInputPending?(): boolean } }).scheduling?.isInputPending?.() ?? false;

const whenIdle = (run: () => void) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 1_000 });
  else setTimeout(run, 50);
};

/**
 * Asks for a picture of a design that has no image, made here from its first model (`card.thumbnailModel`): made in
 * the thumbnail worker (fetched, read, drawn and encoded there, drawn one design at a time), each started only when
 * the window is idle and the person has not typed for a moment, then sent to the window's host, which keeps it with the design
 * (never uploads it); its cards are told and show it. Returns what to call when it is no longer wanted (the card
 * left the screen): a picture not started yet is then dropped. Each version of a model is tried once in a window: a
 * model that cannot be read is told to the engine (which remembers it, so no window tries it again), any other
 * failure is logged once and left.
 */
export function requestThumbnail(card: Pick<DesignCard, 'id' | 'thumbnailUrl' | 'thumbnailModel'>): () => void {
  if (card.thumbnailUrl || !card.thumbnailModel) return () => {};
  const key = keyOf(card.id, card.thumbnailModel);
  if (tried.has(key) || unavailableSaid) return () => {};
  if (firstAsk) {
    firstAsk = false;
    quietUntil = Math.max(quietUntil, performance.now() + QUIET_AFTER_FIRST_ASK_MS);
  }
  const job = waiting.get(key) ?? { key, designId: card.id, model: card.thumbnailModel, wanted: 0 };
  job.wanted++;
  waiting.set(key, job);
  schedule();
  let given = false;
  // The card left the screen (or the page closed): not wanted by it any more; one never started is dropped.
  return () => {
    if (given) return;
    given = true;
    job.wanted--;
    if (job.wanted <= 0 && waiting.get(key) === job) waiting.delete(key);
  };
}

/** Runs `run` once the person has not typed for QUIET_AFTER_INPUT_MS (nor the window's first moments) and the window is idle. */
function whenQuiet(run: () => void): void {
  const wait = quietUntil - performance.now();
  if (wait > 0) {
    setTimeout(() => whenQuiet(run), wait);
    return;
  }
  whenIdle(() => {
    if (inputPending() || quietUntil > performance.now()) whenQuiet(run);
    else run();
  });
}

/** Starts the next picture at a quiet moment: asked for once, however many cards ask meanwhile. */
function schedule(): void {
  if (running >= AT_ONCE || scheduled || waiting.size === 0) return;
  scheduled = true;
  whenQuiet(() => {
    scheduled = false;
    start();
  });
}

function start(): void {
  const job = waiting.values().next().value;
  if (!job || running >= AT_ONCE) return;
  waiting.delete(job.key);
  tried.add(job.key);
  running++;
  void make(job)
    .catch((error: unknown) => {
      if (!(error instanceof ThumbnailsUnavailableError)) {
        console.warn(`design-sync: no picture of design ${job.designId} could be made from ${job.model.fileName}:`, error);
        return;
      }
      // Said once: no other picture is tried in this window.
      if (!unavailableSaid) console.warn('design-sync: no pictures can be made from models in this window:', error);
      unavailableSaid = true;
      waiting.clear();
    })
    .finally(() => {
      running--;
      schedule();
    });
  // The next one is asked for at once, while this one is fetched (when the person is still not typing).
  schedule();
}

/**
 * Makes one picture in the worker; resolves once it is made (or not) and, at a quiet moment, being sent to the host
 * (the next picture is drawn while this one is sent).
 */
async function make({ designId, model }: Job): Promise<void> {
  let drawn: Drawn;
  try {
    drawn = await drawThumbnail(model.type, { url: model.modelUrl, maxBytes: MAX_MODEL_BYTES });
  } catch (error) {
    if (!(error instanceof UnreadableThumbnailModelError)) throw error;
    return noPicture(designId, model, error.message);
  }
  // Remembered by the engine (as it does itself for a model it knows is too large): the card stops waiting for one.
  if ('tooLarge' in drawn) return noPicture(designId, model, `the model is larger than the ${MAX_MODEL_BYTES / 1024 ** 2} MiB a picture is made from`);
  // Kept at a quiet moment too: the host's answer changes the cards on screen, which the page then draws anew.
  await new Promise<void>((resolve) => whenQuiet(resolve));
  void keep(designId, model, drawn.picture)
    .catch((error: unknown) => console.warn(`design-sync: the picture of design ${designId} made from ${model.fileName} was not kept:`, error));
}

/** Tells the engine no picture is made of this model (why, in `reason`): it is not asked for again. */
async function noPicture(designId: number, model: ThumbnailModelView, reason: string): Promise<void> {
  const outcome = await contract.request('design.thumbnailFailed', { designId, documentId: model.documentId, reason });
  if (!outcome.ok) console.warn(`design-sync: the engine was not told that no picture is made of ${model.fileName}:`, outcome.problem.message);
}

async function keep(designId: number, model: ThumbnailModelView, picture: Blob): Promise<void> {
  const answer = await fetch(`/thumbnails/designs/${designId}/${model.documentId}`, {
    method: 'PUT', headers: { [THUMBNAIL_HEADER]: '1', 'content-type': 'image/png' }, body: picture,
  });
  if (!answer.ok) throw new Error(`the window's host kept no picture (${answer.status}): ${await answer.text()}`);
}
