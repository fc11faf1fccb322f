/**
 * "/" and Ctrl+K (Cmd+K on a Mac) focus the library's search from anywhere in the window: from another view, the
 * library opens with its search focused. "/" is left alone while typing in a field (it is a character there); Ctrl+K
 * always works.
 */
let focusSearch: (() => void) | null = null;
let focusWhenShown = false;

/** The library's search field says how to focus it while it is shown; the returned function takes that back. */
export function offerSearchFocus(focus: () => void): () => void {
  focusSearch = focus;
  if (focusWhenShown) {
    focusWhenShown = false;
    focus();
  }
  return () => {
    if (focusSearch === focus) focusSearch = null;
  };
}

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
}

function isSearchShortcut(event: KeyboardEvent): boolean {
  if (event.altKey || event.shiftKey) return false;
  if (event.key.toLowerCase() === 'k') return event.ctrlKey || event.metaKey;
  return event.key === '/' && !event.ctrlKey && !event.metaKey && !typingIn(event.target);
}

export function installSearchShortcut(): void {
  addEventListener('keydown', (event) => {
    if (event.defaultPrevented || !isSearchShortcut(event)) return;
    event.preventDefault();
    if (focusSearch) {
      focusSearch();
      return;
    }
    focusWhenShown = true;
    location.hash = '#/';
  });
}
