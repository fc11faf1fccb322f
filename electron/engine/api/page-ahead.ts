import { pageInfo } from './tolerant-readers';

/**
 * Asks for one page; `onFollowingNamed` is told, as soon as this page's head came (before its body), the pages its
 * head says follow it, in order (pagesNamedByHead).
 */
export type PageAsker<P> = (page: number, signal: AbortSignal, onFollowingNamed: (following: readonly number[]) => void) => Promise<P>;

interface Asked<P> {
  page: number;
  result: Promise<P>;
  controller: AbortController;
  /** The pages this one's head named as following it, once it came. */
  following: readonly number[] | null;
  /** Whether its answer came whole (or it failed). */
  settled: boolean;
}

/**
 * How many of a walk's pages may be under way at once, the one it waits for included. Over a far link each request
 * is mostly the round trip: with two under way, a pull over a link adding 20 ms to each request took 0.54–0.58× the
 * time of a loop asking for one page after the other at 10,000 designs and 0.57× at 100,000, where with the next
 * page asked for only once the head of the page before it came it took 0.97–1.07×. Two connections to a service at
 * a time is what HTTP/1.1 long advised.
 */
export const PAGES_UNDER_WAY = 2;

/**
 * The pages of a walk, each asked for as soon as the head of the page before it shows it exists: its body is read,
 * parsed and checked while the service works on the next (on a far service that is most of a page's time). When the
 * head also counts the pages after it (its total count, its last page), the one after that is asked for too once
 * the walk takes the next: at most PAGES_UNDER_WAY pages under way, two pages ahead of the one the walk waits for
 * at most, and one the walk does not take is cancelled. New pages are asked for only when the walk takes a page or
 * that page's head comes, never when one merely ends: the walk looks at a page before it asks for the next.
 */
export class PagesAhead<P> {
  /** The pages asked for ahead, not yet taken by the walk, in order. */
  private ahead: Asked<P>[] = [];
  /** The page the walk took last: when its head names the pages following it, those are asked for at once. */
  private taken: Asked<P> | null = null;
  /** The pages the last head of a taken page named as following it (those after the page taken since). */
  private following: readonly number[] = [];
  private stopped = false;
  private asked = 0;

  /** `maxPages`: a walk asks for no more pages than this, ahead or not (it stops there). */
  constructor(private readonly ask: PageAsker<P>, private readonly maxPages: number, private readonly signal?: AbortSignal) {}

  /** Page `page`: the request already under way for it, or a new one. */
  get(page: number): Promise<P> {
    const at = this.ahead.findIndex((asked) => asked.page === page);
    const underWay = at === -1 ? undefined : this.ahead[at];
    // Those asked for before it, which the walk passed over (all of them when it wants another page), are not wanted.
    for (const passed of this.ahead.splice(0, at === -1 ? this.ahead.length : at + 1)) {
      if (passed !== underWay) passed.controller.abort();
    }
    const asked = underWay ?? this.start(page);
    this.taken = asked;
    // Its head came while the page before it was still waited for: the pages it named are asked for now; else those
    // the head before it named after it.
    this.following = asked.following ?? this.following.filter((following) => following > page);
    this.askAhead();
    return asked.result;
  }

  /** Cancels the pages asked for ahead (the walk ended or stopped). */
  stop(): void {
    this.stopped = true;
    for (const asked of this.ahead.splice(0)) asked.controller.abort();
  }

  private start(page: number): Asked<P> {
    this.asked++;
    const controller = new AbortController();
    const signal = this.signal ? AbortSignal.any([this.signal, controller.signal]) : controller.signal;
    const asked: Asked<P> = { page, controller, following: null, settled: false, result: undefined as unknown as Promise<P> };
    asked.result = this.ask(page, signal, (following) => {
      asked.following = following;
      if (this.taken !== asked) return;
      this.following = following;
      this.askAhead();
    });
    const settle = () => { asked.settled = true; };
    asked.result.then(settle, settle);
    return asked;
  }

  private underWay(): number {
    return this.ahead.filter((asked) => !asked.settled).length + (this.taken && !this.taken.settled ? 1 : 0);
  }

  private askAhead(): void {
    for (const page of this.following) {
      if (this.ahead.some((asked) => asked.page === page)) continue;
      if (this.stopped || this.underWay() >= PAGES_UNDER_WAY || this.asked >= this.maxPages) return;
      const asked = this.start(page);
      // A page asked for ahead and never taken fails (cancelled) unseen; one taken fails where the walk awaits it.
      asked.result.catch(() => {});
      this.ahead.push(asked);
    }
  }
}

/**
 * The pages a page's head says follow it, in order. The next page it names (as pageOf reads it from the whole answer),
 * when it names one after `page` and the items the head counts are not all on this page and those before it (`limit`
 * a page, unless the head says): a service that always promises another page is not asked for the one past its end
 * ahead of time. Then, when that is the page after this one and the head counts the pages (its total count, or else
 * its last page), the one after it, if it holds items too.
 */
export function pagesNamedByHead(headers: Headers, page: number, limit: number | undefined): number[] {
  const info = pageInfo(headers);
  const next = info.nextPage;
  if (next === undefined || next === null || next <= page) return [];
  if (info.lastPage !== undefined && page >= info.lastPage) return [];
  const perPage = info.perPage ?? limit;
  const total = info.totalCount;
  if (total !== undefined && perPage !== undefined) {
    if (page * perPage >= total) return [];
    return next === page + 1 && next * perPage < total && (info.lastPage === undefined || next < info.lastPage) ? [next, next + 1] : [next];
  }
  return next === page + 1 && info.lastPage !== undefined && next < info.lastPage ? [next, next + 1] : [next];
}
