/** A tag as the service sends it (a name, or an object with its id and count), read tolerantly. */
export function tagParts(value: unknown): { name: string; serviceId: number | null; count: number | null } | null {
  if (typeof value === 'string') return value.trim() ? { name: value.trim(), serviceId: null, count: null } : null;
  if (value && typeof value === 'object') {
    const tag = value as { id?: unknown; name?: unknown; taggings_count?: unknown };
    if (typeof tag.name !== 'string' || !tag.name.trim()) return null;
    return {
      name: tag.name.trim(),
      serviceId: Number.isInteger(tag.id) ? (tag.id as number) : null,
      count: Number.isInteger(tag.taggings_count) ? (tag.taggings_count as number) : null,
    };
  }
  return null;
}

/** ASCII case folded, as the tags table's NOCASE collation compares names. */
export const foldNoCase = (name: string) => name.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
