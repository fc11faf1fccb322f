import { create } from 'zustand';
import type { DesignCard, LibraryPage, LibrarySort, LicenseCode } from '../../../shared';
import { FIRST_LIBRARY_PAGE, LIBRARY_PAGE_SIZE } from '../../../shared/contract/preloaded-answers';
import { contract } from '../contract/contract';
import { useAccount } from './account-store';

/** Designs asked for at a time: a page of the grid, never the whole catalogue. */
export const PAGE_SIZE = LIBRARY_PAGE_SIZE;
/**
 * Pages kept on each side of the visible ones: scrolling back finds them at once, and farther ones are dropped, so
 * scrolling through 100k designs does not hold 100k cards (whose garbage collection stalled the window).
 */
const KEPT_PAGES = 8;
/**
 * A page's count may stop early ("10,000+ designs"): the exact one is asked this long after the page came, once the
 * person stopped typing, so that counting half a million matches never stands between two keystrokes.
 */
const EXACT_COUNT_AFTER_MS = 200;

export interface LibraryFilter {
  query: string;
  license: LicenseCode | '';
  sort: LibrarySort;
  /** Only the designs kept offline. */
  kept: boolean;
}

interface LibraryStore {
  filter: LibraryFilter;
  /** Designs matching the filter (null until the first answer); with totalIsLowerBound, at least this many. */
  total: number | null;
  /** The count stopped early: the exact one is on its way (the grid scrolls over `total` until it comes). */
  totalIsLowerBound: boolean;
  /** The search the shown count and cards answer (the typed one may be ahead of it). */
  shownQuery: string | null;
  /** Cached designs the shown search could not see yet (their search rows are being written behind a pull). */
  notSearchedYet: number;
  /** Cards by page number, for the pages the grid has shown. */
  pages: Record<number, DesignCard[]>;
  catalogueCheckedAt: string | null;
  /** Why the cached designs could not be read. */
  problem: string | null;
  /** Why the check of the catalogue asked here failed: kept until dismissed or the next check. */
  pullProblem: string | null;
  pulling: boolean;
  dismissPullProblem(): void;
  setFilter(change: Partial<LibraryFilter>): void;
  /** Loads the pages that hold designs first..last (what the grid shows). */
  ensureRange(first: number, last: number): void;
  refresh(): void;
  pullCatalogue(): Promise<void>;
}

/** Each change of filter (or of the catalogue) starts a generation; answers to an older one are dropped. */
let generation = 0;
/** The generation `pages` holds: the grid keeps showing it until the new one's first page arrives (no blank flash). */
let shownGeneration = 0;
const loading = new Set<string>();
/**
 * The exact count of a filter, once counted: later pages' early-stopped counts do not replace it (after designs
 * changed, it shows until the new count comes).
 */
let exactTotal: { filter: string; total: number } | null = null;
/** The exact count waiting for the person to stop typing, and the filter it is for. */
let exactCountDue: { filter: string; timer: ReturnType<typeof setTimeout> } | null = null;
const filterKey = ({ query, license, kept }: LibraryFilter) => JSON.stringify([query.trim(), license, kept]);

/** What an answer shows besides its cards: the count (the exact one when known), the search it answers, the check. */
function shownPage(answer: LibraryPage, query: string, exact: number | null) {
  return {
    total: exact ?? answer.total,
    totalIsLowerBound: exact === null && answer.totalIsLowerBound,
    shownQuery: query,
    notSearchedYet: answer.notSearchedYet,
    catalogueCheckedAt: answer.catalogueCheckedAt,
    problem: null,
  };
}

export const useLibrary = create<LibraryStore>((set, get) => {
  async function loadPage(page: number): Promise<void> {
    const key = `${generation}:${page}`;
    if (loading.has(key)) return;
    loading.add(key);
    const asked = generation;
    const { query, license, sort, kept } = get().filter;
    // keptOnly only when asked: the first page the host hands over with the window's page is keyed without it.
    const outcome = await contract.request('library.page', { query, licenses: license ? [license] : [], sort, offset: page * PAGE_SIZE, limit: PAGE_SIZE, ...(kept ? { keptOnly: true } : {}) });
    loading.delete(key);
    if (asked !== generation) return;
    if (!outcome.ok) {
      set({ problem: outcome.problem.message });
      return;
    }
    const sameGeneration = asked === shownGeneration;
    shownGeneration = asked;
    const filter = filterKey(get().filter);
    const exact = outcome.value.totalIsLowerBound && exactTotal?.filter === filter ? exactTotal.total : null;
    if (outcome.value.totalIsLowerBound && !sameGeneration) askExactCount(filter);
    set((state) => ({
      ...shownPage(outcome.value, query, exact),
      pages: sameGeneration ? { ...state.pages, [page]: outcome.value.items } : { [page]: outcome.value.items },
    }));
  }

  /** After the page, when the person stopped typing: every match counted (a newer filter stops it in the engine). */
  function askExactCount(filter: string): void {
    if (exactCountDue?.filter === filter) return;
    if (exactCountDue) clearTimeout(exactCountDue.timer);
    const timer = setTimeout(() => {
      exactCountDue = null;
      const { query, license } = get().filter;
      void contract.request('library.count', { query, licenses: license ? [license] : [] }).then((outcome) => {
        // Stopped by a newer search ('cancelled') or failed: the lower bound stays, as true as it was.
        if (!outcome.ok || filterKey(get().filter) !== filter) return;
        exactTotal = { filter, total: outcome.value.total };
        set({ total: outcome.value.total, totalIsLowerBound: false });
      });
    }, EXACT_COUNT_AFTER_MS);
    exactCountDue = { filter, timer };
  }

  return {
    // The first page the window host hands over with the page itself (FIRST_LIBRARY_PAGE) is this filter's.
    filter: { query: FIRST_LIBRARY_PAGE.query, license: '', sort: FIRST_LIBRARY_PAGE.sort, kept: false },
    total: null,
    totalIsLowerBound: false,
    shownQuery: null,
    notSearchedYet: 0,
    pages: {},
    catalogueCheckedAt: null,
    problem: null,
    pullProblem: null,
    pulling: false,
    dismissPullProblem() {
      set({ pullProblem: null });
    },
    setFilter(change) {
      set((state) => ({ filter: { ...state.filter, ...change } }));
      if (exactCountDue && exactCountDue.filter !== filterKey(get().filter)) {
        clearTimeout(exactCountDue.timer);
        exactCountDue = null;
      }
      // At once, every keystroke: a page of the cache answers in milliseconds, and a stale answer is dropped.
      get().refresh();
    },
    ensureRange(first, last) {
      // Pages still shown from an older filter are not this one's: its own are asked once its first page is in.
      if (shownGeneration !== generation) return;
      const from = Math.floor(first / PAGE_SIZE);
      const to = Math.floor(Math.max(first, last) / PAGE_SIZE);
      const pages = get().pages;
      const far = Object.keys(pages).map(Number).filter((page) => page < from - KEPT_PAGES || page > to + KEPT_PAGES);
      if (far.length > 0) {
        set((state) => {
          const kept = { ...state.pages };
          for (const page of far) delete kept[page];
          return { pages: kept };
        });
      }
      for (let page = from; page <= to; page++) {
        if (!pages[page]) void loadPage(page);
      }
    },
    refresh() {
      generation += 1;
      void loadPage(0);
    },
    async pullCatalogue() {
      set({ pulling: true, pullProblem: null });
      const outcome = await contract.request('catalogue.pull', {});
      set({ pulling: false, pullProblem: outcome.ok ? null : outcome.problem.message });
      get().refresh();
    },
  };
});

// Another service chosen (the engine tells the account's new address): the last pull's problem was the old one's.
useAccount.subscribe((state, previous) => {
  if (!previous.account || !state.account || previous.account.serviceUrl === state.account.serviceUrl) return;
  useLibrary.getState().dismissPullProblem();
  useLibrary.getState().refresh();
});

/**
 * The store as the window shows the first page (FIRST_LIBRARY_PAGE) once it came: what the window host draws the
 * first frame from (renderer/src/first-frame/), so that the frame is what the window's own first render shows.
 */
export function stateWithFirstPage(answer: LibraryPage): Partial<LibraryStore> {
  return { ...shownPage(answer, FIRST_LIBRARY_PAGE.query, null), pages: { 0: answer.items } };
}

let askedBeforeFirstRender = false;

/**
 * Asks for the library's first page as the window's script starts, before React's first render: the answer comes
 * back while the window renders instead of after. The library view's first mount then does not ask again.
 */
export function askFirstPageBeforeRender(): void {
  askedBeforeFirstRender = true;
  useLibrary.getState().refresh();
}

/** Whether the page the library view needs on mounting was asked already (true once, after askFirstPageBeforeRender). */
export function firstPageAskedBeforeRender(): boolean {
  const asked = askedBeforeFirstRender;
  askedBeforeFirstRender = false;
  return asked;
}

/** Changes come in bursts (a pull, then a sync pass): the shown pages are read again once per burst. */
const CHANGES_SETTLE_MS = 150;
let changesTimer: ReturnType<typeof setTimeout> | undefined;

function refreshOncePerBurst(): void {
  if (changesTimer) return;
  changesTimer = setTimeout(() => {
    changesTimer = undefined;
    useLibrary.getState().refresh();
  }, CHANGES_SETTLE_MS);
}

// Designs of the cache changed (a pull, an edit, a design made for a new folder…): the shown pages are read again.
contract.on('designs.changed', refreshOncePerBurst);

// The search index grew behind a pull: a search that could not see every design is asked again (more matches, fewer unseen).
contract.on('search.indexing', () => {
  const { notSearchedYet, filter } = useLibrary.getState();
  if (notSearchedYet > 0 && filter.query.trim() !== '') refreshOncePerBurst();
});

// Back after a drop: the changes told meanwhile were not heard.
contract.onConnection((connection) => {
  if (connection === 'open' && useLibrary.getState().total !== null) useLibrary.getState().refresh();
});
