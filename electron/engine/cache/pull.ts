import type { ServiceClient } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import type { WritableDB } from './cache-database';
import type { FileCache } from './file-cache';
import { pullImages } from './pull-images';
import { pullOwnStep } from './pull-own-designs';
import { removeUnlisted } from './pull-removals';
import { describe, isFatal, problemMessage, runPull, startPull } from './pull-run';
import type { PullOptions, PullSummary } from './pull-types';
import { finishWalks, walk } from './pull-walk';

export { pullOwnDesigns } from './pull-own-designs';
export { DEFAULT_IMAGE_PREFETCH_LIMIT, type DesignCounts, type PullOptions, type PullPhase, type PullProgress, type PullSummary } from './pull-types';

/**
 * Brings the cache up to date with the service:
 *  1. every page of the published listing; designs written only when new or changed; after a complete walk,
 *     published designs the listing no longer has are removed (unless the listing shrank suspiciously);
 *  2. when signed in, the user's own designs (drafts too), marked own;
 *  3. image lists of designs whose updated_at moved since their images were read (the service bumps a
 *     design's updated_at when its images or documents change) and of own designs (conditional GETs), own
 *     designs' documents, and the cover image's renditions into the file cache.
 * Offline or cancelled stops the pull with the ServiceError; other failures become warnings, and a listing (or own
 * designs) not read to the end says why in summary.listingProblem (ownDesignsProblem): the pull did not do all it should.
 * A sync pass wants only step 2 and the own designs' part of step 3: pullOwnDesigns.
 */
export async function pullDesigns(client: ServiceClient, db: WritableDB, files: FileCache, options: PullOptions = {}): Promise<PullSummary> {
  const run = startPull(client, db, files, options, '/v1/designs');
  const { summary } = run;
  return runPull(run, async () => {
    // 1. The published listing.
    const seenPublished = new Set<number>();
    try {
      await walk(run, '/v1/designs', 'list', { inListing: true }, summary.designs, seenPublished,
        (done, total) => run.report({ phase: 'designs', done, total }));
      summary.listingComplete = true;
    } catch (error) {
      if (isFatal(error)) throw error;
      summary.listingProblem = problemMessage(error);
      summary.warnings.push(`The listing of designs could not be read to the end (${describe(error)}); no design was removed.`);
    }
    removeUnlisted(db, seenPublished, summary, options, run.now());

    // 2. The signed-in user's own designs: one no longer listed as own stays (no longer own) when the listing has
    // it, or when the listing was not read to the end; otherwise it is removed.
    if (client.transport.options.token() === null) {
      summary.warnings.push('Not signed in: your own designs (drafts included) were not pulled. Sign in with `design-sync login`.');
    } else {
      try {
        await pullOwnStep(run, (row) => seenPublished.has(row.id) || !summary.listingComplete);
      } catch (error) {
        if (isFatal(error)) throw error;
        summary.ownDesignsProblem = problemMessage(error);
        summary.warnings.push(isServiceError(error, 'token-rejected')
          ? 'The service no longer accepts the stored sign-in: own designs were not pulled. Sign in again with `design-sync login`.'
          : `Own designs could not be pulled (${describe(error)}).`);
      }
    }
    await finishWalks(run);

    // 3. Images (and own designs' documents), then the renditions the UI shows.
    await pullImages(run, 'own-and-newest');
  });
}
