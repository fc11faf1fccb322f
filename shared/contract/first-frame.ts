import type { PreloadedAnswer } from './preloaded-answers';

/**
 * The window's first frame, drawn by `design-sync ui` into the page it serves: the markup React renders for the
 * library's first screen from the answers handed over with the page, so that the first cards are painted as the HTML
 * is parsed, before the window's script has run. The window's script then renders over it.
 *
 * The window's build makes it (renderer/src/first-frame/) into a module beside the built window:
 * `<build>/first-frame/render-first-frame.mjs` next to `<build>/renderer/`.
 */
export interface FirstFrameRenderer {
  /** The markup for the page's root element, or null when the answers do not hold the library's first page, or it is empty. */
  renderFirstFrame(answers: readonly PreloadedAnswer[]): string | null;
}

export const FIRST_FRAME_FOLDER = 'first-frame';
export const FIRST_FRAME_FILE = 'render-first-frame.mjs';
