import { optimizeSearchIndex, upsertDesigns, writeDeferredSearchRows, DesignWriteSession, type DesignForm, type UpsertFlags } from './design-writes';
import type { PullRun } from './pull-run';
import type { DesignCounts } from './pull-types';

/** After this many design rows written in one pull, the search index is merged into one segment. */
const OPTIMIZE_AFTER_WRITES = 1000;

/**
 * Walks every page of a listing of designs (`form` says which form it sends), writing each page as it comes
 * (only what is new or changed), counting outcomes into `counts` and the ids seen into `seen`. A failed request
 * is thrown once the pages before it are written.
 */
export async function walk(
  run: PullRun, path: string, form: DesignForm, flags: UpsertFlags, counts: DesignCounts, seen: Set<number>,
  progress: (done: number, total: number | null) => Promise<void>,
): Promise<void> {
  const { client, db, pageSize, signal, now } = run;
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

/** After the walks of a pull: merges the search index when they wrote many rows. */
export function optimizeAfterManyWrites(run: PullRun): void {
  const { summary } = run;
  const written = summary.designs.inserted + summary.designs.updated + (summary.ownDesigns ? summary.ownDesigns.inserted + summary.ownDesigns.updated : 0);
  if (written >= OPTIMIZE_AFTER_WRITES) optimizeSearchIndex(run.db);
}
