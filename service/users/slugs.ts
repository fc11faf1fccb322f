import type { ServiceDatabase } from '../database/open-database';

/** "Gear Box (v2)!" → "gear-box-v2"; non-Latin names keep their letters. */
export function slugify(text: string, fallback: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return slug && !/^\d+$/.test(slug) ? slug : `${fallback}-${slug || 'untitled'}`;
}

/** A slug no other row of the table has: "gear", then "gear-2", "gear-3"… Never all digits, so it cannot be taken for an id. */
export function uniqueSlug(db: ServiceDatabase, table: 'designs' | 'users', text: string, fallback: string): string {
  const base = slugify(text, fallback);
  const taken = db.prepare(`SELECT 1 FROM ${table} WHERE slug = ?`);
  if (!taken.get(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.get(candidate)) return candidate;
  }
}
