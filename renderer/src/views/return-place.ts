import { useLayoutEffect, useRef, type MouseEvent, type UIEvent } from 'react';

/**
 * Where a scrolling view was when it was left (its scroll position, and the link in it that was followed), so that
 * coming back to it (by "←", Back or its tab) finds it as it was, with the focus on what was opened. The library's
 * virtualized grid keeps its own (library/library-return.ts); this is for the plain lists: an author's designs, My
 * designs.
 */
interface Place {
  scrollTop: number;
  openedHref: string | null;
}

const places = new Map<string, Place>();

function placeOf(key: string): Place {
  let place = places.get(key);
  if (!place) {
    place = { scrollTop: 0, openedHref: null };
    places.set(key, place);
  }
  return place;
}

/**
 * Props for a view's scroll container. `key` names the view and what it shows (`author:12`); `ready` is true once its
 * content is there to scroll to: the place is restored once, at the first render where it is.
 */
export function useReturnPlace(key: string, ready: boolean) {
  const element = useRef<HTMLElement | null>(null);
  const restoredFor = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!ready || restoredFor.current === key || !element.current) return;
    restoredFor.current = key;
    const place = places.get(key);
    if (!place) return;
    element.current.scrollTop = place.scrollTop;
    const opened = place.openedHref;
    place.openedHref = null;
    if (opened) element.current.querySelector<HTMLElement>(`a[href="${CSS.escape(opened)}"]`)?.focus({ preventScroll: true });
  }, [key, ready]);
  return {
    ref: (node: HTMLElement | null) => {
      element.current = node;
    },
    onScroll: (event: UIEvent<HTMLElement>) => {
      placeOf(key).scrollTop = event.currentTarget.scrollTop;
    },
    // A link followed by mouse or by Enter (which clicks it): the focus comes back to it.
    onClickCapture: (event: MouseEvent<HTMLElement>) => {
      const link = (event.target as Element | null)?.closest?.('a[href^="#/"]');
      if (link) placeOf(key).openedHref = link.getAttribute('href');
    },
  };
}
