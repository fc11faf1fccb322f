import type { FastifyReply } from 'fastify';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PAGINATION_HEADERS } from '../../shared';
import { badRequest } from './errors';

export interface Paging {
  page: number;
  limit: number;
  offset: number;
}

function positiveInteger(raw: unknown, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < 1) {
    throw badRequest(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

/** page defaults to 1, limit to 18; a limit over 100 is lowered to 100 (docs/service-choices.md). */
export function parsePaging(query: unknown): Paging {
  const q = (query ?? {}) as Record<string, unknown>;
  const page = positiveInteger(q.page, 'page') ?? 1;
  const limit = Math.min(positiveInteger(q.limit, 'limit') ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  return { page, limit, offset: (page - 1) * limit };
}

/** X-Pagination-* headers and an RFC 8288 Link header. Next/previous are left out where there is none. */
export function setPagingHeaders(reply: FastifyReply, requestUrl: string, paging: Paging, total: number): void {
  const lastPage = Math.max(1, Math.ceil(total / paging.limit));
  const headers: Record<string, number> = {
    [PAGINATION_HEADERS.currentPage]: paging.page,
    [PAGINATION_HEADERS.firstPage]: 1,
    [PAGINATION_HEADERS.lastPage]: lastPage,
    [PAGINATION_HEADERS.totalCount]: total,
    [PAGINATION_HEADERS.perPage]: paging.limit,
  };
  if (paging.page < lastPage) headers[PAGINATION_HEADERS.nextPage] = paging.page + 1;
  if (paging.page > 1) headers[PAGINATION_HEADERS.previousPage] = Math.min(paging.page - 1, lastPage);
  for (const [name, value] of Object.entries(headers)) reply.header(name, String(value));

  const url = new URL(requestUrl, 'http://service.invalid');
  url.searchParams.delete('auth_token');
  const link = (page: number, rel: string) => {
    url.searchParams.set('page', String(page));
    url.searchParams.set('limit', String(paging.limit));
    return `<${url.pathname}${url.search}>; rel="${rel}"`;
  };
  const links = [link(1, 'first'), link(lastPage, 'last')];
  if (headers[PAGINATION_HEADERS.nextPage]) links.push(link(paging.page + 1, 'next'));
  if (headers[PAGINATION_HEADERS.previousPage]) links.push(link(headers[PAGINATION_HEADERS.previousPage]!, 'prev'));
  reply.header('link', links.join(', '));
}
