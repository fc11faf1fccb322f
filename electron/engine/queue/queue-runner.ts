import { EventEmitter } from 'node:events';
import { ServiceClient } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import type { Session } from '../authorization/session';
import { BaseFiles } from '../sync-state/base-files';
import { systemClock, type QueueClock, type QueueTimer } from './clock';
import { DesignFolders } from '../sync-state/design-folders';
import { SyncFolder } from '../sync-state/sync-root';
import { FolderChecks } from './folder-checks';
import { designGone, NoSyncFolderError, type Job, type JobContext, type JobResult } from './job';
import { jobOf } from './jobs';
import { failDamagedItem, readJobItem, rereadJobItem, type JobItem } from './job-items';
import { jobContext } from './job-context';
import { QueueJobStore } from './job-store';
import { followOtherProcesses } from './other-processes';
import { abortedOutcome, outcomeOfProblem, retryLater, type AbortReason, type ProblemOutcome, type QueueBlock } from './problem-outcome';
import { QueueBlocks, type WriteAccess } from './queue-blocks';
import type { ConnectivitySource } from './connectivity-source';
import { describeItem } from './describe-item';
import { type QueueStore } from './queue-store';
import { heldBack, reasonText, saidOf, type QueueEvent, type QueueItem, type SentAttempt } from './queue-item';
import { acquireRunnerLock } from './runner-lock';
import { RunnerWaiters } from './runner-waiters';
import { engineLog } from '../log/engine-log';
import { said, type Said } from './said';
import { sentence } from './refusal-words';

export { contentPolicyReason, type WriteAccess } from './queue-blocks';

export interface QueueRunnerOptions {
  store: QueueStore;
  session: WriteAccess;
  /** Best made with queueClient(): no retries of its own, the queue does them (and shows them). */
  client: ServiceClient;
  /** Items sent at the same time (default 2). */
  concurrency?: number;
  /** Attempts of an item failing with a server error before it is marked failed (default 8). */
  maxAttempts?: number;
  /** The sync folder; by default the one in sync_root. */
  root?: string;
  /** Progress is stored at most this often per item (default 250 ms). */
  progressIntervalMs?: number;
  /** A file must stay unchanged this long before a version other than the queued one is sent (default 2 s). */
  settleMs?: number;
  /** Jitter source, in [0, 1). */
  random?: () => number;
  /** Time and timers (backoff, Retry-After, the offline probe): the system's by default; give the store the same one. */
  clock?: QueueClock;
  /**
   * Notice changes other processes make to the queue (`design-sync queue retry|cancel|pause` while the app runs):
   * a file watch on the database's folder, checked with PRAGMA data_version. No polling. Default: true for a file database.
   */
  followOtherProcesses?: boolean;
  /**
   * Rule 5: whether the person has confirmed they upload only what they have the right to publish. Until then the
   * whole queue waits for them (call contentPolicyChanged() once they have). Default: no such gate.
   */
  contentPolicyAccepted?: () => boolean;
  /**
   * Why a file of the sync folder is never sent now (its ignore files as they are at this moment, the built-in list),
   * in words, or null: asked just before an upload, a new version or a rename leaves, so a change queued before an
   * ignore file came to hold its file back is withdrawn rather than sent. Default: nothing held back here.
   */
  neverSent?: (path: string) => Promise<Said | null>;
  /**
   * The engine's one source of connectivity (runtime/connectivity.ts): while the service is away the queue waits on it,
   * so that the queue and the sync status never disagree. Without one, the queue probes the service itself.
   */
  connectivity?: ConnectivitySource;
}

/** A client for the runner: the session's token (a refusal moves it to needs-sign-in), and no retries of its own. */
export function queueClient(session: Pick<Session, 'transportOptions'>, baseUrl: string, userAgent = 'design-sync'): ServiceClient {
  return new ServiceClient(session.transportOptions({ baseUrl, userAgent, retry: { retries: 0 } }));
}

interface Active {
  item: QueueItem;
  controller: AbortController;
  aborted: AbortReason | null;
  done: Promise<void>;
}

/**
 * Sends the durable queue's items to the service, a few at a time (Signal's JobQueue is the model). It wakes when an
 * item is queued or changed ('change' events of the store, or another process's write) and when the next item falls
 * due (one unref'd timer); idle, it does nothing at all. Problems of the service become states: the whole queue waits
 * while the service is unreachable (probing with backoff) or asks to slow down, or while nobody is signed in, and
 * resumes by itself. An item whose last answer was lost (or whose process died) is reconciled with the service before
 * it is sent again, so nothing is lost and nothing is made twice.
 */
export class QueueRunner extends EventEmitter<{ blocked: [QueueBlock | null] }> {
  readonly store: QueueStore;
  readonly client: ServiceClient;
  private readonly session: WriteAccess;
  private readonly baseFiles: BaseFiles;
  private readonly designFolders: DesignFolders;
  private readonly jobStore: QueueJobStore;
  private readonly folder: FolderChecks;
  private readonly blocks: QueueBlocks;
  private readonly waiters = new RunnerWaiters();
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly progressIntervalMs: number;
  private readonly settleMs: number;
  private readonly neverSent: ((path: string) => Promise<Said | null>) | null;
  private readonly random: () => number;
  private readonly clock: QueueClock;
  /** Items a process that stopped mid-way left running: what they sent may still be carried out by the service. */
  private readonly interrupted = new Set<number>();
  private readonly follow: boolean;

  private running = false;
  private readonly active = new Map<number, Active>();
  private dueTimer: QueueTimer | undefined;
  private pumpQueued = false;
  private unsubscribeSession: (() => void) | null = null;
  private unfollow: (() => void) | null = null;
  private readonly onChange = (event: QueueEvent) => this.noticeChange(event);

  private releaseLock: (() => void) | null = null;

  constructor(private readonly options: QueueRunnerOptions) {
    super();
    this.store = options.store;
    this.client = options.client;
    this.session = options.session;
    this.baseFiles = new BaseFiles(this.store.db);
    this.designFolders = new DesignFolders(this.store.db);
    this.jobStore = new QueueJobStore(this.store.db, this.store.items, this.baseFiles, this.designFolders);
    this.folder = new FolderChecks(this.store, new SyncFolder(this.store.db), options.root);
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.maxAttempts = options.maxAttempts ?? 8;
    this.progressIntervalMs = options.progressIntervalMs ?? 250;
    this.settleMs = options.settleMs ?? 2_000;
    this.neverSent = options.neverSent ?? null;
    this.random = options.random ?? Math.random;
    this.clock = options.clock ?? systemClock;
    this.follow = options.followOtherProcesses ?? !this.store.db.memory;
    this.blocks = new QueueBlocks({
      store: this.store, session: this.session, client: this.client, random: this.random, clock: this.clock,
      ...(options.connectivity ? { connectivity: options.connectivity } : {}),
      contentPolicyAccepted: () => options.contentPolicyAccepted?.() ?? true,
      running: () => this.running,
      changed: (cleared) => {
        this.emit('blocked', this.blockedBy);
        if (cleared) this.schedulePump();
      },
    });
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Why the whole queue waits, or null. */
  get blockedBy(): QueueBlock | null {
    return this.blocks.blockedBy;
  }

  /**
   * Starts sending. Items a previous process left running go back in line first, to be reconciled before they
   * are sent again. Throws QueueLockedError when another live process runs this profile's queue.
   */
  start(): void {
    if (this.running) return;
    const file = this.store.db.name;
    if (file && file !== ':memory:' && !this.store.db.memory) this.releaseLock = acquireRunnerLock(`${file}.runner.lock`);
    this.running = true;
    for (const item of this.store.recoverInterrupted()) {
      this.interrupted.add(item.id);
      this.store.log('warning', said('activity.queue.interrupted', { item: describeItem(item) }), item.path ?? item.folder);
    }
    this.store.on('change', this.onChange);
    this.unsubscribeSession = this.session.subscribe(() => this.blocks.sessionChanged());
    if (this.follow) this.unfollow = followOtherProcesses(this.store, () => this.running && this.noticeOtherProcess());
    this.blocks.startChecks();
    this.schedulePump();
  }

  /**
   * Stops: nothing more is started; what is being sent may finish for up to `drainMs` (default 0), so that its outcome
   * is known, then the rest is aborted and goes back in line (reconciled at the next start if it may have arrived).
   */
  async stop(options: { drainMs?: number } = {}): Promise<void> {
    if (!this.running) return;
    this.running = false;
    const drainMs = options.drainMs ?? 0;
    if (drainMs > 0 && this.active.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.active.values()].map((entry) => entry.done)),
        new Promise((resolve) => { timer = setTimeout(resolve, drainMs); }),
      ]);
      clearTimeout(timer);
    }
    this.store.off('change', this.onChange);
    this.unsubscribeSession?.();
    this.unsubscribeSession = null;
    this.unfollow?.();
    this.unfollow = null;
    this.clock.clearTimer(this.dueTimer);
    const entries = [...this.active.values()];
    for (const entry of entries) this.abort(entry, 'stop');
    await Promise.allSettled(entries.map((entry) => entry.done));
    this.blocks.reset();
    this.releaseLock?.();
    this.releaseLock = null;
    this.waiters.rejectAll(new Error('The queue runner stopped.'));
  }

  /**
   * Resolves once there is nothing left to send now: nothing running here and nothing waiting (unpaused), or the
   * whole queue paused, or sync stopped (the folder vanished…: nothing may leave until it is back). While the service
   * is unreachable items wait, so this waits too, until they are sent.
   */
  waitForIdle(options: { timeoutMs?: number } = {}): Promise<void> {
    return this.waitUntil(() => this.isIdle(), options);
  }

  /** Resolves once `predicate` holds, checked after every change of the queue and of the runner. */
  waitUntil(predicate: () => boolean, options: { timeoutMs?: number } = {}): Promise<void> {
    return this.waiters.wait(predicate, options.timeoutMs, () => `status: ${JSON.stringify(this.store.status())}`);
  }

  private isIdle(): boolean {
    if (this.active.size > 0 || this.pumpQueued) return false;
    return heldBack(this.store.status()) || this.store.countWaiting() === 0;
  }

  // Waking up

  private schedulePump(): void {
    if (this.pumpQueued) return;
    this.pumpQueued = true;
    setImmediate(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  private pump(): void {
    if (this.running && !this.blocks.active) {
      while (this.active.size < this.concurrency) {
        const item = this.store.claimNext();
        if (!item) break;
        this.launch(item);
      }
      this.armDueTimer();
    }
    this.waiters.check();
  }

  /** One timer, for the next item that falls due (backoff, Retry-After); none when nothing waits. */
  private armDueTimer(): void {
    this.clock.clearTimer(this.dueTimer);
    this.dueTimer = undefined;
    if (this.blocks.active || this.active.size >= this.concurrency) return;
    const at = this.store.nextDueAt();
    if (at === null) return;
    let delay = at - this.clock.now();
    if (delay <= 0) {
      // Due but not claimed: the queue is paused or sync stopped (resuming either is a status change, which wakes
      // us), or the clock is a millisecond behind. Without this, a stopped sync would wake the runner every 10 ms.
      if (heldBack(this.store.status())) return;
      delay = 10;
    }
    this.dueTimer = this.clock.setTimer(() => this.pump(), delay);
  }

  private noticeChange(event: QueueEvent): void {
    if (event.type === 'item') {
      const entry = this.active.get(event.item.id);
      if (entry) {
        if (event.item.state === 'cancelled') this.abort(entry, 'cancel');
        else if (event.item.paused) this.abort(entry, 'pause');
        if (this.waiters.size > 0) this.schedulePump();
        return;
      }
      if (event.item.state !== 'waiting' || event.item.paused) {
        if (this.waiters.size > 0) this.schedulePump();
        return;
      }
    } else if (event.status.queuePaused) {
      for (const entry of this.active.values()) this.abort(entry, 'pause');
    }
    this.schedulePump();
  }

  /** The person accepted the content policy (rule 5): the queue may go on. */
  contentPolicyChanged(): void {
    this.blocks.contentPolicyChanged();
  }

  private noticeOtherProcess(): void {
    const queuePaused = this.store.status().queuePaused;
    for (const entry of this.active.values()) {
      const row = this.store.get(entry.item.id);
      if (!row || row.state === 'cancelled') this.abort(entry, 'cancel');
      else if (row.paused || queuePaused) this.abort(entry, 'pause');
    }
    this.schedulePump();
  }

  private abort(entry: Active, reason: AbortReason): void {
    if (entry.aborted) return;
    entry.aborted = reason;
    entry.controller.abort(new Error(reason));
  }

  // Running one item

  private launch(item: QueueItem): void {
    const entry: Active = { item, controller: new AbortController(), aborted: null, done: Promise.resolve() };
    this.active.set(item.id, entry);
    entry.done = this.execute(entry)
      .catch((error: unknown) => {
        // A bug, not a problem of the service: the item must not stay 'running' in this process.
        engineLog.error('queue', `${describeItem(item).text} (item ${item.id}) failed unexpectedly`, error);
        const reason = said('queue.reason.failedUnexpectedly', { item: describeItem(item) });
        this.store.log('error', reason, item.path ?? item.folder);
        this.store.settle(item.id, { state: 'waiting', at: this.clock.now() + 60_000, reason, countAttempt: true, sent: 'keep' });
      })
      .finally(() => {
        this.active.delete(item.id);
        this.schedulePump();
      });
  }

  private async execute(entry: Active): Promise<void> {
    const read = readJobItem(entry.item);
    if (!read.ok) return failDamagedItem(this.store, entry.item, read.field, read.problem);
    let item = read.item;
    const job = jobOf(item.kind);
    const ctx = this.contextFor(item, entry.controller.signal);
    try {
      let result: JobResult | null = null;
      if (item.sent) {
        result = await job.reconcile(item, item.sent, ctx);
        if (!result) {
          // Not on the service yet, though it may have had the whole attempt of a process that stopped mid-way: a
          // request whose sender died can still be carried out moments later. Looked at again once that is past.
          const lookAgainAt = this.interrupted.has(item.id) ? inDoubtUntil(item.sent) : 0;
          if (lookAgainAt > this.clock.now()) {
            this.store.settle(item.id, { state: 'waiting', at: lookAgainAt, reason: null, countAttempt: false, sent: 'keep' });
            return;
          }
          this.interrupted.delete(item.id);
          this.store.clearSent(item.id);
          item = rereadJobItem(this.store, item);
        }
      }
      result ??= (await this.withdrawnAsNeverSent(item)) ?? await job.run(item, ctx);
      this.apply(item, result);
    } catch (error) {
      await this.fail(entry, item, job, ctx, error);
    }
  }

  /**
   * A change of a file that is never sent now (an ignore file changed since the scan queued it), not sent yet: withdrawn,
   * and said; the file stays as it is, here and on the service. Null when it may go.
   */
  private async withdrawnAsNeverSent(item: JobItem): Promise<JobResult | null> {
    if (!this.neverSent || !item.path || !['upload', 'replace', 'rename'].includes(item.kind)) return null;
    const why = await this.neverSent(item.path);
    if (!why) return null;
    return { outcome: 'cancelled', reason: said('queue.reason.neverSentNow', { path: item.path, why, kind: item.kind }) };
  }

  private contextFor(item: QueueItem, signal: AbortSignal): JobContext {
    return jobContext({
      client: this.client, store: this.store, jobStore: this.jobStore, baseFiles: this.baseFiles, designFolders: this.designFolders, folder: this.folder,
      clock: this.clock, settleMs: this.settleMs, progressIntervalMs: this.progressIntervalMs,
    }, item.id, signal);
  }

  private apply(item: QueueItem, result: JobResult): void {
    const where = item.path ?? item.folder;
    switch (result.outcome) {
      case 'folder-missing':
        // The item goes back in line, and nothing leaves until the folder side finds the folder back (it then
        // replaces 'stopped' with its own state, which wakes the runner).
        this.store.settle(item.id, { state: 'waiting', at: 0, reason: result.reason, countAttempt: false, sent: 'keep' });
        if (this.store.status().state !== 'stopped') {
          this.store.setRunState('stopped', reasonText(result.reason));
          this.store.log('error', saidOf(result.reason));
        }
        return;
      case 'done':
        this.store.complete(item.id, result.record, { said: result.message, path: where });
        return;
      case 'waiting':
        this.store.settle(item.id, { state: 'waiting', at: result.at, reason: result.reason, countAttempt: false, sent: 'clear' });
        return;
      case 'cancelled':
        if (this.store.settle(item.id, { state: 'cancelled', reason: result.reason })) this.store.log('info', result.reason, where);
        return;
      case 'attention':
        if (this.store.settle(item.id, { state: 'attention', attention: result.attention, reason: result.reason })) this.store.log('warning', result.reason, where);
        return;
      case 'failed':
        if (this.store.settle(item.id, { state: 'failed', reason: result.reason })) this.store.log('error', result.reason, where);
        return;
    }
  }

  private async fail(entry: Active, item: JobItem, job: Job, ctx: JobContext, error: unknown): Promise<void> {
    const now = this.clock.now();
    const options = { now, maxAttempts: this.maxAttempts, random: this.random, validationAttention: job.validationAttention, aborted: entry.aborted };
    let outcome: ProblemOutcome;
    if (isServiceError(error) && error.problem.kind === 'not-found' && !entry.aborted) {
      try {
        const result = (await job.notFound?.(item, ctx)) ?? (await designGone(item, ctx));
        if (result) return this.apply(item, result);
        outcome = { settlement: { state: 'failed', reason: said('queue.reason.notFound', { message: error.problem.message }) } };
      } catch (again) {
        return this.fail(entry, item, job, ctx, again);
      }
    } else if (item.path && (item.kind === 'upload' || item.kind === 'replace') && !entry.aborted && !(await this.folder.fileStillThere(item.path)) && (await this.folder.rootProblem())) {
      // The whole sync folder went while the file was read: not a removed file. Held until the folder is back.
      return this.apply(item, { outcome: 'folder-missing', reason: (await this.folder.rootProblem())! });
    } else if (isServiceError(error) && error.problem.kind === 'offline' && (await this.folder.changedWhileSent(item))) {
      // Reading the file failed because it changed (or went): a local matter, not the service being away.
      outcome = (await this.folder.fileStillThere(item.path!))
        ? { settlement: { state: 'waiting', at: now, reason: said('queue.reason.changedWhileSent', { path: item.path! }), countAttempt: false, sent: 'keep' } }
        : { settlement: { state: 'cancelled', reason: said('queue.reason.removedWhileSent', { path: item.path! }) } };
    } else if (isServiceError(error)) {
      // The item's reason is in words; what the network said (its code) is kept here.
      if (error.problem.kind === 'offline') engineLog.info('queue', `${describeItem(item).text} (item ${item.id}) waits for the service`, error);
      outcome = outcomeOfProblem(error.problem, item, options);
    } else if (entry.aborted) {
      outcome = abortedOutcome(entry.aborted, now);
    } else if (error instanceof NoSyncFolderError) {
      outcome = { settlement: { state: 'failed', reason: said('queue.reason.noSyncFolder') } };
    } else {
      // A local problem (the file vanished or changed while it was read, a disk error…).
      if (item.path && (item.kind === 'upload' || item.kind === 'replace') && !(await this.folder.fileStillThere(item.path))) {
        outcome = { settlement: { state: 'cancelled', reason: said('queue.reason.removedWhileSent', { path: item.path! }) } };
      } else {
        outcome = retryLater(item, sentence(error instanceof Error ? error.message : String(error)), options);
      }
    }

    const { settlement } = outcome;
    const settled = this.store.settle(item.id, settlement);
    const where = item.path ?? item.folder;
    if (settled && settlement.state !== 'waiting') {
      this.store.log(settlement.state === 'cancelled' ? 'info' : settlement.state === 'attention' ? 'warning' : 'error', saidOf(settlement.reason), where);
    } else if (settled && settlement.state === 'waiting' && settlement.countAttempt && settlement.reason) {
      this.store.log('warning', said('activity.queue.itemWaits', { item: describeItem(item), reason: saidOf(settlement.reason) }), where);
    }
    if (!settled) await this.reconcileCancelled(item, job);
    if (outcome.block) this.blocks.enter(outcome.block);
  }

  /** A person cancelled an item while it was being sent: if the service got it anyway, it is kept as synced (not lost, not made twice). */
  private async reconcileCancelled(item: QueueItem, job: Job): Promise<void> {
    const stored = this.store.get(item.id);
    const read = stored ? readJobItem(stored) : null;
    if (!read?.ok || read.item.state !== 'cancelled' || !read.item.sent) return;
    const { item: row } = read;
    const sent = row.sent!;
    try {
      const result = await job.reconcile(row, sent, this.contextFor(row, new AbortController().signal));
      if (result?.outcome === 'done') {
        this.store.complete(row.id, result.record, { said: said('activity.queue.cancelledButThere', { item: describeItem(row) }), path: row.path ?? row.folder });
      } else {
        this.store.clearSent(row.id);
      }
    } catch (error) {
      // Unknown: the folder side's comparison with the service will find it.
      engineLog.warn('queue', `could not tell whether the cancelled ${describeItem(row).text} had reached the service`, error);
    }
  }
}

/**
 * How long after it began an attempt of a process that stopped mid-way stays in doubt when the service does not show
 * it, if the service may have had it whole (one with its hash: recorded at the latest before the body's last bytes
 * went): the service may still be carrying out a request whose sender was killed (a slow write, a request held in a
 * queue). An attempt without a hash was never had whole, and is sent again at once.
 */
export const IN_DOUBT_GRACE_MS = 5_000;

function inDoubtUntil(sent: SentAttempt): number {
  return sent.sha1 === null ? 0 : sent.at + IN_DOUBT_GRACE_MS;
}
