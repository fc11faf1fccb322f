/** A tag's name as the service sends it (a name, or an object with its name, id and count), read tolerantly. */
function tagNameOf(value: unknown): string | null {
  const name = typeof value === 'string' ? value : value && typeof value === 'object' ? (value as { name?: unknown }).name : undefined;
  if (typeof name !== 'string') return null;
  const trimmed = name.trim();
  return trimmed === '' ? null : trimmed;
}

/** ASCII case folded, as SQLite's lower() and NOCASE compare names. */
const foldNoCase = (name: string) => name.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());

/**
 * A design's tag names, from the list form's `tags` (only that form has them, spec §2.1): in the order given, each
 * name once (its first spelling; names that differ only in ASCII case are one tag), those that cannot be read left out.
 */
export function listedTagNames(tags: unknown): string[] {
  if (!Array.isArray(tags)) return [];
  const names = new Map<string, string>();
  for (const value of tags) {
    const name = tagNameOf(value);
    if (name === null) continue;
    const key = foldNoCase(name);
    if (!names.has(key)) names.set(key, name);
  }
  return [...names.values()];
}
