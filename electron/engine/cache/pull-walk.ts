import type { DesignForm, UpsertFlags } from './design-writes';
import type { PageWrite } from './pull-writer';
import type { PullRun } from './pull-run';
import type { DesignCounts } from './pull-types';
import { engineLog } from '../log/engine-log';

/** After this many design rows written in one pull, the search index is merged into one segment. */
export const OPTIMIZE_AFTER_WRITES = 1000;

/**
 * How many pages the walk may have fetched beyond those whose writes it has counted and reported: pages wait while
 * the WAL is checkpointed (pull-writer.ts), and a slow consumer of progress still holds the walk back.
 */
export const PAGES_AHEAD = 8;

interface PendingPage {
  write: PageWrite;
  total: number | null;
}

/**
 * Walks every page of a listing of designs (`form` says which form it sends), handing each page to the pull's
 * writer as it comes (only what is new or changed is written), counting outcomes into `counts` and the ids seen into
 * `seen`, and reporting progress as pages are written, in order. A failed request or write is thrown once the pages
 * before it are written.
 */
export async function walk(
  run: PullRun, path: string, form: DesignForm, flags: UpsertFlags, counts: DesignCounts, seen: Set<number>,
  progress: (done: number, total: number | null) => Promise<void>,
): Promise<void> {
  const { client, writer, pageSize, signal, now } = run;
  const pages = client.allPages<{ id?: unknown }>(path, { limit: pageSize, signal });
  const pending: PendingPage[] = [];
  const account = async (page: PendingPage) => {
    for (const { outcome, id } of await page.write.results) {
      if (outcome === 'skipped') counts.skipped++;
      else counts[outcome]++;
      if (id !== undefined) seen.add(id);
    }
  };
  let next = pages.next();
  let finished = false;
  try {
    for (let first = true; ; first = false) {
      const result = await next;
      if (result.done) break;
      const page = result.value;
      // The next page is asked for (and the service works on it) while this one is written.
      // A failure of that request surfaces once the pages before it are written and reported, as it would without it.
      next = pages.next();
      next.catch(() => {});
      if (first && form === 'list') writer.fillInBulkWhenLarge(page.totalCount ?? null);
      if (first) writer.expect(page.totalCount ?? null);
      if (page.nextPage !== null) await new Promise((resolve) => setImmediate(resolve)); // lets the request go out first
      pending.push({ write: writer.write(page.items, form, now(), flags, page.itemsText), total: page.totalCount ?? null });
      if (!first) writer.expect(null);
      while (pending.length > 0 && (pending[0]!.write.settled || pending.length > PAGES_AHEAD)) {
        const written = pending.shift()!;
        await account(written);
        await progress(seen.size, written.total);
      }
    }
    while (pending.length > 0) {
      const written = pending.shift()!;
      await account(written);
      await progress(seen.size, written.total);
    }
    finished = true;
  } finally {
    // Stopped early (a failed request or write, a cancelled pull): the page asked for ahead is not wanted, and the
    // pages handed over are let finish (they count as written; a failure after the first is not news).
    if (!finished) {
      pages.return(undefined).catch((error) => engineLog.warn('pull', 'the page asked for ahead of a stopped walk failed', error));
      for (const page of pending.splice(0)) await account(page).catch((error) => engineLog.warn('pull', 'a page handed over before the walk stopped failed', error));
    }
    // Whether the walk ended or stopped, what it wrote is searchable when it returns. Should that fail after
    // another failure, the walk's own error is the one reported (the next pull writes the rows).
    try {
      await writer.endWalk();
    } catch (error) {
      if (finished) throw error;
    }
  }
}

/**
 * After the walks of a pull: merges the search index when they wrote many of its rows (a pull that leaves them behind
 * it leaves the merge to whoever writes them); the writer is done (its checkpoint thread ended).
 */
export async function finishWalks(run: PullRun): Promise<void> {
  const { summary } = run;
  const written = summary.designs.inserted + summary.designs.updated + (summary.ownDesigns ? summary.ownDesigns.inserted + summary.ownDesigns.updated : 0);
  if (written >= OPTIMIZE_AFTER_WRITES && run.options.searchRows !== 'behind') await run.writer.optimize();
  await run.writer.close();
}
