import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { PAGE_SIZE, useLibrary } from '../../stores/library-store';
import { DesignCardView } from './DesignCardView';
import { focusMove } from './grid-keys';
import { noteCardOpened, noteLibraryScroll, takeLibraryPlace } from './library-return';
import { offsetShowingRow, rowsOnScreen, sameRows } from './row-window';

const CARD_WIDTH = 220;
const GAP = 16;
const ROW_HEIGHT = 312;
/**
 * The grid's size until it is measured: three rows, a screenful on most windows. The window host's first frame is
 * drawn with it (renderer/src/first-frame/), and so is the window's first render, before its layout is known.
 */
const UNMEASURED = { width: 4 * (CARD_WIDTH + GAP), height: 3 * ROW_HEIGHT };
/** Rows drawn beyond the screen on each side. */
const OVERSCAN = 2;
/**
 * Browsers cap an element's height (Chromium near 33.5 million px: 430,000 designs at four a row). A grid taller than
 * this is scrolled at a scale: each pixel of the scrollbar moves the grid `scale` pixels, so a million designs fit.
 */
const MAX_SCROLL_HEIGHT = 15_000_000;

/** The scroller's height for a grid `height` tall: its last viewport still reaches the grid's last row. */
function scaledHeight(height: number, viewport: number, scale: number): number {
  return scale === 1 ? height : (height - viewport) / scale + viewport;
}

/** A card's link carries its place in the grid (for the arrow keys) and its design (for coming back). */
function cardLinkSelector(target: { index: number } | { id: number }): string {
  return 'index' in target ? `a[data-index="${target.index}"]` : `a[data-design-id="${target.id}"]`;
}

function cardIndexOf(target: EventTarget): number | null {
  const index = target instanceof HTMLAnchorElement ? target.dataset.index : undefined;
  return index === undefined ? null : Number(index);
}

/**
 * Rows of cards, virtualized: only the visible rows are in the DOM, and only their pages are asked of the engine.
 * Arrow keys move between cards (Home/End in the row, Ctrl+Home/End to the first and last); coming back from a design,
 * the grid is where it was and the card that was opened has the focus.
 */
export function DesignGrid({ total }: { total: number }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [returning] = useState(takeLibraryPlace);
  const [columns, setColumns] = useState(returning?.columns || 4);
  // A card to focus once it is shown (scrolled to, and its page loaded): by index (arrow keys) or by design (coming back).
  const [focusTarget, setFocusTarget] = useState<{ index: number } | { id: number } | null>(returning?.openedId ? { id: returning.openedId } : null);
  const pages = useLibrary((store) => store.pages);
  const ensureRange = useLibrary((store) => store.ensureRange);

  const rows = Math.ceil(total / columns);
  const scale = Math.max(1, (rows * ROW_HEIGHT) / MAX_SCROLL_HEIGHT);
  const scaleNow = useRef(scale);
  // Where the grid is scrolled to (in its own pixels: the scroller's are `scale` times fewer) and how tall the
  // scroller is; drawn before the layout is known with UNMEASURED (the host's first frame, the window's first render).
  const [view, setView] = useState(() => ({ offset: (returning?.scrollTop ?? 0) * scale, viewport: UNMEASURED.height }));
  const drawn = rowsOnScreen(rows, ROW_HEIGHT, view.offset, view.viewport, OVERSCAN);
  // What the grid drew last, for a scroll to tell whether it shows other rows.
  const drawnNow = useRef({ rows, drawn });
  useLayoutEffect(() => {
    drawnNow.current = { rows, drawn };
  });

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      setColumns(Math.max(1, Math.floor((entry!.contentRect.width + GAP) / (CARD_WIDTH + GAP))));
      setView((before) => (before.viewport === element.clientHeight ? before : { ...before, viewport: element.clientHeight }));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // A scroll draws the grid again when it shows other rows, or, scrolled at a scale, always: its rows are then
  // placed from the offset (the scroller moves them one pixel for each of the grid's `scale`).
  const followScroll = (element: HTMLDivElement) => {
    const offset = element.scrollTop * scaleNow.current;
    const { rows: rowsNow, drawn: drawnBefore } = drawnNow.current;
    if (scaleNow.current === 1 && sameRows(drawnBefore, rowsOnScreen(rowsNow, ROW_HEIGHT, offset, element.clientHeight, OVERSCAN))) return;
    setView((before) => (before.offset === offset ? before : { ...before, offset }));
  };
  // The count grew past the cap (an exact count replacing "10,000+"): the grid stays on the designs it showed.
  useLayoutEffect(() => {
    const before = scaleNow.current;
    scaleNow.current = scale;
    if (before !== scale && scroller.current) scroller.current.scrollTop = (scroller.current.scrollTop * before) / scale;
  }, [scale]);
  // Rows are placed in the grid's pixels, shifted so that the visible ones are where the scroller shows.
  const shift = view.offset * (1 - 1 / scale);
  const first = drawn.first * columns;
  const last = Math.min(total - 1, (drawn.last + 1) * columns - 1);
  useEffect(() => ensureRange(first, last), [first, last, ensureRange, pages]);

  useLayoutEffect(() => {
    if (returning && scroller.current) scroller.current.scrollTop = returning.scrollTop;
  }, [returning]);

  useEffect(() => {
    if (!focusTarget || !scroller.current) return;
    // Coming back, focus goes to the card only if nothing else took it (the search, asked for by "/" or Ctrl+K).
    if ('id' in focusTarget && document.activeElement && document.activeElement !== document.body) {
      setFocusTarget(null);
      return;
    }
    const link = scroller.current.querySelector<HTMLAnchorElement>(cardLinkSelector(focusTarget));
    if (!link) return;
    link.focus({ preventScroll: 'id' in focusTarget });
    setFocusTarget(null);
  });

  const moveFocus = (event: KeyboardEvent) => {
    const index = cardIndexOf(event.target);
    const next = index === null ? null : focusMove(event, index, columns, total);
    if (next === null) return;
    event.preventDefault();
    const element = scroller.current;
    const to = element && offsetShowingRow(Math.floor(next / columns), ROW_HEIGHT, element.scrollTop * scale, element.clientHeight);
    if (element && to !== null) element.scrollTop = to / scale;
    setFocusTarget({ index: next });
  };

  return (
    <div ref={scroller} className="grid-scroller" tabIndex={-1} onKeyDown={moveFocus} data-scroll-scale={scale}
      onScroll={(event) => {
        followScroll(event.currentTarget);
        noteLibraryScroll(event.currentTarget.scrollTop, columns);
      }}
      onClick={(event) => {
        const id = (event.target as HTMLElement).closest<HTMLElement>('[data-design-id]')?.dataset.designId;
        if (id) noteCardOpened(Number(id));
      }}>
      <div className="grid-body" style={{ height: scaledHeight(rows * ROW_HEIGHT, view.viewport, scale) }}>
        {Array.from({ length: Math.max(0, drawn.last - drawn.first + 1) }, (_, i) => drawn.first + i).map((row) => (
          <div key={row} className="grid-row" role="list" style={{ transform: `translateY(${row * ROW_HEIGHT - shift}px)`, gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
            {Array.from({ length: columns }, (_, column) => {
              const index = row * columns + column;
              if (index >= total) return null;
              const card = pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE];
              return <div key={index} role="listitem">{card ? <DesignCardView card={card} index={index} /> : <div className="card card-loading" aria-busy="true" />}</div>;
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
