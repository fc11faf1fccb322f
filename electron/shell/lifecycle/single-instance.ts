/** What a second launch of the app does: it quits at once, and the first brings its window forward. */

/** The part of a BrowserWindow that showing it again needs (a fake in tests). */
export interface RevealableWindow {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  isVisible(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

export type SecondInstanceAction = 'create-window' | 'reveal-window';

/**
 * On `second-instance`: restore the window if minimised, show it if hidden in the tray, and focus it; when it was
 * closed (the app lives on in the tray), say so, so that main makes a new one.
 */
export function revealWindow(window: RevealableWindow | null): SecondInstanceAction {
  if (window === null || window.isDestroyed()) return 'create-window';
  if (window.isMinimized()) window.restore();
  if (!window.isVisible()) window.show();
  window.focus();
  return 'reveal-window';
}

