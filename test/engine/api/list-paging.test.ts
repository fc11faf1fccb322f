import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { designs, sendJson, type MisbehavingService, type Script, useMisbehavingServices } from '../../support/misbehaving-service';
import { problemOf } from '../../support/problems';

/**
 * Every page of every list is read: a design's images and documents too, when the service pages them (X-Pagination-*
 * headers as the real service sends them, or an RFC 8288 Link header), while a service that does not page is asked
 * once. A walk ends at an empty page whatever the headers say, and paging headers that lie end it with a message
 * rather than a walk without end or a listing silently cut.
 */

const service = useMisbehavingServices(afterEach);

function client(baseUrl: string) {
  return new ServiceClient({ baseUrl, token: () => 'the-token', retry: { retries: 0 } });
}

const image = (id: number) => ({ id, name: `image-${id}.png`, imagable_id: 7, file: { url: `/uploads/image/${id}/original.png` } });

/** The real service's X-Pagination headers for `page` of `total` items, `perPage` a page. */
function pagingHeaders(page: number, perPage: number, total: number): Record<string, number> {
  const last = Math.max(1, Math.ceil(total / perPage));
  return {
    'x-pagination-current-page': page, 'x-pagination-first-page': 1, 'x-pagination-last-page': last,
    'x-pagination-total-count': total, 'x-pagination-per-page': perPage,
    ...(page < last ? { 'x-pagination-next-page': page + 1 } : {}),
    ...(page > 1 ? { 'x-pagination-previous-page': page - 1 } : {}),
  };
}

/** Serves `items` `perPage` at a time by the `page` parameter, with the real service's paging headers. */
function pagedList(items: unknown[], perPage: number): Script {
  return (_, response, seen) => {
    const page = Number(seen.query.get('page') ?? 1);
    sendJson(response, items.slice((page - 1) * perPage, page * perPage), 200, pagingHeaders(page, perPage, items.length));
  };
}

/** The pages asked for, by number (the first page, asked with no number, first): two may be under way at once. */
const pagesAsked = (s: MisbehavingService) => s.requests.map((r) => r.query.get('page'))
  .sort((a, b) => (a === null ? 0 : Number(a)) - (b === null ? 0 : Number(b)));

describe("a design's images and documents", () => {
  it('listImages follows every page the X-Pagination headers announce', async () => {
    const paged = await service(pagedList(Array.from({ length: 12 }, (_, i) => image(i + 1)), 5));
    const images = await client(paged.url).listImages(7);
    expect(images.map((i) => i.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(pagesAsked(paged)).toEqual([null, '2', '3']);
  });

  it('listDocuments follows a Link header\'s rel="next"', async () => {
    const linked = await service((_, response, seen) => {
      const page = Number(seen.query.get('page') ?? 1);
      const base = `http://127.0.0.1/v1/designs/7/documents`;
      const links = [`<${base}?page=3>; rel="last"`, ...(page < 3 ? [`<${base}?page=${page + 1}>; rel="next"`] : [])];
      sendJson(response, [{ id: page * 10, name: `part-${page}.stl` }], 200, { link: links.join(', ') });
    });
    const documents = await client(linked.url).listDocuments(7);
    expect(documents.map((d) => d.id)).toEqual([10, 20, 30]);
    expect(pagesAsked(linked)).toEqual([null, '2', '3']);
  });

  it('a service that does not page them is asked once, as before', async () => {
    const flat = await service((_, response) => sendJson(response, Array.from({ length: 150 }, (_, i) => image(i + 1))));
    expect(await client(flat.url).listImages(7)).toHaveLength(150);
    expect(flat.requests).toHaveLength(1);
  });

  it('the pull\'s conditional list reads every page when the list changed, and one request when it did not', async () => {
    const items = Array.from({ length: 7 }, (_, i) => image(i + 1));
    const paged = await service((request, response, seen) => {
      const page = Number(seen.query.get('page') ?? 1);
      if (page === 1 && request.headers['if-none-match'] === '"v1"') {
        response.writeHead(304, { etag: '"v1"' });
        response.end();
        return;
      }
      sendJson(response, items.slice((page - 1) * 3, page * 3), 200, { ...pagingHeaders(page, 3, items.length), etag: '"v1"' });
    });
    const api = client(paged.url);
    const changed = await api.getConditionalList('/v1/designs/7/images');
    expect(changed.notModified).toBe(false);
    if (changed.notModified) return;
    expect(changed.value.map((i) => (i as { id: number }).id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(changed.etag).toBe('"v1"');
    expect(await api.getConditionalList('/v1/designs/7/images', { etag: changed.etag })).toEqual({ notModified: true });
    expect(pagesAsked(paged)).toEqual([null, null, '2', '3']);
  });
});

async function walk(baseUrl: string, options: { limit?: number; maxPages?: number } = {}): Promise<number[]> {
  const ids: number[] = [];
  for await (const page of client(baseUrl).allPages<{ id: number }>('/v1/designs', { limit: options.limit ?? 5, maxPages: options.maxPages })) {
    ids.push(...page.items.map((d) => d.id));
  }
  return ids;
}

describe('walking a listing whose paging headers lie', () => {
  it('an empty page ends the walk even when its headers say there is another', async () => {
    const lying = await service((_, response, seen) => {
      const page = Number(seen.query.get('page'));
      sendJson(response, page === 1 ? designs(5) : [], 200, { 'x-pagination-current-page': page, 'x-pagination-next-page': page + 1 });
    });
    expect(await walk(lying.url)).toEqual([1, 2, 3, 4, 5]);
    // Page 3, named by page 2's head, may have been asked for ahead: it is cancelled once page 2 turns out empty.
    expect(pagesAsked(lying).slice(0, 2)).toEqual(['1', '2']);
    expect(pagesAsked(lying).slice(2)).toEqual(pagesAsked(lying).length > 2 ? ['3'] : []);
  });

  it('a service that ignores the page and says nothing of a total sent everything: the repeated page ends the walk', async () => {
    const unpaged = await service((_, response) => sendJson(response, designs(5)));
    expect(await walk(unpaged.url)).toEqual([1, 2, 3, 4, 5]);
    expect(unpaged.requests).toHaveLength(2);
  });

  it('the same page again while the service says it holds more is not understood, and says so', async () => {
    const repeating = await service((_, response, seen) => {
      const page = Number(seen.query.get('page'));
      sendJson(response, designs(5), 200, { 'x-pagination-current-page': page, 'x-pagination-next-page': page + 1, 'x-pagination-total-count': 50 });
    });
    const problem = await problemOf(walk(repeating.url));
    expect(problem).toEqual({
      kind: 'server-error', status: 200,
      message: "The service's answer to GET /v1/designs (page 2) was not understood: it sent page 1 again, while it says it holds 50 items and 5 were read; try again later, or tell the service's maintainers.",
    });
  });

  it('a service that always says there is another page is stopped after the most pages a walk takes', async () => {
    const endless = await service((_, response, seen) => {
      const page = Number(seen.query.get('page'));
      sendJson(response, designs(5, page * 5), 200, { 'x-pagination-next-page': page + 1 });
    });
    const problem = await problemOf(walk(endless.url, { maxPages: 20 }));
    expect(problem.message).toBe(
      "The service's answer to GET /v1/designs was not understood: it still said there was another page after 20 pages; try again later, or tell the service's maintainers.",
    );
    expect(endless.requests).toHaveLength(20);
  });

  it('a next page past the last page the service itself gives is not asked for', async () => {
    const lying = await service((_, response, seen) => {
      const page = Number(seen.query.get('page'));
      sendJson(response, designs(5, page * 5), 200, { 'x-pagination-next-page': page + 1, 'x-pagination-last-page': 3 });
    });
    expect(await walk(lying.url)).toHaveLength(15);
    expect(pagesAsked(lying)).toEqual(['1', '2', '3']);
  });

  it('a next page that points back ends the walk instead of looping', async () => {
    const backwards = await service((_, response, seen) => {
      const page = Number(seen.query.get('page'));
      sendJson(response, designs(5, page * 5), 200, { 'x-pagination-next-page': page === 1 ? 2 : 1 });
    });
    expect(await walk(backwards.url)).toHaveLength(10);
    expect(pagesAsked(backwards)).toEqual(['1', '2']);
  });

  it('without paging headers a full page asks for the next and a short one ends the walk', async () => {
    const items = designs(12);
    const plain = await service((_, response, seen) => {
      const page = Number(seen.query.get('page'));
      sendJson(response, items.slice((page - 1) * 5, page * 5));
    });
    expect(await walk(plain.url)).toEqual(items.map((d) => d.id));
    expect(pagesAsked(plain)).toEqual(['1', '2', '3']);
  });

  it('a page in the middle whose items are wrong stops the walk with the page named', async () => {
    const broken = await service((_, response, seen) => {
      const page = Number(seen.query.get('page'));
      sendJson(response, page === 2 ? [{ id: 'six' }, ...designs(4, 7)] : designs(5, (page - 1) * 5 + 1));
    });
    const problem = await problemOf(walk(broken.url));
    expect(problem.message).toMatch(/^The service's answer to GET \/v1\/designs \(page 2\) was not understood: 1 of 5 items cannot be read as designs — id: 1 item \(item 1 has "six" \(text\) where a whole number was expected\)/);
  });
});
