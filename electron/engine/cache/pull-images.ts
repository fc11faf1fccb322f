import { isServiceError } from '../api/service-error';
import { CACHED_RENDITIONS, renditionUrl } from './design-reads';
import { markImagesFetched, replaceDocuments, replaceImages } from './child-writes';
import { mapWithConcurrency } from './concurrency';
import { readChildList } from './child-lists';
import { prepared } from './prepared';
import { describe, isFatal, type PullRun } from './pull-run';
import { DEFAULT_IMAGE_PREFETCH_LIMIT } from './pull-types';

interface ImageTarget {
  id: number;
  updated_at: string | null;
  primary_image_id: number | null;
  is_own: number;
  images_for_updated_at: string | null;
}

/**
 * Which designs get their images listed: 'own' only the signed-in user's designs; 'own-and-newest' also the
 * newest of other people's designs with a cover whose images are not read yet (up to options.imagePrefetchLimit).
 */
export type ImageScope = 'own' | 'own-and-newest';

const TARGET_COLUMNS = 'id, updated_at, primary_image_id, is_own, images_for_updated_at';

function imageTargets(run: PullRun, scope: ImageScope): ImageTarget[] {
  const own = prepared(run.db, `SELECT ${TARGET_COLUMNS} FROM designs WHERE is_own = 1 ORDER BY updated_ms DESC`).all() as ImageTarget[];
  if (scope === 'own') return own;
  const others = prepared(run.db,
    `SELECT ${TARGET_COLUMNS} FROM (
       SELECT * FROM designs WHERE is_own = 0 AND primary_image_id IS NOT NULL ORDER BY updated_ms DESC LIMIT ?
     ) WHERE images_for_updated_at IS NOT updated_at`,
  ).all(run.options.imagePrefetchLimit ?? DEFAULT_IMAGE_PREFETCH_LIMIT) as ImageTarget[];
  return [...own, ...others];
}

/**
 * Image lists of the targets (conditional GETs), own designs' documents, and the cover image's renditions into
 * the file cache. Cancelled stops it with the ServiceError; offline stops it with a warning; other failures
 * become warnings.
 */
export async function pullImages(run: PullRun, scope: ImageScope): Promise<void> {
  const { db, summary, now } = run;
  const targets = imageTargets(run, scope);
  const renditions = run.options.renditions ?? CACHED_RENDITIONS;
  let done = 0;
  let stopped = false;
  await run.report({ phase: 'images', done, total: targets.length });
  await mapWithConcurrency(targets, run.concurrency, async (target) => {
    if (stopped) return;
    try {
      const images = await readChildList(run.client, run.db, `/v1/designs/${target.id}/images`, run.signal, run.now);
      summary.images.designsChecked++;
      if (images === null) {
        summary.images.notModified++;
      } else {
        const result = replaceImages(db, target.id, images, now());
        summary.images.rowsWritten += result.written;
        summary.images.rowsRemoved += result.removed;
      }
      if (target.is_own === 1) {
        const documents = await readChildList(run.client, run.db, `/v1/designs/${target.id}/documents`, run.signal, run.now);
        summary.images.documentsChecked++;
        if (documents !== null) replaceDocuments(db, target.id, documents, now());
      }
      // Only once every rendition is in: a failed download is tried again next pull.
      if (await downloadCover(run, target, renditions)) markImagesFetched(db, target.id, target.updated_at);
    } catch (error) {
      if (isServiceError(error, 'cancelled')) throw error;
      if (isServiceError(error, 'offline')) {
        if (!stopped) summary.warnings.push(`Images were not all pulled: ${describe(error)}`);
        stopped = true;
        return;
      }
      // A design deleted since the listing was read: its images go with it next pull.
      if (!isServiceError(error, 'not-found')) summary.warnings.push(`Images of design ${target.id}: ${describe(error)}`);
    } finally {
      done++;
      await run.report({ phase: 'images', done, total: targets.length });
    }
  });
}

async function downloadCover(run: PullRun, target: ImageTarget, renditions: readonly string[]): Promise<boolean> {
  const { client, files, summary, signal } = run;
  const rows = prepared(run.db, 'SELECT id, updated_at, raw_json FROM images WHERE design_id = ? ORDER BY position').all(target.id) as
    { id: number; updated_at: string | null; raw_json: string }[];
  const cover = rows.find((row) => row.id === target.primary_image_id) ?? rows[0];
  if (!cover) return true;
  let complete = true;
  const image = JSON.parse(cover.raw_json) as Record<string, unknown>;
  for (const rendition of renditions) {
    const url = renditionUrl(image, rendition);
    if (!url) continue;
    try {
      const result = await files.ensure(url, (u, s) => client.download(u, s), { version: cover.updated_at, signal });
      if (result.downloaded) {
        summary.files.downloaded++;
        summary.files.bytes += result.size;
      } else {
        summary.files.alreadyCached++;
      }
    } catch (error) {
      if (isFatal(error) || signal?.aborted) throw error;
      summary.files.failed++;
      complete = false;
      summary.warnings.push(`Could not download the ${rendition} image of design ${target.id}: ${describe(error)}`);
    }
  }
  return complete;
}
