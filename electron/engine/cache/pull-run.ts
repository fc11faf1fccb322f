import type { ServiceClient } from '../api/service-client';
import { isServiceError, ServiceError } from '../api/service-error';
import type { WritableDB } from './cache-database';
import { writeBackloggedSearchRows } from './search-backlog';
import type { FileCache } from './file-cache';
import { PullWriter } from './pull-writer';
import type { DesignCounts, PullOptions, PullProgress, PullSummary } from './pull-types';

/** One pull under way: what every step of it reads (the service, the cache, the options) and writes (the summary). */
export interface PullRun {
  client: ServiceClient;
  db: WritableDB;
  files: FileCache;
  /** Where the walks write design rows (the WAL of a large listing checkpointed on a thread of its own); ended by runPull. */
  writer: PullWriter;
  options: PullOptions;
  signal: AbortSignal | undefined;
  now: () => number;
  pageSize: number;
  concurrency: number;
  summary: PullSummary;
  /** Tells the caller of progress (and waits for it); throws a 'cancelled' ServiceError once the signal is aborted. */
  report(progress: PullProgress): Promise<void>;
  /** performance.now() when the pull started. */
  started: number;
}

export const emptyCounts = (): DesignCounts => ({ inserted: 0, updated: 0, unchanged: 0, removed: 0, skipped: 0 });

export function describe(error: unknown): string {
  // The transport's messages name their request already ("… answer to GET /v1/designs …"): said once is enough.
  if (isServiceError(error)) return error.problem.message.includes(error.path) ? error.problem.message : error.message;
  return error instanceof Error ? error.message : String(error);
}

/** What went wrong, as a person reads it: a service problem's own message (it names the request), else the error's. */
export function problemMessage(error: unknown): string {
  if (isServiceError(error)) return error.problem.message;
  return error instanceof Error ? error.message : String(error);
}

/** Failures that stop a pull (the ServiceError is thrown) rather than becoming a warning. */
export function isFatal(error: unknown): boolean {
  return isServiceError(error, 'cancelled') || isServiceError(error, 'offline');
}

/**
 * Starts a pull: its options read once, an empty summary, and, unless the pull leaves search rows behind it, the
 * search backlog's rows written (left by a pull stopped by a crash, or one that left them behind it: those designs
 * would not be found). `path` names the request a cancellation reports.
 */
export function startPull(client: ServiceClient, db: WritableDB, files: FileCache, options: PullOptions, path: string): PullRun {
  const started = performance.now();
  const signal = options.signal;
  const run: PullRun = {
    client, db, files, options, signal, started,
    writer: new PullWriter(db, {
      checkpointThreadFrom: options.checkpointThreadFrom, bulkFillFrom: options.bulkFillFrom, searchRows: options.searchRows,
      indexesBehindUpTo: options.indexesBehindUpTo,
    }),
    now: options.now ?? Date.now,
    pageSize: options.pageSize ?? 100,
    concurrency: options.concurrency ?? 4,
    summary: {
      designs: emptyCounts(), ownDesigns: null, listingComplete: false, listingProblem: null, ownDesignsProblem: null, removalsWithheld: 0,
      images: { designsChecked: 0, notModified: 0, rowsWritten: 0, rowsRemoved: 0, documentsChecked: 0 },
      files: { downloaded: 0, bytes: 0, alreadyCached: 0, failed: 0 },
      signedInAs: null, durationMs: 0, warnings: [],
    },
    async report(progress) {
      await options.onProgress?.(progress);
      if (signal?.aborted) throw new ServiceError({ kind: 'cancelled', message: 'Cancelled.' }, 'GET', path);
    },
  };
  if (options.searchRows !== 'behind') writeBackloggedSearchRows(db);
  return run;
}

/**
 * Runs the steps of a pull, then ends it: its duration, and the 'done' progress. However the steps end, the writer
 * thread is ended before this returns or throws (a cancelled pull, a closing engine leave no thread behind).
 */
export async function runPull(run: PullRun, steps: () => Promise<void>): Promise<PullSummary> {
  try {
    await steps();
  } finally {
    await run.writer.close();
  }
  run.summary.durationMs = Math.round(performance.now() - run.started);
  await run.options.onProgress?.({ phase: 'done', done: 1, total: 1 });
  return run.summary;
}
