import type { ServiceClient } from '../api/service-client';
import { isServiceError, ServiceError } from '../api/service-error';
import { extractList, tolerantUser } from '../api/tolerant-readers';
import type { WritableDB } from './cache-database';
import { CACHED_RENDITIONS, renditionUrl } from './design-reads';
import {
  deleteDesigns, fillOwnAuthor, markImagesFetched, optimizeSearchIndex, readValidators, replaceDocuments, replaceImages, updateSyncState,
  indexPendingSearchRows, upsertDesigns, upsertUser, writeDeferredSearchRows, writeValidators, DesignWriteSession, type DesignForm,
} from './design-writes';
import { mapWithConcurrency } from './concurrency';
import type { FileCache } from './file-cache';
import { prepared } from './prepared';

export type PullPhase = 'designs' | 'own-designs' | 'images' | 'done';

export interface PullProgress {
  phase: PullPhase;
  done: number;
  /** Null while unknown (a listing without a total count). */
  total: number | null;
}

export const DEFAULT_IMAGE_PREFETCH_LIMIT = 300;

export interface PullOptions {
  signal?: AbortSignal;
  /** Told of progress; when it returns a promise the pull waits for it (backpressure for a slow consumer). */
  onProgress?: (progress: PullProgress) => void | Promise<void>;
  /** Page size of the listings (the service's maximum is 100). */
  pageSize?: number;
  /** Parallel image-list requests and downloads. */
  concurrency?: number;
  /** Renditions downloaded for each design's cover image. */
  renditions?: readonly string[];
  /**
   * How many of other people's designs (newest first, only those with a cover image) get their images
   * listed and their cover downloaded on each pull. Own designs always do. The rest are fetched when opened.
   */
  imagePrefetchLimit?: number;
  /** Refuse to remove designs when the listing shrank by more than this share… */
  maxShrinkRatio?: number;
  /** …while the cache holds more than this many listed designs. */
  shrinkGuardMinimum?: number;
  now?: () => number;
}

export interface DesignCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  removed: number;
  skipped: number;
}

export interface PullSummary {
  /** The published listing (GET /v1/designs). */
  designs: DesignCounts;
  /** The signed-in user's designs (GET /v1/users/:me/designs), drafts included; null when not signed in. */
  ownDesigns: DesignCounts | null;
  /** Whether the whole published listing was read (only then are designs removed). */
  listingComplete: boolean;
  /** Designs the listing no longer has but that were kept, because the walk was incomplete or the shrink was refused. */
  removalsWithheld: number;
  images: { designsChecked: number; notModified: number; rowsWritten: number; rowsRemoved: number; documentsChecked: number };
  files: { downloaded: number; bytes: number; alreadyCached: number; failed: number };
  signedInAs: string | null;
  durationMs: number;
  warnings: string[];
}

/** After this many design rows written in one pull, the search index is merged into one segment. */
const OPTIMIZE_AFTER_WRITES = 1000;

const emptyCounts = (): DesignCounts => ({ inserted: 0, updated: 0, unchanged: 0, removed: 0, skipped: 0 });

function describe(error: unknown): string {
  if (isServiceError(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}

function isFatal(error: unknown): boolean {
  return isServiceError(error, 'cancelled') || isServiceError(error, 'offline');
}

/**
 * Brings the cache up to date with the service:
 *  1. every page of the published listing; designs written only when new or changed; after a complete walk,
 *     published designs the listing no longer has are removed (unless the listing shrank suspiciously);
 *  2. when signed in, the user's own designs (drafts too), marked own;
 *  3. image lists of designs whose updated_at moved since their images were read (the service bumps a
 *     design's updated_at when its images or documents change) and of own designs (conditional GETs), own
 *     designs' documents, and the cover image's renditions into the file cache.
 * Offline or cancelled stops the pull with the ServiceError; other failures become warnings.
 */
export async function pullDesigns(client: ServiceClient, db: WritableDB, files: FileCache, options: PullOptions = {}): Promise<PullSummary> {
  const started = performance.now();
  const now = options.now ?? Date.now;
  const signal = options.signal;
  const pageSize = options.pageSize ?? 100;
  const concurrency = options.concurrency ?? 4;
  const report = async (progress: PullProgress) => {
    await options.onProgress?.(progress);
    if (signal?.aborted) throw new ServiceError({ kind: 'cancelled', message: 'Cancelled.' }, 'GET', '/v1/designs');
  };
  const summary: PullSummary = {
    designs: emptyCounts(), ownDesigns: null, listingComplete: false, removalsWithheld: 0,
    images: { designsChecked: 0, notModified: 0, rowsWritten: 0, rowsRemoved: 0, documentsChecked: 0 },
    files: { downloaded: 0, bytes: 0, alreadyCached: 0, failed: 0 },
    signedInAs: null, durationMs: 0, warnings: [],
  };

  // A pull that stopped before its deferred search rows were written (a crash) left designs unsearchable.
  indexPendingSearchRows(db);

  // 1. The published listing.
  const seenPublished = new Set<number>();
  try {
    await walk(client, db, '/v1/designs', 'list', { inListing: true }, summary.designs, seenPublished, pageSize, signal, now,
      (done, total) => report({ phase: 'designs', done, total }));
    summary.listingComplete = true;
  } catch (error) {
    if (isFatal(error)) throw error;
    summary.warnings.push(`The listing of designs could not be read to the end (${describe(error)}); no design was removed.`);
  }
  removeUnlisted(db, seenPublished, summary, options, now());

  // 2. The signed-in user's own designs.
  if (client.transport.options.token() === null) {
    summary.warnings.push('Not signed in: your own designs (drafts included) were not pulled. Sign in with `design-sync login`.');
  } else {
    try {
      const me = await client.whoami(signal);
      const user = tolerantUser.parse(me);
      summary.signedInAs = user.screen_name;
      upsertUser(db, me, 'own', now());
      updateSyncState(db, { ownUserId: user.id });
      const counts = emptyCounts();
      const seenOwn = new Set<number>();
      await walk(client, db, `/v1/users/${user.id}/designs`, 'user', { own: true, ownScreenName: user.screen_name }, counts, seenOwn, pageSize, signal, now,
        (done, total) => report({ phase: 'own-designs', done, total }));
      fillOwnAuthor(db, user.id, user.screen_name);
      counts.removed = releaseOwn(db, seenOwn, seenPublished, summary.listingComplete, summary, options);
      updateSyncState(db, { lastOwnPullAt: now() });
      summary.ownDesigns = counts;
    } catch (error) {
      if (isFatal(error)) throw error;
      summary.warnings.push(isServiceError(error, 'token-rejected')
        ? 'The service no longer accepts the stored sign-in: own designs were not pulled. Sign in again with `design-sync login`.'
        : `Own designs could not be pulled (${describe(error)}).`);
    }
  }

  const written = summary.designs.inserted + summary.designs.updated + (summary.ownDesigns ? summary.ownDesigns.inserted + summary.ownDesigns.updated : 0);
  if (written >= OPTIMIZE_AFTER_WRITES) optimizeSearchIndex(db);

  // 3. Images (and own designs' documents), then the renditions the UI shows.
  await pullImages(client, db, files, summary, options, concurrency, signal, now, report);

  summary.durationMs = Math.round(performance.now() - started);
  await options.onProgress?.({ phase: 'done', done: 1, total: 1 });
  return summary;
}

async function walk(
  client: ServiceClient, db: WritableDB, path: string, form: DesignForm,
  flags: { inListing?: boolean; own?: boolean; ownScreenName?: string }, counts: DesignCounts, seen: Set<number>,
  pageSize: number, signal: AbortSignal | undefined, now: () => number,
  progress: (done: number, total: number | null) => Promise<void>,
): Promise<void> {
  const session = new DesignWriteSession({ deferSearchRows: true });
  const pages = client.allPages<{ id?: unknown }>(path, { limit: pageSize, signal });
  let next = pages.next();
  let finished = false;
  try {
    for (;;) {
      const result = await next;
      if (result.done) break;
      const page = result.value;
      // One page ahead: the next page is asked for (and the service works on it) while this one is written.
      // A failure of that request surfaces once this page is written and reported, as it would without it.
      next = pages.next();
      next.catch(() => {});
      if (page.nextPage !== null) await new Promise((resolve) => setImmediate(resolve)); // lets the request go out first
      const at = now();
      for (const { outcome, id } of upsertDesigns(db, page.items, form, at, flags, session)) {
        if (outcome === 'skipped') counts.skipped++;
        else counts[outcome]++;
        if (id !== undefined) seen.add(id);
      }
      await progress(seen.size, page.totalCount ?? null);
    }
    finished = true;
  } finally {
    // Stopped early (a failed write, a cancelled pull): the page asked for ahead is not wanted.
    if (!finished) pages.return(undefined).catch(() => {});
    // Whether the walk ended or stopped, what it wrote is searchable when it returns. Should that fail after
    // another failure, the walk's own error is the one reported (the next pull writes the rows).
    try {
      writeDeferredSearchRows(db, session);
    } catch (error) {
      if (finished) throw error;
    }
  }
}

/** After a complete walk: removes cached published designs the listing no longer has, unless it shrank suspiciously. */
function removeUnlisted(db: WritableDB, seen: Set<number>, summary: PullSummary, options: PullOptions, at: number): void {
  const cached = (prepared(db, 'SELECT id, is_own FROM designs WHERE is_own = 0 OR in_listing = 1').all() as { id: number; is_own: number }[]);
  const gone = cached.filter((row) => !seen.has(row.id));
  if (!summary.listingComplete) {
    summary.removalsWithheld = gone.length;
    return;
  }
  const refusal = shrinkRefusal('listed', cached.length, seen.size, gone.length, options);
  if (refusal) {
    summary.removalsWithheld = gone.length;
    summary.warnings.push(refusal);
    return;
  }
  const ownUnlisted = gone.filter((row) => row.is_own === 1).map((row) => row.id);
  const stmt = prepared(db, 'UPDATE designs SET in_listing = 0 WHERE id = ?');
  db.transaction(() => { for (const id of ownUnlisted) stmt.run(id); })();
  summary.designs.removed = deleteDesigns(db, gone.filter((row) => row.is_own === 0).map((row) => row.id));
  updateSyncState(db, { lastFullPullAt: at, lastListingCount: seen.size });
}

/**
 * Joplin's rule (laurent22/joplin#883): an answer that would empty most of a sizeable cache is more likely
 * broken than true. A message when removals must be refused, else null.
 */
function shrinkRefusal(what: string, before: number, seen: number, gone: number, options: PullOptions): string | null {
  const minimum = options.shrinkGuardMinimum ?? 20;
  const ratio = options.maxShrinkRatio ?? 0.9;
  if (before <= minimum || gone === 0 || seen >= before * (1 - ratio)) return null;
  return `The service ${what} ${seen} designs where the cache holds ${before}: a drop of more than ${Math.round(ratio * 100)}% ` +
    'looks like a broken answer, so no design was removed. Pull again later; if the designs really are gone they will be removed then.';
}

/** Own designs the user's listing no longer has: still published → no longer own; otherwise removed. */
function releaseOwn(db: WritableDB, seenOwn: Set<number>, seenPublished: Set<number>, listingComplete: boolean, summary: PullSummary, options: PullOptions): number {
  const own = (prepared(db, 'SELECT id FROM designs WHERE is_own = 1').all() as { id: number }[]).map((row) => row.id);
  const gone = own.filter((id) => !seenOwn.has(id));
  const refusal = shrinkRefusal('listed as yours', own.length, seenOwn.size, gone.length, options);
  if (refusal) {
    summary.removalsWithheld += gone.length;
    summary.warnings.push(refusal);
    return 0;
  }
  const release = prepared(db, 'UPDATE designs SET is_own = 0 WHERE id = ?');
  const remove: number[] = [];
  db.transaction(() => {
    for (const id of gone) {
      if (seenPublished.has(id) || !listingComplete) release.run(id);
      else remove.push(id);
    }
  })();
  return deleteDesigns(db, remove);
}

interface ImageTarget {
  id: number;
  updated_at: string | null;
  primary_image_id: number | null;
  is_own: number;
  images_for_updated_at: string | null;
}

async function pullImages(
  client: ServiceClient, db: WritableDB, files: FileCache, summary: PullSummary, options: PullOptions, concurrency: number,
  signal: AbortSignal | undefined, now: () => number, report: (progress: PullProgress) => Promise<void>,
): Promise<void> {
  const columns = 'id, updated_at, primary_image_id, is_own, images_for_updated_at';
  const own = prepared(db, `SELECT ${columns} FROM designs WHERE is_own = 1 ORDER BY updated_ms DESC`).all() as ImageTarget[];
  const others = prepared(db,
    `SELECT ${columns} FROM (
       SELECT * FROM designs WHERE is_own = 0 AND primary_image_id IS NOT NULL ORDER BY updated_ms DESC LIMIT ?
     ) WHERE images_for_updated_at IS NOT updated_at`,
  ).all(options.imagePrefetchLimit ?? DEFAULT_IMAGE_PREFETCH_LIMIT) as ImageTarget[];
  const targets = [...own, ...others];
  const renditions = options.renditions ?? CACHED_RENDITIONS;
  let done = 0;
  let stopped = false;
  await report({ phase: 'images', done, total: targets.length });
  await mapWithConcurrency(targets, concurrency, async (target) => {
    if (stopped) return;
    try {
      const images = await readChildren(client, db, `/v1/designs/${target.id}/images`, signal, now);
      summary.images.designsChecked++;
      if (images === null) {
        summary.images.notModified++;
      } else {
        const result = replaceImages(db, target.id, images, now());
        summary.images.rowsWritten += result.written;
        summary.images.rowsRemoved += result.removed;
      }
      if (target.is_own === 1) {
        const documents = await readChildren(client, db, `/v1/designs/${target.id}/documents`, signal, now);
        summary.images.documentsChecked++;
        if (documents !== null) replaceDocuments(db, target.id, documents, now());
      }
      // Only once every rendition is in: a failed download is tried again next pull.
      if (await downloadCover(client, db, files, target, renditions, summary, signal)) markImagesFetched(db, target.id, target.updated_at);
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
      await report({ phase: 'images', done, total: targets.length });
    }
  });
}

/** A list of a design's images or documents through a conditional GET; null when not modified. */
async function readChildren(client: ServiceClient, db: WritableDB, path: string, signal: AbortSignal | undefined, now: () => number): Promise<unknown[] | null> {
  const validators = readValidators(db, path);
  const answer = await client.getConditional<unknown>(path, validators ?? {}, signal);
  if (answer.notModified) return null;
  writeValidators(db, path, answer.etag, answer.lastModified, now());
  return extractList(answer.value);
}

async function downloadCover(
  client: ServiceClient, db: WritableDB, files: FileCache, target: ImageTarget, renditions: readonly string[], summary: PullSummary, signal: AbortSignal | undefined,
): Promise<boolean> {
  const rows = prepared(db, 'SELECT id, updated_at, raw_json FROM images WHERE design_id = ? ORDER BY position').all(target.id) as
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
