/**
 * The 3D view's steps as the page's performance marks (`model:fetched`, `model:read`…), so that where a model's time
 * goes can be read from the page (the window-model-preview benchmark prints them) or a Chromium trace.
 */
export type ModelStep = 'opened' | 'fetched' | 'read' | 'scene' | 'drawing' | 'drawn';

export const MODEL_MARK_PREFIX = 'model:';

export function markModelStep(step: ModelStep): void {
  performance.mark(`${MODEL_MARK_PREFIX}${step}`);
}
