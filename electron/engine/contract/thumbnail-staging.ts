import { MAX_THUMBNAIL_BYTES } from '../library/generated-thumbnails';

/**
 * What hosts share of the way in of a picture the window rendered from a design's model (the window host over HTTP;
 * the same checks for any host): the address `PUT /thumbnails/designs/<designId>/<documentId>`, its header, its
 * bound. The body is staged like a drop (drop-staging.ts: stageDrop, with this bound), then handed to
 * `endpoint.adoptGeneratedThumbnail()`, which checks the design and the PNG.
 */
export const THUMBNAIL_ADDRESS_PREFIX = '/thumbnails/designs/';
/** The header a picture must carry: a cross-site form or a simple request cannot set it. */
export const THUMBNAIL_HEADER = 'x-design-sync-thumbnail';
export { MAX_THUMBNAIL_BYTES };

export type ThumbnailAddress = { ok: true; designId: number; documentId: number } | { ok: false; message: string };

/** The design and model a picture's address names, or why it names none. */
export function parseThumbnailAddress(pathname: string): ThumbnailAddress {
  if (!pathname.startsWith(THUMBNAIL_ADDRESS_PREFIX)) return { ok: false, message: 'Not a thumbnail address.' };
  const match = /^([1-9][0-9]{0,15})\/([1-9][0-9]{0,15})$/.exec(pathname.slice(THUMBNAIL_ADDRESS_PREFIX.length));
  if (!match) return { ok: false, message: 'A thumbnail address is /thumbnails/designs/<design id>/<model document id>.' };
  return { ok: true, designId: Number(match[1]), documentId: Number(match[2]) };
}
