import { EventEmitter } from 'node:events';
import type { ServiceClient } from '../api/service-client';
import type { DesignCache } from '../cache/design-cache';
import { readSyncState } from '../cache/design-reads';
import { pullDesigns, type PullProgress, type PullSummary } from '../cache/pull';
import { engineLog } from '../log/engine-log';

export const DEFAULT_CATALOGUE_REFRESH_MINUTES = 60;

export interface CatalogueRefreshOptions {
  cache: DesignCache;
  /** The client to pull with; null while no service is chosen. */
  client: () => ServiceClient | null;
  intervalMs: () => number;
  now?: () => number;
}

export type CatalogueEvents = {
  progress: [PullProgress];
  finished: [{ summary: PullSummary | null; error: unknown }];
};

/**
 * The public catalogue's own pull (GET /v1/designs, every page): on request, and on a schedule while the engine runs
 * in the background — never as part of a sync pass, whose cost must not grow with the catalogue. One pull at a time:
 * asking while one runs joins it.
 */
export class CatalogueRefresh extends EventEmitter<CatalogueEvents> {
  private running: Promise<PullSummary> | null = null;
  private abort: AbortController | null = null;
  private timer: NodeJS.Timeout | undefined;
  private scheduled = false;
  private readonly now: () => number;

  constructor(private readonly options: CatalogueRefreshOptions) {
    super();
    this.now = options.now ?? Date.now;
  }

  get pulling(): boolean {
    return this.running !== null;
  }

  /** When the catalogue was last walked whole, or null. */
  lastPullAt(): number | null {
    return readSyncState(this.options.cache.reader).lastFullPullAt;
  }

  /** Pulls now (or joins the pull under way). Rejects with the ServiceError that stopped it (offline…). */
  pullNow(): Promise<PullSummary> {
    if (this.running) return this.running;
    const client = this.options.client();
    if (!client) return Promise.reject(new Error('No service is chosen.'));
    const abort = new AbortController();
    this.abort = abort;
    const run = pullDesigns(client, this.options.cache.db, this.options.cache.files, {
      signal: abort.signal,
      // The walk writes only the design rows; the engine's SearchIndexFill writes their search rows behind it.
      searchRows: 'behind',
      onProgress: (progress) => {
        this.emit('progress', progress);
      },
    });
    this.running = run;
    run.then(
      (summary) => this.emit('finished', { summary, error: null }),
      (error: unknown) => this.emit('finished', { summary: null, error }),
    ).finally(() => {
      if (this.running === run) this.running = null;
      if (this.abort === abort) this.abort = null;
      if (this.scheduled) this.arm();
    });
    return run;
  }

  /** Pulls when the catalogue is older than the interval, then every interval; the timer never keeps the process alive. */
  startSchedule(): void {
    this.scheduled = true;
    this.arm();
  }

  /** Whether the catalogue is older than the interval (never pulled counts). */
  isStale(): boolean {
    const last = this.lastPullAt();
    return last === null || this.now() - last >= this.options.intervalMs();
  }

  async stop(): Promise<void> {
    this.scheduled = false;
    clearTimeout(this.timer);
    this.abort?.abort();
    // Waits for the pull to end; how it ended went to 'finished' and to whoever asked for it.
    await Promise.allSettled([this.running]);
  }

  private arm(): void {
    clearTimeout(this.timer);
    if (!this.scheduled || this.running) return;
    const last = this.lastPullAt();
    const due = last === null ? 0 : Math.max(0, last + this.options.intervalMs() - this.now());
    this.timer = setTimeout(() => {
      void this.pullNow().catch((error: unknown) => {
        // Reported through 'finished' too; tried again at the next interval (or when the service is back).
        engineLog.warn('catalogue', 'the scheduled pull of the catalogue failed', error);
      });
    }, Math.min(due, 2 ** 31 - 1));
    this.timer.unref();
  }
}
