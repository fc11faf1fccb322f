import type { SyncView } from '../../../shared';
import type { UpdatesView } from '../../../shared/updates/updates-view';
import { CHECK_INTERVAL_MS, retryDelayMs, STARTUP_CHECK_DELAY_MS, uploadsUnderWay, waitingForUploadsWords } from './update-policy';
import { updateProblem } from './update-problem';

/** What a check ended with. */
export type CheckOutcome =
  | { outcome: 'unavailable'; reason: string }
  | { outcome: 'up-to-date' }
  /** A newer version was downloaded and verified against what the feed published; it installs on quit. */
  | { outcome: 'downloaded'; version: string };

/** Where updates come from: electron-updater in the app (electron-updater-source.ts), a double in tests. */
export interface UpdateSource {
  /** The feed's address built into this copy, or null when it has none. */
  readonly feed: string | null;
  readonly channel: string;
  /** Why this copy cannot update itself at all (a development build…), or null. */
  unavailableReason(): string | null;
  /** Asks the feed; a newer version is downloaded (`found`, then `progress`) and verified before the promise settles. */
  check(found: (version: string) => void, progress: (percent: number) => void): Promise<CheckOutcome>;
}

export interface UpdateControllerOptions {
  source: UpdateSource;
  currentVersion: string;
  now(): Date;
  /** Runs `callback` after `ms`; returns what cancels it. */
  schedule(callback: () => void, ms: number): () => void;
  /** Quits the way the app does (uploads in flight finish or stop safely), then installs the update and starts it. */
  restart(): void;
  log(line: string): void;
  /** Told every change of the view (the tray, the menu, the window). */
  changed(view: UpdatesView): void;
}

/**
 * When design-sync looks for a new version and what it does with it: a check shortly after start and then daily (after
 * a failure: again in 15 min, 1 h, 4 h, then daily), the download in the background, installed when the app quits or
 * on "Restart now" — never while files are being sent: then it waits for the queue to be idle and says so.
 */
export class UpdateController {
  private current: UpdatesView;
  private failures = 0;
  private cancelTimer: (() => void) | null = null;
  private checking: Promise<void> | null = null;
  private lastSync: SyncView | null = null;
  private disposed = false;

  constructor(private readonly options: UpdateControllerOptions) {
    const reason = options.source.unavailableReason();
    this.current = {
      state: reason === null ? 'idle' : 'unavailable', currentVersion: options.currentVersion, version: null, percent: null, reason,
      feed: options.source.feed, channel: options.source.channel, lastCheckedAt: null, nextCheckAt: null,
    };
  }

  view(): UpdatesView {
    return this.current;
  }

  /** Plans the first check, STARTUP_CHECK_DELAY_MS from now (nothing when this copy cannot update). */
  start(): void {
    if (this.current.state === 'unavailable') return;
    this.planCheck(STARTUP_CHECK_DELAY_MS);
  }

  /** "Check for updates": at once (nothing new while a check or download is under way, or once one is ready). */
  checkNow(): Promise<void> {
    if (this.checking) return this.checking;
    const { state } = this.current;
    if (this.disposed || state === 'unavailable' || state === 'ready' || state === 'waiting-for-uploads' || state === 'installing') return Promise.resolve();
    this.checking = this.runCheck().finally(() => { this.checking = null; });
    return this.checking;
  }

  /** The engine's sync state (sync.changed): whether files are being sent. A restart that waited for them goes ahead. */
  syncChanged(sync: SyncView): void {
    this.lastSync = sync;
    if (this.current.state === 'waiting-for-uploads') {
      if (uploadsUnderWay(sync)) this.set({ reason: waitingForUploadsWords(sync) });
      else this.install();
    }
  }

  /** "Restart now": installs the downloaded update at once, or as soon as no file is being sent. */
  restartNow(): void {
    if (this.current.state !== 'ready') return;
    if (uploadsUnderWay(this.lastSync)) {
      this.options.log(`updates: version ${this.current.version} waits for the files being sent before restarting`);
      this.set({ state: 'waiting-for-uploads', reason: waitingForUploadsWords(this.lastSync) });
      return;
    }
    this.install();
  }

  /** The computer woke up: a check that fell due while it slept happens now. */
  resumed(): void {
    const due = this.current.nextCheckAt;
    if (due !== null && Date.parse(due) <= this.options.now().getTime()) {
      this.cancelTimer?.();
      this.cancelTimer = null;
      void this.checkNow();
    }
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  private async runCheck(): Promise<void> {
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.set({ state: 'checking', reason: null, percent: null, nextCheckAt: null });
    let outcome: CheckOutcome;
    try {
      outcome = await this.options.source.check(
        (version) => this.set({ state: 'downloading', version, percent: 0 }),
        (percent) => { if (this.current.state === 'downloading') this.set({ percent: Math.max(0, Math.min(100, percent)) }); },
      );
    } catch (error) {
      this.failed(error);
      return;
    }
    if (this.disposed) return;
    const checkedAt = this.options.now().toISOString();
    this.failures = 0;
    if (outcome.outcome === 'unavailable') {
      this.set({ state: 'unavailable', reason: outcome.reason, lastCheckedAt: checkedAt });
    } else if (outcome.outcome === 'up-to-date') {
      this.set({ state: 'up-to-date', version: null, percent: null, lastCheckedAt: checkedAt });
      this.planCheck(CHECK_INTERVAL_MS);
    } else {
      this.options.log(`updates: version ${outcome.version} downloaded and verified; it installs when design-sync quits`);
      this.set({ state: 'ready', version: outcome.version, percent: null, lastCheckedAt: checkedAt });
    }
  }

  private failed(error: unknown): void {
    if (this.disposed) return;
    const problem = updateProblem(error, this.current.feed);
    this.options.log(`updates: ${problem.reason} (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    if (problem.kind === 'no-feed') {
      this.set({ state: 'unavailable', reason: problem.reason, version: null, percent: null });
      return;
    }
    this.failures += 1;
    this.set({ state: 'failed', reason: problem.reason, version: null, percent: null });
    this.planCheck(retryDelayMs(this.failures));
  }

  private install(): void {
    this.options.log(`updates: restarting to install version ${this.current.version}`);
    this.set({ state: 'installing', reason: null });
    this.options.restart();
  }

  private planCheck(delayMs: number): void {
    if (this.disposed) return;
    this.cancelTimer?.();
    this.cancelTimer = this.options.schedule(() => {
      this.cancelTimer = null;
      void this.checkNow();
    }, delayMs);
    this.set({ nextCheckAt: new Date(this.options.now().getTime() + delayMs).toISOString() });
  }

  private set(changes: Partial<UpdatesView>): void {
    this.current = { ...this.current, ...changes };
    this.options.changed(this.current);
  }
}
