import { pageInfo } from './tolerant-readers';

/** Asks for one page; `onNextNamed` is told the next page as soon as this page's head names it (before its body). */
export type PageAsker<P> = (page: number, signal: AbortSignal, onNextNamed: (next: number) => void) => Promise<P>;

interface Asked<P> {
  page: number;
  result: Promise<P>;
  controller: AbortController;
  /** The page this one's head named as the next, once it came. */
  named: number | null;
}

/**
 * The pages of a walk, each asked for as soon as the head of the page before it names it: its body is read, parsed
 * and checked while the service works on the next (on a far service that is most of a page's time). At most one page
 * is asked for ahead of the one the walk waits for, and one the walk does not take is cancelled.
 */
export class PagesAhead<P> {
  /** The page asked for ahead, not yet taken by the walk. */
  private ahead: Asked<P> | null = null;
  /** The page the walk took last: when its head names the next, that one is asked for at once. */
  private taken: Asked<P> | null = null;
  private stopped = false;
  private asked = 0;

  /** `maxPages`: a walk asks for no more pages than this, ahead or not (it stops there). */
  constructor(private readonly ask: PageAsker<P>, private readonly maxPages: number, private readonly signal?: AbortSignal) {}

  /** Page `page`: the request already under way for it, or a new one. */
  get(page: number): Promise<P> {
    let asked = this.ahead;
    this.ahead = null;
    if (asked?.page !== page) {
      asked?.controller.abort();
      asked = this.start(page);
    }
    this.taken = asked;
    // Its head came while the page before it was still waited for: the next one is asked for now.
    if (asked.named !== null) this.askAhead(asked.named);
    return asked.result;
  }

  /** Cancels the page asked for ahead (the walk ended or stopped). */
  stop(): void {
    this.stopped = true;
    this.ahead?.controller.abort();
    this.ahead = null;
  }

  private start(page: number): Asked<P> {
    this.asked++;
    const controller = new AbortController();
    const signal = this.signal ? AbortSignal.any([this.signal, controller.signal]) : controller.signal;
    const asked: Asked<P> = { page, controller, named: null, result: undefined as unknown as Promise<P> };
    asked.result = this.ask(page, signal, (next) => {
      asked.named = next;
      if (this.taken === asked) this.askAhead(next);
    });
    return asked;
  }

  private askAhead(page: number): void {
    if (this.stopped || this.ahead !== null || this.asked >= this.maxPages) return;
    const asked = this.start(page);
    // A page asked for ahead and never taken fails (cancelled) unseen; one taken fails where the walk awaits it.
    asked.result.catch(() => {});
    this.ahead = asked;
  }
}

/**
 * The next page a page's head names (as pageOf reads it from the whole answer), when it names one after `page` and
 * the items the head counts are not all on this page and those before it (`limit` a page, unless the head says):
 * a service that always promises another page is not asked for the one past its end ahead of time.
 */
export function nextPageNamedByHead(headers: Headers, page: number, limit: number | undefined): number | null {
  const info = pageInfo(headers);
  if (info.nextPage === undefined || info.nextPage === null || info.nextPage <= page) return null;
  if (info.lastPage !== undefined && page >= info.lastPage) return null;
  const perPage = info.perPage ?? limit;
  if (info.totalCount !== undefined && perPage !== undefined && page * perPage >= info.totalCount) return null;
  return info.nextPage;
}
