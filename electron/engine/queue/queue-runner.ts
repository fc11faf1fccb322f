import { EventEmitter } from 'node:events';
import { watch, type FSWatcher } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { ServiceProblem, SyncStatusView } from '../../../shared';
import { ServiceClient } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import type { Session, SessionState } from '../authorization/session';
import { BaseFiles } from '../sync-state/base-files';
import { DesignFolders } from '../sync-state/design-folders';
import { SyncFolder } from '../sync-state/sync-root';
import { backoffDelay } from './backoff';
import { absolutePath, currentVersion, sameVersion } from './file-version';
import { designGone, NoSyncFolderError, type Job, type JobContext, type JobResult } from './job';
import { JOBS } from './jobs';
import { abortedOutcome, outcomeOfProblem, retryLater, type AbortReason, type ProblemOutcome, type QueueBlock } from './problem-outcome';
import type { QueueEvent, QueueItem, QueueStore } from './queue-store';
import { acquireRunnerLock } from './runner-lock';

/** What the runner needs of the session: whether it may write now, and to hear when that changes. */
export type WriteAccess = Pick<Session, 'canWrite' | 'subscribe' | 'state'>;

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
}

/** What the queue says while it waits for the content policy to be accepted (rule 5). */
export const CONTENT_POLICY_REASON =
  'Waiting for you: confirm that you upload only designs and files you have the right to publish, under the service\'s content policy. Nothing is sent until you do.';

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

type Block =
  | { kind: 'offline'; message: string; attempt: number; reason: string }
  | { kind: 'rate-limited'; untilMs: number; reason: string }
  | { kind: 'sign-in'; reason: string }
  | { kind: 'content-policy'; reason: string };

interface Waiter {
  predicate: () => boolean;
  resolve: () => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
}

const RUNNER_STATES = new Set(['idle', 'syncing', 'waiting']);
const MAX_TIMER_MS = 2 ** 31 - 1;

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
  private readonly syncFolder: SyncFolder;
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly progressIntervalMs: number;
  private readonly settleMs: number;
  private readonly random: () => number;
  private readonly follow: boolean;

  private running = false;
  private readonly active = new Map<number, Active>();
  private block: Block | null = null;
  private blockTimer: NodeJS.Timeout | undefined;
  private dueTimer: NodeJS.Timeout | undefined;
  private pumpQueued = false;
  private waiters: Waiter[] = [];
  /** The sync_status the runner wrote last. */
  private written: { state: string; reason: string | null } | null = null;
  private unsubscribeSession: (() => void) | null = null;
  private watcher: FSWatcher | null = null;
  private followTimer: NodeJS.Timeout | undefined;
  private readonly onChange = (event: QueueEvent) => this.noticeChange(event);

  private releaseLock: (() => void) | null = null;

  constructor(private readonly options: QueueRunnerOptions) {
    super();
    this.store = options.store;
    this.client = options.client;
    this.session = options.session;
    this.baseFiles = new BaseFiles(this.store.db);
    this.designFolders = new DesignFolders(this.store.db);
    this.syncFolder = new SyncFolder(this.store.db);
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.maxAttempts = options.maxAttempts ?? 8;
    this.progressIntervalMs = options.progressIntervalMs ?? 250;
    this.settleMs = options.settleMs ?? 2_000;
    this.random = options.random ?? Math.random;
    this.follow = options.followOtherProcesses ?? !this.store.db.memory;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Why the whole queue waits, or null. */
  get blockedBy(): QueueBlock | null {
    if (!this.block) return null;
    if (this.block.kind === 'offline') return { kind: 'offline', message: this.block.message };
    if (this.block.kind === 'content-policy') return { kind: 'content-policy' };
    return this.block.kind === 'rate-limited' ? { kind: 'rate-limited', untilMs: this.block.untilMs } : { kind: 'sign-in' };
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
      this.store.log('warning', `${describe(item)} was interrupted: it is checked with the service before it is sent again.`, item.path ?? item.folder);
    }
    this.store.on('change', this.onChange);
    this.unsubscribeSession = this.session.subscribe((state) => this.noticeSession(state));
    if (this.follow) this.followOtherProcesses();
    if (!this.policyAccepted()) this.enterBlock({ kind: 'content-policy' });
    else if (!this.session.canWrite()) this.enterBlock({ kind: 'sign-in' });
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
    this.watcher?.close();
    this.watcher = null;
    clearTimeout(this.followTimer);
    clearTimeout(this.blockTimer);
    clearTimeout(this.dueTimer);
    const entries = [...this.active.values()];
    for (const entry of entries) this.abort(entry, 'stop');
    await Promise.allSettled(entries.map((entry) => entry.done));
    this.block = null;
    const status = this.store.status();
    if (this.written && status.state === this.written.state && status.reason === this.written.reason && status.state !== 'idle') this.store.setRunState('idle', null);
    this.written = null;
    this.releaseLock?.();
    this.releaseLock = null;
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error('The queue runner stopped.'));
    }
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
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { predicate, resolve, reject };
      if (options.timeoutMs !== undefined) {
        waiter.timer = setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          reject(new Error(`The queue did not get there within ${options.timeoutMs} ms (status: ${JSON.stringify(this.store.status())}).`));
        }, options.timeoutMs);
      }
      this.waiters.push(waiter);
    });
  }

  private isIdle(): boolean {
    if (this.active.size > 0 || this.pumpQueued) return false;
    return heldBack(this.store.status()) || this.store.countWaiting() === 0;
  }

  private checkWaiters(): void {
    if (this.waiters.length === 0) return;
    for (const waiter of [...this.waiters]) {
      let met = false;
      try {
        met = waiter.predicate();
      } catch (error) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        clearTimeout(waiter.timer);
        waiter.reject(error as Error);
        continue;
      }
      if (met) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        clearTimeout(waiter.timer);
        waiter.resolve();
      }
    }
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
    if (this.running && this.block === null) {
      while (this.active.size < this.concurrency) {
        const item = this.store.claimNext();
        if (!item) break;
        this.launch(item);
      }
      this.armDueTimer();
    }
    if (this.running) this.syncRunState();
    this.checkWaiters();
  }

  /** One timer, for the next item that falls due (backoff, Retry-After); none when nothing waits. */
  private armDueTimer(): void {
    clearTimeout(this.dueTimer);
    this.dueTimer = undefined;
    if (this.block || this.active.size >= this.concurrency) return;
    const at = this.store.nextDueAt();
    if (at === null) return;
    let delay = at - Date.now();
    if (delay <= 0) {
      // Due but not claimed: the queue is paused or sync stopped (resuming either is a status change, which wakes
      // us), or the clock is a millisecond behind. Without this, a stopped sync would wake the runner every 10 ms.
      if (heldBack(this.store.status())) return;
      delay = 10;
    }
    this.dueTimer = setTimeout(() => this.pump(), Math.min(delay, MAX_TIMER_MS));
    this.dueTimer.unref();
  }

  private noticeChange(event: QueueEvent): void {
    if (event.type === 'item') {
      const entry = this.active.get(event.item.id);
      if (entry) {
        if (event.item.state === 'cancelled') this.abort(entry, 'cancel');
        else if (event.item.paused) this.abort(entry, 'pause');
        if (this.waiters.length > 0) this.schedulePump();
        return;
      }
      if (event.item.state !== 'waiting' || event.item.paused) {
        if (this.waiters.length > 0) this.schedulePump();
        return;
      }
    } else if (event.status.queuePaused) {
      for (const entry of this.active.values()) this.abort(entry, 'pause');
    }
    this.schedulePump();
  }

  /** The person accepted the content policy (rule 5): the queue may go on. */
  contentPolicyChanged(): void {
    if (!this.running || this.block?.kind !== 'content-policy' || !this.policyAccepted()) return;
    this.store.log('info', 'Content policy accepted: uploads may start.');
    this.block = null;
    if (!this.session.canWrite()) this.enterBlock({ kind: 'sign-in' });
    else this.clearBlockState();
  }

  private policyAccepted(): boolean {
    return this.options.contentPolicyAccepted?.() ?? true;
  }

  private noticeSession(_state: SessionState): void {
    if (!this.running || this.block?.kind === 'content-policy') return;
    if (this.session.canWrite()) {
      if (this.block?.kind === 'sign-in') this.clearBlock();
    } else if (this.block?.kind !== 'sign-in') {
      this.enterBlock({ kind: 'sign-in' });
    }
  }

  /** Another process wrote to the queue (its commits change PRAGMA data_version; ours do not). */
  private followOtherProcesses(): void {
    const file = this.store.db.name;
    const changed = this.store.changedSince();
    const name = basename(file);
    try {
      this.watcher = watch(dirname(file), { persistent: false }, (_event, touched) => {
        if (touched !== null && !String(touched).startsWith(name)) return;
        if (this.followTimer) return;
        this.followTimer = setTimeout(() => {
          this.followTimer = undefined;
          if (this.running && changed()) this.noticeOtherProcess();
        }, 50);
        this.followTimer.unref();
      });
      this.watcher.on('error', () => {
        this.watcher?.close();
        this.watcher = null;
      });
    } catch {
      // Without a watch, other processes' changes are seen at the next wake-up.
    }
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
        this.store.log('error', `${describe(item)}: ${error instanceof Error ? error.message : String(error)}`, item.path ?? item.folder);
        this.store.settle(item.id, { state: 'waiting', at: Date.now() + 60_000, reason: 'Unexpected error: trying again in a minute.', countAttempt: true, sent: 'keep' });
      })
      .finally(() => {
        this.active.delete(item.id);
        this.schedulePump();
      });
  }

  private async execute(entry: Active): Promise<void> {
    let item = entry.item;
    const job = JOBS[item.kind];
    const ctx = this.contextFor(item, entry.controller.signal);
    try {
      let result: JobResult | null = null;
      if (item.sent) {
        result = await job.reconcile(item, item.sent, ctx);
        if (!result) {
          this.store.clearSent(item.id);
          item = this.store.get(item.id) ?? item;
        }
      }
      result ??= await job.run(item, ctx);
      this.apply(item, result);
    } catch (error) {
      await this.fail(entry, item, job, ctx, error);
    }
  }

  private contextFor(item: QueueItem, signal: AbortSignal): JobContext {
    let lastProgress = 0;
    return {
      client: this.client,
      store: this.store,
      baseFiles: this.baseFiles,
      designFolders: this.designFolders,
      root: () => this.root(),
      rootProblem: () => this.rootProblem(),
      signal,
      now: Date.now,
      settleMs: this.settleMs,
      sending: (sent) => this.store.markSending(item.id, sent),
      progress: (sentBytes, totalBytes) => {
        const now = Date.now();
        if (sentBytes < totalBytes && now - lastProgress < this.progressIntervalMs) return;
        lastProgress = now;
        this.store.progress(item.id, sentBytes, totalBytes);
      },
      log: (level, message, path = null) => this.store.log(level, message, path),
    };
  }

  private root(): string {
    if (this.options.root) return this.options.root;
    const row = this.syncFolder.current();
    if (!row) throw new NoSyncFolderError();
    return row.path;
  }

  /**
   * Why the sync folder is not there, or not ours (missing, an empty mount point in its place…), or null. Asked
   * only when a file to send is gone: a missing folder must not read as removed files.
   */
  private async rootProblem(): Promise<string | null> {
    if (!this.options.root) {
      const check = this.syncFolder.verify();
      // No folder chosen at all is NoSyncFolderError's to say.
      return check.ok || !this.syncFolder.current() ? null : check.reason;
    }
    try {
      if ((await lstat(this.options.root)).isDirectory()) return null;
      return `The sync folder ${this.options.root} is no longer a folder. Sync is stopped; nothing was changed on the service.`;
    } catch {
      return `The sync folder ${this.options.root} is missing (disk unmounted or folder moved?). Sync is stopped; nothing was changed on the service.`;
    }
  }

  private apply(item: QueueItem, result: JobResult): void {
    const where = item.path ?? item.folder;
    switch (result.outcome) {
      case 'folder-missing':
        // The item goes back in line, and nothing leaves until the folder side finds the folder back (it then
        // replaces 'stopped' with its own state, which wakes the runner).
        this.store.settle(item.id, { state: 'waiting', at: 0, reason: result.reason, countAttempt: false, sent: 'keep' });
        if (this.store.status().state !== 'stopped') {
          this.store.setRunState('stopped', result.reason);
          this.store.log('error', result.reason);
        }
        return;
      case 'done':
        this.store.complete(item.id, result.record);
        this.store.log('info', result.message, where);
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

  private async fail(entry: Active, item: QueueItem, job: Job, ctx: JobContext, error: unknown): Promise<void> {
    const now = Date.now();
    const options = { now, maxAttempts: this.maxAttempts, random: this.random, validationAttention: job.validationAttention, aborted: entry.aborted };
    let outcome: ProblemOutcome;
    if (isServiceError(error) && error.problem.kind === 'not-found' && !entry.aborted) {
      try {
        const result = (await job.notFound?.(item, ctx)) ?? (await designGone(item, ctx));
        if (result) return this.apply(item, result);
        outcome = { settlement: { state: 'failed', reason: `Not found on the service: ${error.problem.message}` } };
      } catch (again) {
        return this.fail(entry, item, job, ctx, again);
      }
    } else if (item.path && (item.kind === 'upload' || item.kind === 'replace') && !entry.aborted && !(await this.fileStillThere(item.path)) && (await this.rootProblem())) {
      // The whole sync folder went while the file was read: not a removed file. Held until the folder is back.
      return this.apply(item, { outcome: 'folder-missing', reason: (await this.rootProblem())! });
    } else if (isServiceError(error) && error.problem.kind === 'offline' && (await this.changedWhileSent(item))) {
      // Reading the file failed because it changed (or went): a local matter, not the service being away.
      outcome = (await this.fileStillThere(item.path!))
        ? { settlement: { state: 'waiting', at: now, reason: `${item.path} changed while it was being sent: the newer version goes next.`, countAttempt: false, sent: 'keep' } }
        : { settlement: { state: 'cancelled', reason: `${item.path} was removed from the folder while it was being sent.` } };
    } else if (isServiceError(error)) {
      outcome = outcomeOfProblem(error.problem, item, options);
    } else if (entry.aborted) {
      outcome = abortedOutcome(entry.aborted, now);
    } else if (error instanceof NoSyncFolderError) {
      outcome = { settlement: { state: 'failed', reason: error.message } };
    } else {
      // A local problem (the file vanished or changed while it was read, a disk error…).
      if (item.path && (item.kind === 'upload' || item.kind === 'replace') && !(await this.fileStillThere(item.path))) {
        outcome = { settlement: { state: 'cancelled', reason: `${item.path} was removed from the folder while it was being sent.` } };
      } else {
        outcome = retryLater(item, error instanceof Error ? error.message : String(error), options);
      }
    }

    const { settlement } = outcome;
    const settled = this.store.settle(item.id, settlement);
    const where = item.path ?? item.folder;
    if (settled && settlement.state !== 'waiting') {
      this.store.log(settlement.state === 'cancelled' ? 'info' : settlement.state === 'attention' ? 'warning' : 'error', settlement.reason, where);
    } else if (settled && settlement.state === 'waiting' && settlement.countAttempt && settlement.reason) {
      this.store.log('warning', `${describe(item)}: ${settlement.reason}`, where);
    }
    if (!settled) await this.reconcileCancelled(item, job);
    if (outcome.block) this.enterBlock(outcome.block);
  }

  /** Whether the file an upload or replace was sending is no longer the version it started with. */
  private async changedWhileSent(item: QueueItem): Promise<boolean> {
    if (!item.path || (item.kind !== 'upload' && item.kind !== 'replace')) return false;
    const sent = this.store.get(item.id)?.sent;
    if (!sent || sent.size === null || sent.mtimeMs === null) return false;
    try {
      const now = await currentVersion(absolutePath(this.root(), item.path));
      return !now || !sameVersion(now, { size: sent.size, mtimeMs: sent.mtimeMs });
    } catch {
      return false;
    }
  }

  private async fileStillThere(path: string): Promise<boolean> {
    try {
      return (await currentVersion(absolutePath(this.root(), path))) !== null;
    } catch {
      return true;
    }
  }

  /** A person cancelled an item while it was being sent: if the service got it anyway, it is kept as synced (not lost, not made twice). */
  private async reconcileCancelled(item: QueueItem, job: Job): Promise<void> {
    const row = this.store.get(item.id);
    if (!row || row.state !== 'cancelled' || !row.sent) return;
    try {
      const result = await job.reconcile(row, row.sent, this.contextFor(row, new AbortController().signal));
      if (result?.outcome === 'done') {
        this.store.complete(row.id, result.record);
        this.store.log('info', `${describe(row)} had already reached the service when it was cancelled: it is kept there.`, row.path ?? row.folder);
      } else {
        this.store.clearSent(row.id);
      }
    } catch {
      // Unknown: the folder side's comparison with the service will find it.
    }
  }

  // The whole queue waiting

  private enterBlock(block: QueueBlock): void {
    if (!this.running) return;
    const current = this.block;
    if (block.kind === 'offline') {
      if (current) return;
      this.block = { kind: 'offline', message: block.message, attempt: 0, reason: `Cannot reach the service (${block.message}).` };
      this.store.log('warning', `Cannot reach the service (${block.message}): uploads wait and resume by themselves.`);
      this.scheduleProbe();
    } else if (block.kind === 'rate-limited') {
      if (current?.kind === 'sign-in' || (current?.kind === 'rate-limited' && current.untilMs >= block.untilMs)) return;
      clearTimeout(this.blockTimer);
      this.block = { kind: 'rate-limited', untilMs: block.untilMs, reason: `The service asked to slow down: uploads resume at ${clock(block.untilMs)}.` };
      this.store.log('warning', `The service asked to slow down: uploads resume in ${Math.ceil((block.untilMs - Date.now()) / 1000)} s.`);
      this.blockTimer = setTimeout(() => this.clearBlock(), Math.max(0, block.untilMs - Date.now()));
      this.blockTimer.unref();
    } else if (block.kind === 'content-policy') {
      if (current?.kind === 'content-policy') return;
      clearTimeout(this.blockTimer);
      this.block = { kind: 'content-policy', reason: CONTENT_POLICY_REASON };
      this.store.log('warning', CONTENT_POLICY_REASON);
    } else {
      if (current?.kind === 'sign-in' || current?.kind === 'content-policy') return;
      clearTimeout(this.blockTimer);
      this.block = { kind: 'sign-in', reason: this.signInReason() };
      this.store.log('warning', `${this.signInReason()} Uploads wait until then.`);
      // A client not tied to the session would never see it change: then probe whether the token works again.
      if (this.session.canWrite()) this.scheduleProbe();
    }
    this.syncRunState();
    this.emit('blocked', this.blockedBy);
  }

  private clearBlock(): void {
    const was = this.block;
    if (!was || was.kind === 'content-policy') return;
    clearTimeout(this.blockTimer);
    this.block = null;
    if (!this.running) return;
    if (was.kind === 'offline') this.store.log('info', 'The service is reachable again: uploads resume.');
    else if (was.kind === 'sign-in') this.store.log('info', 'Signed in: uploads resume.');
    this.clearBlockState();
  }

  private clearBlockState(): void {
    this.syncRunState();
    this.emit('blocked', null);
    this.schedulePump();
  }

  private scheduleProbe(): void {
    const block = this.block;
    if (!block || block.kind === 'rate-limited' || block.kind === 'content-policy') return;
    let delay: number;
    if (block.kind === 'offline') {
      block.attempt += 1;
      delay = backoffDelay(block.attempt, this.random);
      block.reason = `Cannot reach the service (${block.message}): trying again by itself at ${clock(Date.now() + delay)}.`;
      this.syncRunState();
    } else {
      delay = 5_000;
    }
    clearTimeout(this.blockTimer);
    this.blockTimer = setTimeout(() => void this.probe(), delay);
    this.blockTimer.unref();
  }

  /** A cheap request that needs the token: the service is there, and it still accepts us. */
  private async probe(): Promise<void> {
    if (!this.running || !this.block) return;
    try {
      await this.client.whoami();
      this.clearBlock();
    } catch (error) {
      if (!this.running || !this.block) return;
      const problem: ServiceProblem = isServiceError(error) ? error.problem : { kind: 'offline', message: String(error), maybeApplied: false };
      if (problem.kind === 'token-rejected' && this.block.kind !== 'sign-in') {
        this.block = null;
        this.enterBlock({ kind: 'sign-in' });
      } else if (problem.kind === 'rate-limited') {
        this.block = null;
        this.enterBlock({ kind: 'rate-limited', untilMs: Date.now() + problem.retryAfterMs });
      } else if (this.block.kind !== 'sign-in' || this.session.canWrite()) {
        this.scheduleProbe();
      }
    }
  }

  private signInReason(): string {
    return this.session.state.status === 'signed-out'
      ? 'Sign in to send your changes to the service.'
      : 'Sign in again: the service no longer accepts this sign-in.';
  }

  /** sync_status.state for the queue's part: waiting (with why), syncing, idle. States the folder side set (scanning, stopped, paused) are left alone. */
  private syncRunState(): void {
    const status = this.store.status();
    if (!RUNNER_STATES.has(status.state)) return;
    // What the folder side wrote (its 'waiting' for a sign-in, its 'idle' with a note) is only replaced by news of the queue's own.
    const ours = this.written !== null && status.state === this.written.state && status.reason === this.written.reason;
    const write = (state: 'idle' | 'syncing' | 'waiting', reason: string | null) => {
      this.written = { state, reason };
      this.store.setRunState(state, reason);
    };
    if (this.block) {
      if (status.state !== 'waiting' || status.reason !== this.block.reason) write('waiting', this.block.reason);
    } else if (this.active.size > 0) {
      if (status.state !== 'syncing' && (status.state === 'idle' || ours)) write('syncing', null);
    } else if (ours && status.state !== 'idle') {
      write('idle', null);
    }
  }
}

/** Nothing leaves the queue now: paused by a person, or sync stopped for a reason one must look at (see QueueStore.claimNext). */
function heldBack(status: SyncStatusView): boolean {
  return status.queuePaused || status.state === 'stopped';
}

/** HH:MM:SS, local time. */
function clock(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

function describe(item: QueueItem): string {
  const what = item.path ?? (item.folder ? `the folder "${item.folder}"` : `item ${item.id}`);
  const verbs: Record<QueueItem['kind'], string> = {
    upload: 'The upload of', replace: 'The update of', rename: 'The rename of', 'delete-remote': 'The deletion of', 'create-design': 'The design for',
  };
  return `${verbs[item.kind]} ${what}`;
}
