import { join } from 'node:path';
import sharp from 'sharp';
import type { AvatarRendition, ImageRendition } from '../../shared';

/**
 * A resized JPEG version of an image. `fit` keeps the whole picture inside the box and never enlarges;
 * `cover` fills the box exactly, cropping from the centre (and enlarging small pictures).
 */
export interface RenditionSize {
  width: number;
  height: number;
  fit: 'fit' | 'cover';
}

export const IMAGE_RENDITION_SIZES: Record<ImageRendition, RenditionSize> = {
  large: { width: 1200, height: 900, fit: 'fit' },
  medium: { width: 600, height: 450, fit: 'fit' },
  small: { width: 300, height: 225, fit: 'fit' },
  span4: { width: 300, height: 225, fit: 'cover' },
  span2: { width: 140, height: 105, fit: 'cover' },
  span1: { width: 60, height: 45, fit: 'cover' },
  mini: { width: 50, height: 50, fit: 'cover' },
  grid: { width: 280, height: 210, fit: 'cover' },
  carousel: { width: 940, height: 530, fit: 'cover' },
  carousel_thumb: { width: 120, height: 90, fit: 'cover' },
};

/** The avatar itself is stored as a JPEG fitted into 600x600; its renditions are square crops. */
export const AVATAR_MAIN_SIZE: RenditionSize = { width: 600, height: 600, fit: 'fit' };
export const AVATAR_RENDITION_SIZES: Record<AvatarRendition, RenditionSize> = {
  medium: { width: 150, height: 150, fit: 'cover' },
  span4: { width: 300, height: 300, fit: 'cover' },
  span2: { width: 140, height: 140, fit: 'cover' },
  span1: { width: 60, height: 60, fit: 'cover' },
  mini: { width: 30, height: 30, fit: 'cover' },
};

/** Where a rendition sits inside an image's storage directory. */
export function renditionFileName(rendition: string): string {
  return `${rendition}.jpg`;
}

export const JPEG_QUALITY = 85;

export function resizedJpeg(source: sharp.Sharp, size: RenditionSize): sharp.Sharp {
  return source
    .clone()
    .resize(size.width, size.height, size.fit === 'fit' ? { fit: 'inside', withoutEnlargement: true } : { fit: 'cover', position: 'centre' })
    .jpeg({ quality: JPEG_QUALITY });
}

/**
 * Writes every rendition into dir; fails with the first error once all writes have settled (no write outlives the call).
 * The picture is decoded once, and every rendition resized from its pixels: each clone of `source` would decode the
 * file again (ten times for an image's renditions).
 */
export async function writeRenditions(source: sharp.Sharp, dir: string, sizes: Record<string, RenditionSize>): Promise<void> {
  const { data, info } = await source.clone().raw().toBuffer({ resolveWithObject: true });
  const pixels = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const results = await Promise.allSettled(
    Object.entries(sizes).map(([name, size]) => resizedJpeg(pixels, size).toFile(join(dir, renditionFileName(name)))),
  );
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}
