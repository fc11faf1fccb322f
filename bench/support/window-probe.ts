/**
 * What the window benchmarks run inside the page. Functions, not strings (the window's CSP forbids eval); this
 * program's TypeScript world is Node's, so the few browser names used are declared here.
 */

interface Entry { startTime: number; duration: number }
interface Element_ { textContent: string | null; getAttribute(name: string): string | null; scrollTop: number; clientHeight: number; scrollHeight: number; getBoundingClientRect(): { top: number; bottom: number } }
interface BrowserWorld {
  document: {
    querySelector(selector: string): Element_ | null;
    querySelectorAll(selector: string): ArrayLike<Element_>;
  };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: { childList?: boolean; subtree?: boolean; characterData?: boolean; attributes?: boolean }): void; disconnect(): void };
  PerformanceObserver: new (callback: (list: { getEntries(): Entry[] }) => void) => { observe(options: { type: string }): void };
  MessageChannel: new () => { port1: { onmessage: (() => void) | null }; port2: { postMessage(value: unknown): void } };
  requestAnimationFrame(callback: (time: number) => void): number;
  addEventListener(type: string, listener: (event: { timeStamp: number; key?: string }) => void, capture: boolean): void;
  performance: { now(): number };
  __bench: ProbeState;
}

/** What one keystroke should bring: the query the grid must answer, its count and its first cards' names. */
export interface ExpectedResults {
  query: string;
  total: number;
  firstNames: string[];
}

export interface ProbeState {
  /** performance.now() (ms since the navigation started) at the first frame painted with a design card in it. */
  firstCardPaintedAt: number | null;
  longTasks: Entry[];
  lastKeydownAt: number | null;
  /** Set by armKeystroke; cleared once painted. */
  expected: ExpectedResults | null;
  /** Keydown → the frame painted after the grid showed the expected results. */
  keystrokeMs: number | null;
}

/**
 * Installed before any of the page's scripts, on every navigation: long tasks, keydowns, and the first frame painted
 * after the first card is in the DOM (a MutationObserver sees the card, then a frame is drawn: requestAnimationFrame
 * runs before that frame's paint, and a message posted from it is delivered after the paint).
 */
export function installProbe(cardSelector: string): void {
  const page = globalThis as unknown as BrowserWorld;
  const state: ProbeState = { firstCardPaintedAt: null, longTasks: [], lastKeydownAt: null, expected: null, keystrokeMs: null };
  page.__bench = state;
  const afterNextPaint = (done: (at: number) => void) => page.requestAnimationFrame(() => {
    const channel = new page.MessageChannel();
    channel.port1.onmessage = () => done(page.performance.now());
    channel.port2.postMessage(null);
  });
  new page.PerformanceObserver((list) => {
    for (const entry of list.getEntries()) state.longTasks.push({ startTime: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask' });
  page.addEventListener('keydown', (event) => (state.lastKeydownAt = event.timeStamp), true);

  const shows = (expected: ExpectedResults): boolean => {
    const section = page.document.querySelector('section.library');
    if (section?.getAttribute('data-shown-query') !== expected.query) return false;
    const count = Number((page.document.querySelector('.library .count')?.textContent ?? '').replace(/\D/g, '') || '0');
    if (count !== expected.total) return false;
    const names = Array.from(page.document.querySelectorAll(`${cardSelector} .card-name`)).slice(0, expected.firstNames.length).map((e) => e.textContent);
    return names.length === expected.firstNames.length && names.every((name, i) => name === expected.firstNames[i]);
  };

  let sawCard = false;
  new page.MutationObserver(() => {
    if (!sawCard && page.document.querySelector(cardSelector)) {
      sawCard = true;
      afterNextPaint((at) => (state.firstCardPaintedAt = at));
    }
    const expected = state.expected;
    if (expected && state.lastKeydownAt !== null && shows(expected)) {
      state.expected = null;
      const keydownAt = state.lastKeydownAt;
      afterNextPaint((at) => (state.keystrokeMs = at - keydownAt));
    }
  }).observe(page.document, { childList: true, subtree: true, characterData: true, attributes: true });
}

/** Before a keystroke: what the grid must show once it has answered it. */
export function armKeystroke(expected: ExpectedResults): void {
  const state = (globalThis as unknown as BrowserWorld).__bench;
  state.lastKeydownAt = null;
  state.keystrokeMs = null;
  state.expected = expected;
}

export interface ScrollRun {
  frames: number;
  durationMs: number;
  startedAt: number;
  endedAt: number;
  scrolledPx: number;
  frameIntervals: number[];
  /** Frames drawn while a card in view was still a loading placeholder. */
  framesWithPlaceholders: number;
}

/**
 * Scrolls the grid from top to bottom by one viewport per frame (a fast fling that still brings every row into
 * view), then waits for the last cards to be filled in. `maxFrames`: stops scrolling after that many frames (a
 * million designs are 78 million pixels of grid: hours at one viewport a frame). A grid taller than the browser
 * allows is scrolled at a scale (its data-scroll-scale): a frame then moves one viewport of the grid, not of the
 * scrollbar.
 */
export function scrollWholeGrid(maxFrames = Infinity): Promise<ScrollRun> {
  const page = globalThis as unknown as BrowserWorld;
  const scroller = page.document.querySelector('.grid-scroller');
  if (!scroller) return Promise.reject(new Error('no grid to scroll'));
  return new Promise((resolve) => {
    const frameIntervals: number[] = [];
    let frames = 0;
    let framesWithPlaceholders = 0;
    let last: number | null = null;
    const startedAt = page.performance.now();
    const placeholdersInView = () => {
      const box = scroller.getBoundingClientRect();
      return Array.from(page.document.querySelectorAll('.card-loading')).some((card) => {
        const rect = card.getBoundingClientRect();
        return rect.bottom > box.top && rect.top < box.bottom;
      });
    };
    const step = (time: number) => {
      if (last !== null) frameIntervals.push(time - last);
      last = time;
      frames++;
      if (placeholdersInView()) framesWithPlaceholders++;
      const bottom = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1 || frames >= maxFrames;
      if (bottom && !placeholdersInView()) {
        const endedAt = page.performance.now();
        resolve({ frames, durationMs: endedAt - startedAt, startedAt, endedAt, scrolledPx: scroller.scrollTop, frameIntervals, framesWithPlaceholders });
        return;
      }
      if (!bottom) scroller.scrollTop += scroller.clientHeight / Number(scroller.getAttribute('data-scroll-scale') ?? '1');
      page.requestAnimationFrame(step);
    };
    page.requestAnimationFrame(step);
  });
}
