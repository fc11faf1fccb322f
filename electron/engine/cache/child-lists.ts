import type { ServiceClient } from '../api/service-client';
import type { WritableDB } from './cache-database';
import { replaceDocuments, replaceImages } from './child-writes';
import { readValidators, touchValidators, writeValidators } from './fetch-state-writes';

/**
 * A list of a design's images or documents through a conditional GET; null when not modified since last read. Either
 * way the time it was checked is kept (childListsCheckedAt).
 */
export async function readChildList(client: ServiceClient, db: WritableDB, path: string, signal: AbortSignal | undefined, now: () => number): Promise<unknown[] | null> {
  const validators = readValidators(db, path);
  // Every page, each item checked: an answer that cannot be read throws rather than emptying the cached list.
  const answer = await client.getConditionalList(path, validators ?? {}, signal);
  if (answer.notModified) {
    touchValidators(db, path, now());
    return null;
  }
  writeValidators(db, path, answer.etag, answer.lastModified, now());
  return answer.value;
}

/**
 * One design's images and documents brought up to date (two conditional GETs: cheap when nothing changed); true when
 * a row was written or removed. Outside a pull, only the designs store (designs-store.ts) and keep-offline call it.
 */
export async function refreshDesignFiles(client: ServiceClient, db: WritableDB, designId: number, signal?: AbortSignal, now: () => number = Date.now): Promise<boolean> {
  const [images, documents] = await Promise.all([
    readChildList(client, db, `/v1/designs/${designId}/images`, signal, now),
    readChildList(client, db, `/v1/designs/${designId}/documents`, signal, now),
  ]);
  const written = (result: { written: number; removed: number } | null) => result !== null && result.written + result.removed > 0;
  const imagesWritten = written(images && replaceImages(db, designId, images, now()));
  const documentsWritten = written(documents && replaceDocuments(db, designId, documents, now()));
  return imagesWritten || documentsWritten;
}
