import { z } from 'zod';
import { PAGINATION_HEADERS, tagLoose, tagName, type Document, type Image } from '../../../shared';

const LIST_KEYS = ['designs', 'results', 'data', 'items', 'records', 'users', 'images', 'documents'];

/** The list in an answer: a bare array (what the service sends) or the one list an object holds (what some APIs send); null when there is none. */
export function findList(body: unknown): unknown[] | null {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const key of LIST_KEYS) if (Array.isArray(record[key])) return record[key] as unknown[];
    const arrays = Object.values(record).filter(Array.isArray);
    if (arrays.length === 1) return arrays[0] as unknown[];
  }
  return null;
}

/** A list answer as a bare array or an object holding one; [] when there is none. */
export function extractList(body: unknown): unknown[] {
  return findList(body) ?? [];
}

const int = z.number().int();
const text = z.string().catch('');
const nullableText = z.string().nullable().catch(null);
const nullableInt = int.nullable().catch(null);

/**
 * A design as the client reads it: only id is required; every other field falls back to a default when
 * absent or of another type, and fields the spec does not list (e.g. a nested primary_image) are kept.
 */
export const tolerantDesign = z.looseObject({
  id: int,
  name: text,
  slug: z.string().optional().catch(undefined),
  description: text.optional().transform((v) => v ?? ''),
  excerpt: text.optional().transform((v) => v ?? ''),
  user_id: nullableInt.optional().transform((v) => v ?? null),
  license: nullableText.optional().transform((v) => v ?? null),
  state: nullableText.optional().transform((v) => v ?? null),
  created_at: nullableText.optional().transform((v) => v ?? null),
  updated_at: nullableText.optional().transform((v) => v ?? null),
  primary_image_id: nullableInt.optional().transform((v) => v ?? null),
  tags: z.array(tagLoose).catch([]).optional().transform((v) => (v ?? []).map(tagName)),
  user: z.looseObject({ id: int, screen_name: z.string() }).nullable().catch(null).optional().transform((v) => v ?? null),
});
export type TolerantDesign = z.output<typeof tolerantDesign>;

export const tolerantImage = z.looseObject({
  id: int,
  name: text.optional().transform((v) => v ?? ''),
  imagable_id: nullableInt.optional().transform((v) => v ?? null),
  updated_at: nullableText.optional().transform((v) => v ?? null),
  file: z.looseObject({ url: nullableText.optional() }).catch({}).optional(),
});
export type TolerantImage = z.output<typeof tolerantImage>;

export const tolerantDocument = z.looseObject({
  id: int,
  name: text.optional().transform((v) => v ?? ''),
  documentable_id: nullableInt.optional().transform((v) => v ?? null),
  updated_at: nullableText.optional().transform((v) => v ?? null),
  modelhash: nullableText.optional().transform((v) => v ?? null),
  file: z.looseObject({ url: nullableText.optional() }).catch({}).optional(),
});
export type TolerantDocument = z.output<typeof tolerantDocument>;

export const tolerantUser = z.looseObject({
  id: int,
  screen_name: text,
  real_name: text.optional().transform((v) => v ?? ''),
});
export type TolerantUser = z.output<typeof tolerantUser>;

/** The service's SHA-1 of a file's content (a document's `modelhash`, lower-cased); null where it gives none that is one. */
export function serviceSha1(file: Image | Document): string | null {
  const modelhash = (file as { modelhash?: unknown }).modelhash;
  return typeof modelhash === 'string' && /^[0-9a-f]{40}$/i.test(modelhash) ? modelhash.toLowerCase() : null;
}

/** Parses the items of a list that can be read; reports how many could not (missing or non-integer id). */
export function readList<T>(schema: z.ZodType<T>, items: unknown[]): { items: T[]; skipped: number } {
  const read: T[] = [];
  let skipped = 0;
  for (const item of items) {
    const result = schema.safeParse(item);
    if (result.success) read.push(result.data);
    else skipped++;
  }
  return { items: read, skipped };
}

export interface PageInfo {
  /** The next page number, or null at the end. Undefined when the answer carries no paging headers. */
  nextPage: number | null | undefined;
  totalCount?: number;
  lastPage?: number;
  perPage?: number;
}

/**
 * The page an RFC 8288 Link header's rel="next" points to: its `page` parameter; null when the header lists other
 * relations but no next one (the last page); undefined without a Link header, or a next address without a page number.
 */
export function nextPageOfLink(value: string | null): number | null | undefined {
  if (!value) return undefined;
  let sawAny = false;
  for (const match of value.matchAll(/<([^>]*)>\s*((?:;\s*[^;,]+)*)/g)) {
    sawAny = true;
    const rels = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(match[2] ?? '')?.[1]?.toLowerCase().split(/\s+/) ?? [];
    if (!rels.includes('next')) continue;
    try {
      const page = new URL(match[1]!, 'http://link.invalid').searchParams.get('page');
      return page !== null && /^\d+$/.test(page) ? Number(page) : undefined;
    } catch {
      return undefined;
    }
  }
  return sawAny ? null : undefined;
}

/**
 * Paging as the answer's headers tell it: X-Pagination-* (what the service sends), else a Link header's rel="next".
 * nextPage is undefined when neither says anything (the caller then judges by the page's length).
 */
export function pageInfo(headers: Headers): PageInfo {
  const number = (name: string) => {
    const value = headers.get(name);
    return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
  };
  const hasPaging = [PAGINATION_HEADERS.currentPage, PAGINATION_HEADERS.totalCount, PAGINATION_HEADERS.lastPage, PAGINATION_HEADERS.perPage]
    .some((name) => headers.has(name));
  const fromLink = nextPageOfLink(headers.get('link'));
  return {
    nextPage: number(PAGINATION_HEADERS.nextPage) ?? (fromLink !== undefined ? fromLink : hasPaging ? null : undefined),
    totalCount: number(PAGINATION_HEADERS.totalCount),
    lastPage: number(PAGINATION_HEADERS.lastPage),
    perPage: number(PAGINATION_HEADERS.perPage),
  };
}
