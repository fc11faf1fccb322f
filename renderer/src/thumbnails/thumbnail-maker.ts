import type { DesignCard, ThumbnailModelView } from '../../../shared';
import { contract } from '../contract/contract';

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
 * Pictures under way at once: the next model is fetched and read (in the 3D view's worker) while this one is drawn and
 * kept; the drawing itself is one at a time (render-thumbnail.ts).
 */
const AT_ONCE = 2;
let running = 0;

const keyOf = (designId: number, model: ThumbnailModelView) => `${designId}:${model.documentId}:${model.version ?? ''}`;

const whenIdle = (run: () => void) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2_000 });
  else setTimeout(run, 50);
};

/**
 * Asks for a picture of a design that has no image, made here from its first model (`card.thumbnailModel`): drawn
 * off-screen one design at a time (the next one fetched and read meanwhile), when the window is idle, then sent to the window's host, which keeps it with the
 * design (never uploads it); its cards are told and show it. Returns what to call when it is no longer wanted (the
 * card left the screen): a picture not started yet is then dropped. Each version of a model is tried once in a window: a
 * model that cannot be read is told to the engine (which remembers it, so no window tries it again), any other
 * failure is logged once and left.
 */
export function requestThumbnail(card: Pick<DesignCard, 'id' | 'thumbnailUrl' | 'thumbnailModel'>): () => void {
  if (card.thumbnailUrl || !card.thumbnailModel) return () => {};
  const key = keyOf(card.id, card.thumbnailModel);
  if (tried.has(key)) return () => {};
  const job = waiting.get(key) ?? { key, designId: card.id, model: card.thumbnailModel, wanted: 0 };
  job.wanted++;
  waiting.set(key, job);
  next();
  let given = false;
  // The card left the screen (or the page closed): not wanted by it any more; one never started is dropped.
  return () => {
    if (given) return;
    given = true;
    job.wanted--;
    if (job.wanted <= 0 && waiting.get(key) === job) waiting.delete(key);
  };
}

function next(): void {
  if (running >= AT_ONCE || waiting.size === 0) return;
  running++;
  whenIdle(() => {
    const job = waiting.values().next().value;
    if (!job) {
      running--;
      return;
    }
    waiting.delete(job.key);
    tried.add(job.key);
    void make(job)
      .catch((error: unknown) => console.warn(`design-sync: no picture of design ${job.designId} could be made from ${job.model.fileName}:`, error))
      .finally(() => {
        running--;
        next();
      });
    // A second picture may start once the window is idle again.
    next();
  });
}

async function modelBytes(model: ThumbnailModelView): Promise<ArrayBuffer | null> {
  const response = await fetch(model.modelUrl);
  if (!response.ok) throw new Error(`the window's host answered ${response.status} for ${model.modelUrl}`);
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_MODEL_BYTES) {
    await response.body?.cancel();
    return null;
  }
  const bytes = await response.arrayBuffer();
  return bytes.byteLength > MAX_MODEL_BYTES ? null : bytes;
}

async function make({ designId, model }: Job): Promise<void> {
  const bytes = await modelBytes(model);
  if (!bytes) {
    console.info(`design-sync: ${model.fileName} is larger than ${MAX_MODEL_BYTES / 1024 ** 2} MiB: no picture is made of it for its card.`);
    return;
  }
  // three.js and the model readers load only when a picture is made (never for the first frame).
  const { renderThumbnail, UnreadableModelError } = await import('./render-thumbnail');
  let picture: Blob;
  try {
    picture = await renderThumbnail(model.type, bytes);
  } catch (error) {
    if (!(error instanceof UnreadableModelError)) throw error;
    const outcome = await contract.request('design.thumbnailFailed', { designId, documentId: model.documentId, reason: error.message });
    if (!outcome.ok) console.warn(`design-sync: the engine was not told that ${model.fileName} cannot be drawn:`, outcome.problem.message);
    return;
  }
  const answer = await fetch(`/thumbnails/designs/${designId}/${model.documentId}`, {
    method: 'PUT', headers: { [THUMBNAIL_HEADER]: '1', 'content-type': 'image/png' }, body: picture,
  });
  if (!answer.ok) throw new Error(`the window's host kept no picture (${answer.status}): ${await answer.text()}`);
}
