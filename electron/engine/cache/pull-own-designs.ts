import type { ServiceClient } from '../api/service-client';
import { ServiceError } from '../api/service-error';
import { tolerantUser } from '../api/tolerant-readers';
import type { WritableDB } from './cache-database';
import { fillAuthor, upsertUser } from './design-writes';
import { updateSyncState } from './fetch-state-writes';
import type { FileCache } from './file-cache';
import { pullImages } from './pull-images';
import { releaseOwn, type OwnRow } from './pull-removals';
import { emptyCounts, runPull, startPull, type PullRun } from './pull-run';
import type { PullOptions, PullSummary } from './pull-types';
import { finishWalks, walk } from './pull-walk';

const NOT_SIGNED_IN = 'Not signed in: your own designs cannot be pulled. Sign in with `design-sync login`.';

/**
 * The own-designs step of a pull: whoami, then every page of the user-designs form (GET /v1/users/:me/designs,
 * drafts included), marked own; then the own designs that listing no longer has are released (those
 * `stillPublished` says are still published just stop being own) or removed, unless the listing shrank
 * suspiciously (nothing changes, a warning). Fills summary.signedInAs and summary.ownDesigns. Any failure is
 * thrown (the caller decides whether it is a warning).
 */
export async function pullOwnStep(run: PullRun, stillPublished: (row: OwnRow) => boolean): Promise<void> {
  const { client, db, summary, signal, now } = run;
  const me = await client.whoami(signal);
  const user = tolerantUser.parse(me);
  summary.signedInAs = user.screen_name;
  upsertUser(db, me, 'own', now());
  updateSyncState(db, { ownUserId: user.id });
  const counts = emptyCounts();
  const seenOwn = new Set<number>();
  await walk(run, `/v1/users/${user.id}/designs`, 'user', { own: true, ownScreenName: user.screen_name }, counts, seenOwn,
    (done, total) => run.report({ phase: 'own-designs', done, total }));
  fillAuthor(db, user.id, user.screen_name);
  counts.removed = releaseOwn(db, seenOwn, stillPublished, summary, run.options);
  updateSyncState(db, { lastOwnPullAt: now() });
  summary.ownDesigns = counts;
}

/**
 * What a sync pass needs from the service, and nothing more: the signed-in user's own designs and their files.
 *  1. whoami and every page of GET /v1/users/:me/designs (drafts included), marked own. An own design that
 *     listing no longer has stops being own when the cache has it in the published listing (in_listing = 1),
 *     else it is removed — unless the listing shrank suspiciously (then nothing is removed: a warning);
 *  2. the image and document lists of own designs (conditional GETs) and their cover renditions.
 * The published listing (GET /v1/designs) is not read and other people's images are not prefetched:
 * pullDesigns does that, on its own schedule. So the summary's `designs` counts stay zero and
 * `listingComplete` false; `ownDesigns` is always set.
 *
 * Throws a ServiceError when the own designs could not be read, so a caller never mistakes an old list for
 * the current one: not signed in (no token) throws a 'token-rejected' ServiceError at once, without a request
 * (what a token-less request would get); whoami or the user's listing failing (offline, token rejected,
 * server error, cancelled) throws that request's ServiceError, after keeping the pages already written and
 * removing nothing. Failures of the image step become warnings, as in pullDesigns (cancelled throws).
 */
export async function pullOwnDesigns(client: ServiceClient, db: WritableDB, files: FileCache, options: PullOptions = {}): Promise<PullSummary> {
  if (client.transport.options.token() === null) {
    throw new ServiceError({ kind: 'token-rejected', message: NOT_SIGNED_IN }, 'GET', '/v1/user/whoami');
  }
  const run = startPull(client, db, files, options, '/v1/users/:me/designs');
  return runPull(run, async () => {
    await pullOwnStep(run, (row) => row.in_listing === 1);
    await finishWalks(run);
    await pullImages(run, 'own');
  });
}
