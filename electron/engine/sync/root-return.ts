import type { RootCheck } from '../sync-state/sync-root';

export interface RootReturnOptions {
  verify: () => RootCheck;
  /** Still not there, or back but not ours (an empty folder in its place): told the reason of now. */
  stillAway: (check: RootCheck & { ok: false }) => void;
  /** Back as it was: make the watcher again and run a full pass. */
  back: () => Promise<void>;
  failed: (error: unknown) => void;
  /** After `back` settled: whether to look again (gone again meanwhile). */
  lookAgain: () => boolean;
  pollMs: number;
}

/**
 * Looks for the sync folder's return while it is missing: its path every pollMs (a ref'd timer: a watching process
 * must not end because chokidar let go of the vanished folder). Nothing runs while the folder is there.
 */
export class RootReturn {
  private poll: NodeJS.Timeout | null = null;
  private resuming: Promise<void> | null = null;

  constructor(private readonly options: RootReturnOptions) {}

  /** Starts looking, unless it looks already, the folder is coming back, or it is there (stopped for another reason). */
  await(): void {
    if (this.poll || this.resuming) return;
    if (this.options.verify().ok) return;
    this.poll = setInterval(() => this.look(), this.options.pollMs);
  }

  async stop(): Promise<void> {
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    await this.resuming;
  }

  private look(): void {
    if (this.resuming) return;
    const check = this.options.verify();
    if (!check.ok) {
      this.options.stillAway(check);
      return;
    }
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    const resuming = this.options.back().catch(this.options.failed).finally(() => {
      if (this.resuming === resuming) this.resuming = null;
      if (this.options.lookAgain()) this.await();
    });
    this.resuming = resuming;
  }
}
