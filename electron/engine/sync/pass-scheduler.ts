import type { QueueEvent } from '../queue/queue-item';
import type { PassOptions, PassResult } from './sync-options';

export interface PassSchedulerOptions {
  /** A local scan (all folders, or these), run in the chain. */
  scan(options: PassOptions): Promise<PassResult>;
  /** A full pass, run in the chain. */
  syncOnce(options: PassOptions): Promise<PassResult>;
  /** Whether the engine is started: nothing is scheduled otherwise. */
  started(): boolean;
  /** Whether the next scan must look at every folder (the sync folder is not there as it was, or sync is stopped). */
  wholeFolder(): boolean;
  /** Whether the watcher failed: the full rescan then comes every minute at most. */
  watcherFailing(): boolean;
  /** A scheduled scan or rescan failed. */
  failed(what: 'scan' | 'rescan', error: unknown): void;
  debounceMs: number;
  settleMs: number;
  rescanIntervalMs: number;
}

/** At most a minute between full rescans while the watcher cannot be trusted. */
const WITHOUT_WATCHER_MS = 60_000;

/**
 * When the sync engine passes, and over what: passes run one at a time (`serial`); the folders the watcher, the app or
 * the queue said changed are gathered (`dirty`) and scanned after a debounce; files still being written are looked at
 * again once they may have settled, files left while they were being sent once their item ends; a full rescan
 * comes every rescanIntervalMs (an unref'd timer: the only one while idle). Holds no pass logic of its own.
 */
export class PassScheduler {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly dirtyFolders = new Set<string>();
  private dirtyAll = false;
  /** Folders with a file left because an item of it was being sent: scanned again when an item of theirs ends. */
  private readonly deferredFolders = new Set<string>();
  private rescanTimer: NodeJS.Timeout | null = null;
  private debounceTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: PassSchedulerOptions) {}

  /** Runs work after everything before it in the chain: passes never overlap. */
  serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.catch(() => {}).then(work);
    this.chain = next;
    return next;
  }

  /** Something changed in this top-level folder (null: at the top, or in what every folder obeys): scanned after the debounce. */
  changed(folder: string | null): void {
    if (folder === null) this.dirtyAll = true;
    else this.dirtyFolders.add(folder);
    this.scheduleScan(this.options.debounceMs);
  }

  /** The next scheduled scan looks at every folder. */
  markAll(): void {
    this.dirtyAll = true;
  }

  /** Forgets what was marked (a full pass is about to look at everything). */
  clearDirty(): void {
    this.dirtyAll = false;
    this.dirtyFolders.clear();
  }

  /** What a pass left to look at again: files left while being sent, and files still being written (once they may have settled). */
  afterPass(result: PassResult): void {
    if (!result.scan) return;
    for (const path of result.scan.deferred) this.deferredFolders.add(topOf(path));
    if (this.options.started() && result.scan.unsettled.length > 0) {
      for (const path of result.scan.unsettled) this.dirtyFolders.add(topOf(path));
      this.scheduleScan(this.options.settleMs);
    }
  }

  /** An item of the queue ended: its folder is scanned again when a file of it was left for it, or a design was made for it. */
  itemChanged(event: QueueEvent): void {
    if (event.type !== 'item') return;
    const { item } = event;
    if (!['done', 'failed', 'cancelled'].includes(item.state) || !item.folder) return;
    if (item.kind === 'create-design' || this.deferredFolders.has(item.folder)) {
      this.deferredFolders.delete(item.folder);
      this.changed(item.folder);
    }
  }

  /** The debounced scan of what is marked, in `delay` ms (a later call moves it). */
  scheduleScan(delay: number): void {
    if (!this.options.started()) return;
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = null;
      const all = this.dirtyAll || this.options.wholeFolder();
      const folders = [...this.dirtyFolders];
      this.clearDirty();
      void this.options.scan(all ? {} : { folders }).catch((error) => this.options.failed('scan', error));
    }, delay);
    this.debounceTimer.unref();
  }

  /** The next full rescan in `interval` ms (by default rescanIntervalMs); after it, every minute at most while the watcher fails. */
  scheduleRescan(interval = this.options.rescanIntervalMs): void {
    if (this.rescanTimer) clearTimeout(this.rescanTimer);
    this.rescanTimer = setTimeout(() => {
      this.rescanTimer = null;
      void this.options.syncOnce({ settle: 'once' }).catch((error) => this.options.failed('rescan', error)).finally(() => {
        if (this.options.started()) this.scheduleRescan(this.rescanInterval());
      });
    }, interval);
    this.rescanTimer.unref();
  }

  /** rescanIntervalMs, or a minute at most while the watcher fails. */
  rescanInterval(): number {
    return this.options.watcherFailing() ? Math.min(this.options.rescanIntervalMs, WITHOUT_WATCHER_MS) : this.options.rescanIntervalMs;
  }

  /** No timer left. */
  stopTimers(): void {
    if (this.rescanTimer) clearTimeout(this.rescanTimer);
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.rescanTimer = this.debounceTimer = null;
  }

  /** Resolves once the passes in the chain now are done (their failures are the callers'). */
  async settled(): Promise<void> {
    await this.chain.catch(() => {});
  }

  /** Waits until no pass runs or is scheduled. */
  async idle(): Promise<void> {
    for (;;) {
      const chain = this.chain;
      await chain.catch(() => {});
      if (chain === this.chain && !this.debounceTimer) return;
      if (this.debounceTimer) await new Promise((resolve) => setTimeout(resolve, this.options.debounceMs));
    }
  }
}

const topOf = (path: string) => path.split('/')[0]!;
