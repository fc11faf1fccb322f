import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AVATAR_RENDITIONS, type AvatarRendition } from '../../shared';
import type { ServiceContext } from '../server/service-context';
import { installStorage, newTempPath, removeQuietly } from './file-store';
import { describeContent, openUprightImage, sniffImageFormat } from './image-decoding';
import { AVATAR_MAIN_SIZE, AVATAR_RENDITION_SIZES, renditionFileName, resizedJpeg, writeRenditions } from './renditions';

/** The avatar itself, inside the user's avatar directory. */
export const AVATAR_FILE = 'avatar.jpg';

export function avatarStorageKey(userId: number): string {
  return `avatars/${userId}`;
}

/** File inside the avatar directory for a URL name: avatar.jpg, or <rendition>_avatar.jpg. */
export function avatarFileForName(name: string): string | null {
  if (name === AVATAR_FILE) return AVATAR_FILE;
  const rendition = AVATAR_RENDITIONS.find((candidate: AvatarRendition) => name === `${candidate}_${AVATAR_FILE}`);
  return rendition ? renditionFileName(rendition) : null;
}

/**
 * Stores a user's avatar from any accepted image (JPEG, PNG, TIFF, BMP): a JPEG fitted into 600x600 plus
 * the renditions medium, span4, span2, span1 and mini, then sets users.avatar_image_path to its storage key.
 */
export async function storeAvatar(ctx: ServiceContext, userId: number, image: Buffer): Promise<void> {
  const format = sniffImageFormat(image);
  if (!format) throw new Error(`avatar for user ${userId}: the content is ${describeContent(image)}, not a JPEG, PNG, TIFF or BMP image`);
  const staging = newTempPath(ctx, 'avatar');
  try {
    mkdirSync(staging);
    const source = join(staging, 'source');
    writeFileSync(source, image);
    const upright = await openUprightImage(source, format);
    await resizedJpeg(upright, AVATAR_MAIN_SIZE).toFile(join(staging, AVATAR_FILE));
    await writeRenditions(upright, staging, AVATAR_RENDITION_SIZES);
    removeQuietly(source);
    const key = avatarStorageKey(userId);
    installStorage(ctx, staging, key);
    ctx.db.prepare('UPDATE users SET avatar_image_path = ?, updated_at = max(updated_at + 1, ?) WHERE id = ?').run(key, ctx.now(), userId);
  } finally {
    removeQuietly(staging);
  }
}
