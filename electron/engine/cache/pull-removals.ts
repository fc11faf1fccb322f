import type { WritableDB } from './cache-database';
import { deleteDesigns } from './design-writes';
import { updateSyncState } from './fetch-state-writes';
import { prepared } from './prepared';
import type { PullOptions, PullSummary } from './pull-types';

/** After a complete walk: removes cached published designs the listing no longer has, unless it shrank suspiciously. */
export function removeUnlisted(db: WritableDB, seen: Set<number>, summary: PullSummary, options: PullOptions, at: number): void {
  // Ids alone (no row object each: a pull of 10,000 designs spent 2 µs a design here), from the narrowest index that
  // holds them (a scan of the wide rows, for their flags, held the engine's thread 130–230 ms at 100,000 designs, 18 ms
  // this way), less the own designs not in the listing (their own walk keeps them) and the designs the person keeps
  // offline (kept with their files, and said to be gone from the service: keep-offline/); then the few gone read whole.
  const keptByOwnWalk = new Set(prepared(db, 'SELECT id FROM designs WHERE is_own = 1 AND in_listing = 0 UNION SELECT design_id FROM kept_designs').pluck().all() as number[]);
  const cached = (prepared(db, 'SELECT id FROM designs').pluck().all() as number[]).filter((id) => !keptByOwnWalk.has(id));
  const goneIds = cached.filter((id) => !seen.has(id));
  const gone = goneIds.length === 0 ? []
    : prepared(db, 'SELECT id, is_own FROM designs WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(goneIds)) as { id: number; is_own: number }[];
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

/** A cached own design, as releaseOwn decides about it. */
export interface OwnRow {
  id: number;
  /** 1 when the cache has it as part of the published listing. */
  in_listing: number;
}

/**
 * Own designs the user's listing no longer has: those `stillPublished` says are published stop being own; the
 * others are removed. Refused (nothing changes, a warning) when the user's listing shrank suspiciously.
 * Returns how many were removed.
 */
export function releaseOwn(db: WritableDB, seenOwn: Set<number>, stillPublished: (row: OwnRow) => boolean, summary: PullSummary, options: PullOptions): number {
  const own = prepared(db, 'SELECT id, in_listing FROM designs WHERE is_own = 1').all() as OwnRow[];
  const gone = own.filter((row) => !seenOwn.has(row.id));
  const refusal = shrinkRefusal('listed as yours', own.length, seenOwn.size, gone.length, options);
  if (refusal) {
    summary.removalsWithheld += gone.length;
    summary.warnings.push(refusal);
    return 0;
  }
  const release = prepared(db, 'UPDATE designs SET is_own = 0 WHERE id = ?');
  const remove: number[] = [];
  db.transaction(() => {
    for (const row of gone) {
      if (stillPublished(row)) release.run(row.id);
      else remove.push(row.id);
    }
  })();
  return deleteDesigns(db, remove);
}
