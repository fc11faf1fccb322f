import { notFound } from './errors';

/** Images and documents take a numeric id only (spec §4). */
export function numericId(raw: string, what: string): number {
  if (!/^\d+$/.test(raw)) throw notFound(what);
  return Number(raw);
}

/** Designs and users take an id or a slug (spec §4). */
export function idOrSlug(raw: string): { id: number } | { slug: string } {
  return /^\d+$/.test(raw) ? { id: Number(raw) } : { slug: raw };
}
