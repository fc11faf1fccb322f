/**
 * The 3D view's steps as the page's performance marks (`model:fetched`, `model:read`…), so that where a model's time
 * goes can be read from the page (the window-model-preview benchmark prints them) or a Chromium trace. The steps
 * taken in the model worker (read, scene, drawing, drawn) are sent to the page with their time and marked there at it.
 */
export type ModelStep = 'opened' | 'fetched' | 'read' | 'scene' | 'drawing' | 'drawn';

export const MODEL_MARK_PREFIX = 'model:';

/** Where the steps go instead of this realm's marks (the model worker sends them to the page); null: marked here. */
let sink: ((step: ModelStep, at: number) => void) | null = null;

/** Sends the steps taken here to `send`, each with its time as milliseconds since the epoch (timeOrigin + now). */
export function sendModelSteps(send: ((step: ModelStep, at: number) => void) | null): void {
  sink = send;
}

export function markModelStep(step: ModelStep): void {
  if (sink) sink(step, performance.timeOrigin + performance.now());
  else performance.mark(`${MODEL_MARK_PREFIX}${step}`);
}

/** A step taken elsewhere (the model worker) at `at` (ms since the epoch), marked in this realm's timeline at that time. */
export function markModelStepAt(step: ModelStep, at: number): void {
  performance.mark(`${MODEL_MARK_PREFIX}${step}`, { startTime: Math.max(0, at - performance.timeOrigin) });
}
