import { statSync } from 'node:fs';
import { currentGeneratedThumbnail } from '../library/generated-thumbnails';
import { engineLog } from '../log/engine-log';
import type { Engine } from '../runtime/engine';
import type { ServedFile } from './contract-endpoint';

/**
 * The address of a design's picture made here from its model: `/files/generated/<design id>/<made at>` (the time it
 * was made names each picture, so a newer one is never hidden by a cached older one).
 */
export const generatedThumbnailAddress = (designId: number, madeAt: number) => `/files/generated/${designId}/${madeAt}`;

/** The design a generated picture's address names, or null when it is not one (or malformed). */
export function parseGeneratedThumbnailAddress(address: string): number | null {
  const match = /^\/files\/generated\/(\d{1,15})\/\d{1,15}$/.exec(address);
  return match ? Number(match[1]) : null;
}

/** The design's current generated picture (only from the profile's thumbnails folder, never fetched), or null. */
export function serveGeneratedThumbnail(engine: Engine, designId: number): ServedFile | null {
  const current = currentGeneratedThumbnail(engine, designId);
  if (!current) return null;
  try {
    return { path: current.path, contentType: 'image/png', size: statSync(current.path).size };
  } catch (error) {
    engineLog.warn('thumbnails', `the generated picture ${current.path} of design ${designId} cannot be read`, error);
    return null;
  }
}
