import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';

/**
 * What opens in place (a 3D view, a question asked before something that cannot be undone) takes the focus when it
 * opens, closes on Escape, and gives the focus back when it closes: to `returnTo` (an opener that was re-rendered in
 * its place), else to whatever had the focus when it opened. Returns the ref for the element to focus on opening and
 * the keydown handler for the opened part's container.
 */
export function useOpenedInPlace<T extends HTMLElement>(close: () => void, returnTo?: RefObject<HTMLElement | null>): { focusRef: RefObject<T | null>; onKeyDown(event: KeyboardEvent): void } {
  const focusRef = useRef<T | null>(null);
  // Taken at the first render, before anything moved the focus (an effect may run twice: React's StrictMode).
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    // Shown whole where it can be (focus alone may scroll it only partly into view).
    focusRef.current?.focus({ preventScroll: true });
    focusRef.current?.scrollIntoView({ block: 'nearest' });
    return () => {
      // Closed: the opener takes the focus back, unless the focus has meanwhile gone somewhere else on purpose.
      const active = document.activeElement;
      const target = returnTo?.current ?? opener;
      if (target?.isConnected && (active === null || active === document.body || !active.isConnected)) target.focus();
    };
  }, []);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    event.stopPropagation();
    close();
  };
  return { focusRef, onKeyDown };
}
