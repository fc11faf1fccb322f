import { z } from 'zod';

/** The spec leaves the element shape of tags unshown; public clients of the service see {id, name, taggings_count}. */
export const tag = z.object({ id: z.number().int(), name: z.string(), taggings_count: z.number().int() });
export type Tag = z.infer<typeof tag>;

/** What a tolerant reader accepts: the object form, or a bare tag name. */
export const tagLoose = z.union([tag.loose(), z.string()]);
export type TagLoose = z.infer<typeof tagLoose>;

export function tagName(value: TagLoose): string {
  return typeof value === 'string' ? value : value.name;
}
