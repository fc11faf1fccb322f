import { z } from 'zod';

/** Spec §2: "Any object field named url holds a string path or null." */
export const urlRef = z.object({ url: z.string().nullable() });
export type UrlRef = z.infer<typeof urlRef>;

export const IMAGE_RENDITIONS = [
  'small', 'medium', 'large', 'span4', 'span2', 'span1', 'mini', 'grid', 'carousel', 'carousel_thumb',
] as const;
export type ImageRendition = (typeof IMAGE_RENDITIONS)[number];

export const AVATAR_RENDITIONS = ['medium', 'span4', 'span2', 'span1', 'mini'] as const;
export type AvatarRendition = (typeof AVATAR_RENDITIONS)[number];

export const imageFile = z.object({
  url: z.string().nullable(),
  ...Object.fromEntries(IMAGE_RENDITIONS.map((name) => [name, urlRef])) as Record<ImageRendition, typeof urlRef>,
});
export type ImageFile = z.infer<typeof imageFile>;

export const avatarFile = z.object({
  url: z.string().nullable(),
  ...Object.fromEntries(AVATAR_RENDITIONS.map((name) => [name, urlRef])) as Record<AvatarRendition, typeof urlRef>,
});
export type AvatarFile = z.infer<typeof avatarFile>;
