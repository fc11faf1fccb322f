import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { PagesAhead, pagesNamedByHead } from '../../../electron/engine/api/page-ahead';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { designs, useMisbehavingServices, type SeenRequest } from '../../support/misbehaving-service';
import { problemOf } from '../../support/problems';

/**
 * A walk of pages asks for the next page as soon as the head of the page before it names it: the body of a page is
 * read, parsed and checked while the service works on the next one; when the head counts the pages, the one after
 * too. Never more than two pages ahead of the one the walk waits for, never past the walk's page limit, and a page
 * it does not take is cancelled.
 */

const service = useMisbehavingServices(afterEach);

describe('a walk of a listing over HTTP', () => {
  it("asks for the next page while the page before it is still coming, once that page's head names it", async () => {
    const bodyHeldUntilNextAsked: boolean[] = [];
    let requests: SeenRequest[] = [];
    const paged = await service(async (_, response, seen) => {
      const page = Number(seen.query.get('page'));
      const body = JSON.stringify(designs(5, (page - 1) * 5 + 1));
      response.writeHead(200, {
        'content-type': 'application/json', 'content-length': Buffer.byteLength(body),
        'x-pagination-current-page': page, 'x-pagination-total-count': 15, ...(page < 3 ? { 'x-pagination-next-page': page + 1 } : {}),
      });
      response.write(body.slice(0, 1));
      // The rest of this page's body is held until the next page is asked for (or, should it never be, for a while).
      if (page < 3) bodyHeldUntilNextAsked.push(await nextAskedWithin(() => requests, page + 1, 2_000));
      finish(response, body.slice(1));
    });
    requests = paged.requests;
    const ids: number[] = [];
    for await (const page of new ServiceClient({ baseUrl: paged.url, token: () => null }).allPages<{ id: number }>('/v1/designs', { limit: 5 })) {
      ids.push(...page.items.map((design) => design.id));
    }
    expect(ids).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(bodyHeldUntilNextAsked).toEqual([true, true]);
    expect(requests.map((request) => request.query.get('page'))).toEqual(['1', '2', '3']);
  });

  it('when the heads count the pages, asks for the page after next as the walk takes the next, before that one answered at all', async () => {
    const askedBeforeAnswered: boolean[] = [];
    let requests: SeenRequest[] = [];
    const counted = await service(async (_, response, seen) => {
      const page = Number(seen.query.get('page'));
      // Pages 2 to 5 say nothing until the page after them is asked for (or, should it never be, for a while).
      if (page >= 2 && page <= 5) askedBeforeAnswered.push(await nextAskedWithin(() => requests, page + 1, 2_000));
      const body = JSON.stringify(designs(5, (page - 1) * 5 + 1));
      response.writeHead(200, {
        'content-type': 'application/json', 'content-length': Buffer.byteLength(body),
        'x-pagination-current-page': page, 'x-pagination-per-page': 5, 'x-pagination-total-count': 30, ...(page < 6 ? { 'x-pagination-next-page': page + 1 } : {}),
      });
      finish(response, body);
    });
    requests = counted.requests;
    const ids: number[] = [];
    for await (const page of new ServiceClient({ baseUrl: counted.url, token: () => null }).allPages<{ id: number }>('/v1/designs', { limit: 5 })) {
      ids.push(...page.items.map((design) => design.id));
    }
    expect(ids).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(askedBeforeAnswered).toEqual([true, true, true, true]);
    // Each page once (two asked for at once may come in either order).
    expect(requests.map((request) => Number(request.query.get('page'))).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('does not ask ahead for a page past the items the head counts, though it names one (as the live service does)', async () => {
    const promising = await service((_, response, seen) => {
      const page = Number(seen.query.get('page'));
      const body = JSON.stringify(page <= 2 ? designs(5, (page - 1) * 5 + 1) : []);
      response.writeHead(200, { 'content-type': 'application/json', 'x-pagination-next-page': page + 1, 'x-pagination-total-count': 10, 'x-pagination-last-page': 572 });
      response.end(body);
    });
    const ids: number[] = [];
    for await (const page of new ServiceClient({ baseUrl: promising.url, token: () => null }).allPages<{ id: number }>('/v1/designs', { limit: 5 })) {
      ids.push(...page.items.map((design) => design.id));
    }
    expect(ids).toHaveLength(10);
    // Page 3 is asked for by the walk itself (the headers name it) and is empty: the walk ends there.
    expect(promising.requests.map((request) => request.query.get('page'))).toEqual(['1', '2', '3']);
  });

  it('a page asked for ahead that failed fails the walk where it asks for that page, not before', async () => {
    const failing = await service((_, response, seen) => {
      const page = Number(seen.query.get('page'));
      if (page === 2) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: 'broken page' }));
        return;
      }
      const body = JSON.stringify(designs(5, (page - 1) * 5 + 1));
      response.writeHead(200, { 'content-type': 'application/json', 'x-pagination-next-page': page + 1, 'x-pagination-total-count': 50 });
      response.end(body);
    });
    const client = new ServiceClient({ baseUrl: failing.url, token: () => null, retry: { retries: 0 } });
    const pages = client.allPages<{ id: number }>('/v1/designs', { limit: 5 });
    const first = await pages.next();
    expect(first.value?.items).toHaveLength(5);
    // Page 2 failed while the walk held page 1: the walk learns it when it asks for page 2, not before.
    await failing.requested(2);
    expect((await problemOf(pages.next())).kind).toBe('server-error');
    expect(failing.requests.map((request) => request.query.get('page'))).toEqual(['1', '2']);
  });
});

function finish(response: ServerResponse, rest: string): void {
  if (!response.destroyed) response.end(rest);
}

async function nextAskedWithin(requests: () => SeenRequest[], page: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (requests().some((request) => request.query.get('page') === String(page))) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return false;
}

/** A page asker whose heads and answers the test gives, one page at a time. */
function scriptedPages() {
  const asked: { page: number; signal: AbortSignal; head(...following: number[]): void; answer(): void }[] = [];
  const ask = (page: number, signal: AbortSignal, onFollowingNamed: (following: readonly number[]) => void) => new Promise<string>((resolve, reject) => {
    signal.addEventListener('abort', () => reject(new Error(`page ${page} cancelled`)));
    asked.push({ page, signal, head: (...following) => onFollowingNamed(following), answer: () => resolve(`page ${page}`) });
  });
  const of = (page: number) => asked.filter((entry) => entry.page === page);
  return { ask, asked, of, pagesAsked: () => asked.map((entry) => entry.page) };
}

describe('PagesAhead', () => {
  it('asks for the page a head names once the page it came with is the one the walk waits for, the next only when that is all it names', async () => {
    const pages = scriptedPages();
    const ahead = new PagesAhead(pages.ask, 100);
    const first = ahead.get(1);
    expect(pages.pagesAsked()).toEqual([1]);
    pages.of(1)[0]!.head(2);
    expect(pages.pagesAsked()).toEqual([1, 2]);
    // Page 2's head names page 3 while the walk still waits for page 1: nothing more is asked.
    pages.of(2)[0]!.head(3);
    pages.of(1)[0]!.head(2); // a second attempt at page 1 (a retry) names page 2 again
    expect(pages.pagesAsked()).toEqual([1, 2]);
    pages.of(1)[0]!.answer();
    expect(await first).toBe('page 1');
    // The walk takes page 2 (the request under way), and page 3, which its head named, is asked for now.
    const second = ahead.get(2);
    expect(pages.pagesAsked()).toEqual([1, 2, 3]);
    pages.of(2)[0]!.answer();
    expect(await second).toBe('page 2');
    ahead.stop();
  });

  it('asks for both pages a head names, two under way at most, the page waited for included, and none when a page merely ends', async () => {
    const pages = scriptedPages();
    const ahead = new PagesAhead(pages.ask, 100);
    const first = ahead.get(1);
    pages.of(1)[0]!.head(2, 3);
    // Page 1 and page 2 are under way: page 3 waits.
    expect(pages.pagesAsked()).toEqual([1, 2]);
    pages.of(2)[0]!.head(3, 4);
    pages.of(1)[0]!.answer();
    pages.of(2)[0]!.answer();
    expect(await first).toBe('page 1');
    expect(pages.pagesAsked()).toEqual([1, 2]);
    // The walk takes page 2, which came whole: the two its head named are asked for at once.
    expect(await ahead.get(2)).toBe('page 2');
    expect(pages.pagesAsked()).toEqual([1, 2, 3, 4]);
    const third = ahead.get(3);
    pages.of(3)[0]!.head(4, 5);
    expect(pages.pagesAsked()).toEqual([1, 2, 3, 4]);
    pages.of(3)[0]!.answer();
    expect(await third).toBe('page 3');
    // The walk passes over page 4 (a service whose body said otherwise): it is cancelled.
    void ahead.get(5).catch(() => {});
    expect(pages.of(4)[0]!.signal.aborted).toBe(true);
    expect(pages.pagesAsked()).toEqual([1, 2, 3, 4, 5]);
    ahead.stop();
  });

  it('takes a page asked for two ahead when the walk passes over the one before it, which is cancelled', async () => {
    const pages = scriptedPages();
    const ahead = new PagesAhead(pages.ask, 100);
    const first = ahead.get(1);
    pages.of(1)[0]!.head(2, 3);
    pages.of(1)[0]!.answer();
    await first;
    void ahead.get(2).catch(() => {});
    pages.of(2)[0]!.head(3, 4);
    pages.of(2)[0]!.answer();
    expect(pages.pagesAsked()).toEqual([1, 2, 3]);
    pages.of(3)[0]!.head(4, 5);
    void ahead.get(4).catch(() => {});
    expect(pages.of(3)[0]!.signal.aborted).toBe(true);
    expect(pages.pagesAsked()).toEqual([1, 2, 3, 4]);
    ahead.stop();
    expect(pages.of(4)[0]!.signal.aborted).toBe(false);
  });

  it('cancels a page asked for ahead that the walk does not take, or when it stops', async () => {
    const pages = scriptedPages();
    const ahead = new PagesAhead(pages.ask, 100);
    void ahead.get(1);
    pages.of(1)[0]!.head(2);
    // The walk wants another page than the one asked for ahead (a service whose body said otherwise).
    void ahead.get(5).catch(() => {});
    expect(pages.of(2)[0]!.signal.aborted).toBe(true);
    expect(pages.pagesAsked()).toEqual([1, 2, 5]);
    pages.of(5)[0]!.head(6);
    expect(pages.of(6)[0]!.signal.aborted).toBe(false);
    ahead.stop();
    expect(pages.of(6)[0]!.signal.aborted).toBe(true);
    pages.of(6)[0]!.head(7);
    expect(pages.pagesAsked()).toEqual([1, 2, 5, 6]);
  });

  it('asks for no more pages than the walk may take, and passes the walk\'s cancellation on to every page', async () => {
    const pages = scriptedPages();
    const walk = new AbortController();
    const ahead = new PagesAhead(pages.ask, 2, walk.signal);
    void ahead.get(1).catch(() => {});
    pages.of(1)[0]!.head(2);
    void ahead.get(2).catch(() => {});
    pages.of(2)[0]!.head(3);
    expect(pages.pagesAsked()).toEqual([1, 2]);
    walk.abort();
    expect(pages.asked.every((entry) => entry.signal.aborted)).toBe(true);
  });
});

describe('the pages a head names', () => {
  const named = (page: number, headers: Record<string, string | number>, limit?: number) =>
    pagesNamedByHead(new Headers(Object.entries(headers).map(([name, value]) => [name, String(value)])), page, limit);

  it('names the next page, and the one after it when the head counts items for it', () => {
    const counted = { 'x-pagination-per-page': 5, 'x-pagination-total-count': 15 };
    expect(named(1, { ...counted, 'x-pagination-next-page': 2 })).toEqual([2, 3]);
    expect(named(2, { ...counted, 'x-pagination-next-page': 3 })).toEqual([3]);
    expect(named(3, { ...counted, 'x-pagination-next-page': 4 })).toEqual([]);
    // The page size asked for, when the head does not say it.
    expect(named(1, { 'x-pagination-total-count': 11, 'x-pagination-next-page': 2 }, 5)).toEqual([2, 3]);
    expect(named(1, { 'x-pagination-total-count': 10, 'x-pagination-next-page': 2 }, 5)).toEqual([2]);
    // The live service's last page counts pages of its default size: its total count decides.
    expect(named(1, { 'x-pagination-total-count': 10, 'x-pagination-last-page': 572, 'x-pagination-next-page': 2 }, 5)).toEqual([2]);
  });

  it('names the one after next by the last page when the head has no total count, and only the next without either', () => {
    expect(named(1, { 'x-pagination-last-page': 3, 'x-pagination-next-page': 2 })).toEqual([2, 3]);
    expect(named(2, { 'x-pagination-last-page': 3, 'x-pagination-next-page': 3 })).toEqual([3]);
    expect(named(3, { 'x-pagination-last-page': 3, 'x-pagination-next-page': 4 })).toEqual([]);
    expect(named(1, { 'x-pagination-next-page': 2 })).toEqual([2]);
    expect(named(1, { link: '</v1/designs?page=2&limit=5>; rel="next"' }, 5)).toEqual([2]);
    // A next page that is not the one after this: nothing is guessed beyond it.
    expect(named(1, { 'x-pagination-total-count': 100, 'x-pagination-next-page': 3 }, 5)).toEqual([3]);
    expect(named(2, { 'x-pagination-total-count': 100, 'x-pagination-next-page': 2 }, 5)).toEqual([]);
  });
});
