import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { FSWatcher } from 'chokidar';
import { isServiceError } from '../api/service-error';
import type { QueueStore } from '../queue/queue-store';
import { type QueueEvent } from '../queue/queue-item';
import { BaseFiles } from '../sync-state/base-files';
import { DesignFolders } from '../sync-state/design-folders';
import { HeldBack } from '../sync-state/held-back';
import { IGNORE_FILE } from './ignore/never-sent-rules';
import { loadIgnoreFile, readIgnoreText, writeIgnoreText, type LoadedIgnoreFile } from './ignore/ignore-files';
import { trashFunction } from './local-files';
import { discardConflictCopy } from './conflict-copy';
import { watcherFailureMessage, watchSyncFolderReady } from './folder-watcher';
import { scanLocal } from './local-scan';
import { handleDesignGone, type DesignGoneOutcome } from './design-gone';
import { folderForDesign, type OwnDesignRef } from './own-design-folders';
import { remoteStep, type RemoteScope } from './remote-step';
import { RemoteWatch } from './remote-watch';
import type { PassOptions, PassResult, SyncEngineOptions } from './sync-options';
import type { SyncContext, SyncEvent } from './sync-context';
import { remoteSkippedWords, type FolderSideState, type RemoteProblem } from './folder-side-state';
import { SyncFolder } from '../sync-state/sync-root';
import { RootReturn } from './root-return';
import { engineLog } from '../log/engine-log';
import { systemErrorWords } from '../log/error-words';

export type { PassOptions, PassResult, SyncEngineOptions } from './sync-options';

/** An empty file is sent once it stayed empty this long: a tool that empties a file first may work minutes before writing. */
export const EMPTY_SETTLE_MS = 60_000;
export type { FolderSideState, RemoteProblem } from './folder-side-state';

/**
 * Sync of the chosen folder with the user's own designs. The folder is the source of truth, compared with the
 * last synced state by scans; the watcher (chokidar) only says when and where to scan; a periodic full rescan
 * catches what it missed. Local changes go to the queue (sent by the queue runner); changes on the service are
 * brought into the folder here. Emits 'event' (SyncEvent).
 */
export class SyncEngine extends EventEmitter<{ event: [SyncEvent]; state: [] }> {
  readonly queue: QueueStore;
  readonly base: BaseFiles;
  readonly folders: DesignFolders;
  readonly root: SyncFolder;
  readonly heldBack: HeldBack;
  private readonly ctx: SyncContext;
  private readonly settleMs: number;
  private readonly rescanIntervalMs: number;
  private readonly debounceMs: number;
  private stoppedReason: string | null = null;
  /** start() was asked to watch: the watcher is made again when the folder comes back. */
  private watching = false;
  private readonly rootReturn: RootReturn;
  private watcherStarting: Promise<void> | null = null;
  private readonly reported = new Set<string>();
  private chain: Promise<unknown> = Promise.resolve();
  private watcher: FSWatcher | null = null;
  private watcherProblem: string | null = null;
  private rescanTimer: NodeJS.Timeout | null = null;
  private debounceTimer: NodeJS.Timeout | null = null;
  private readonly dirtyFolders = new Set<string>();
  private dirtyAll = false;
  private readonly deferredFolders = new Set<string>();
  private unsubscribeSession: (() => void) | null = null;
  /** The session's status as last seen, to tell a new sign-in from the same sign-in confirmed again. */
  private sessionStatus: 'signed-out' | 'signed-in' | 'needs-sign-in' | null = null;
  private readonly onQueueChange = (event: QueueEvent) => this.queueChanged(event);
  private abort = new AbortController();
  private started = false;
  /** Polls the own designs' list while watching, so that the service's changes arrive within a poll. */
  readonly watch: RemoteWatch;
  /** The signed-in user, as the last pass learnt it (the remote watch asks for their list). */
  private userId: number | null = null;
  /** What the folder side is doing now (told as 'state' events; never stored: see folderSide). */
  private phase: 'idle' | 'scanning' = 'idle';
  /** Why the last full pass could not read the service, or null. */
  private remoteProblem: RemoteProblem | null = null;

  constructor(private readonly options: SyncEngineOptions) {
    super();
    const now = options.now ?? Date.now;
    this.queue = options.queue;
    this.base = new BaseFiles(options.db);
    this.folders = new DesignFolders(options.db, now);
    this.root = new SyncFolder(options.db, now);
    this.heldBack = new HeldBack(options.db, now);
    this.settleMs = options.settleMs ?? 2000;
    this.rescanIntervalMs = options.rescanIntervalMs ?? 10 * 60_000;
    this.debounceMs = options.debounceMs ?? 300;
    const trash = trashFunction(options.trash ?? 'system');
    this.ctx = {
      db: options.db, queue: this.queue, base: this.base, folders: this.folders, root: this.root, heldBack: this.heldBack,
      reviewBeforePublishing: options.reviewBeforePublishing ?? (() => null),
      settleMs: this.settleMs, maxSettleWaitMs: options.maxSettleWaitMs ?? 60_000,
      emptySettleMs: options.emptySettleMs ?? EMPTY_SETTLE_MS, trash, now,
      emit: (event) => this.emit('event', event),
      log: (level, message, path = null) => {
        this.queue.log(level, message, path);
        if (level !== 'info') this.emit('event', { type: 'warning', message, ...(path ? { path } : {}) });
      },
      reportOnce: (message, path = null) => {
        if (this.reported.has(message)) return;
        this.reported.add(message);
        this.ctx.log('warning', message, path);
      },
      stop: (reason) => {
        if (this.stoppedReason !== reason) {
          this.stoppedReason = reason;
          this.queue.setRunState('stopped', reason);
          this.queue.log('error', reason);
          this.emit('event', { type: 'stopped', reason });
        }
        this.awaitRootReturn();
      },
      running: () => this.stoppedReason === null,
    };
    this.rootReturn = new RootReturn({
      verify: () => this.root.verify(),
      stillAway: (reason) => {
        if (this.stoppedReason !== reason) this.ctx.stop(reason);
      },
      back: () => this.resumeAfterReturn(),
      failed: (error) => this.failed('Sync could not start again after the sync folder came back', error),
      lookAgain: () => this.started && this.stoppedReason !== null,
      pollMs: options.rootPollMs ?? 2000,
    });
    this.watch = new RemoteWatch({
      client: options.client, intervalMs: options.remotePollMs, timers: options.watchTimers, userId: () => this.userId, serial: (work) => this.serial(work),
      mayPoll: () => this.started && this.stoppedReason === null && (this.options.session?.canWrite() ?? true) && (this.options.online?.() ?? true),
      changed: async (changes) => void await this.pass({ settle: 'once' }, { kind: 'changes', changes }), signal: () => this.abort.signal,
      userUnknown: async () => void await this.pass({ settle: 'once' }),
    });
  }

  /** Why sync is stopped, or null. */
  get stopped(): string | null {
    return this.stoppedReason;
  }

  /** The watcher's failure (its limit reached…), shown to the person; sync goes on with periodic rescans. */
  get watcherWarning(): string | null {
    return this.watcherProblem;
  }

  /**
   * One full pass: folders for own designs, changes from the service into the folder, then the folder's changes
   * into the queue. Passes never overlap.
   */
  syncOnce(options: PassOptions = {}): Promise<PassResult> {
    return this.serial(() => this.pass(options));
  }

  /** Only these designs' files from the service, and their folders, now: a decision taken on one takes effect at once. */
  syncDesigns(designIds: readonly number[]): Promise<PassResult> {
    return this.serial(() => this.pass({ settle: 'once', designIds }));
  }

  /** A design deleted on the service (own.delete, or gone from the list): its folder handled at once (design-gone.ts). */
  designGone(designId: number, options: { confirmed?: boolean } = {}): Promise<DesignGoneOutcome> {
    const goneOptions = { confirmed: options.confirmed === true, userId: this.userId, name: this.watch.nameOf(designId), signal: this.abort.signal };
    return this.serial(() => handleDesignGone(this.ctx, this.options.client, designId, goneOptions));
  }

  /** The sync folder's ignore file: its path and text ('' when there is none), and why it cannot be used, if it cannot. */
  async ignoreFile(): Promise<{ path: string | null; text: string; problem: string | null }> {
    const root = this.root.current();
    if (!root) return { path: null, text: '', problem: null };
    const { problem } = await loadIgnoreFile(root.path, IGNORE_FILE);
    let text = '';
    try {
      text = (await readIgnoreText(root.path, IGNORE_FILE)) ?? '';
    } catch {
      // Its problem says why.
    }
    return { path: join(root.path, IGNORE_FILE), text, problem };
  }

  /**
   * Replaces the sync folder's ignore file (IgnoreFileError names a line that cannot be taken; an empty text removes
   * it), then looks at the folder again at once: what is never sent now is held back, and what waited to be sent of it
   * is withdrawn.
   */
  async saveIgnoreFile(text: string, options: { scan?: boolean } = {}): Promise<PassResult | null> {
    const root = this.root.current();
    if (!root) throw new Error('No sync folder is chosen: the ignore file is kept in it.');
    await writeIgnoreText(root.path, text);
    this.queue.log('info', text.trim() === '' ? `${IGNORE_FILE} was removed: only the built-in list holds files back.` : `${IGNORE_FILE} was saved.`, IGNORE_FILE);
    return options.scan === false ? null : this.scan({ settle: 'once' });
  }

  /** A design folder's own ignore file, compiled (null when it has none), or why it cannot be used. */
  ignoreFileOf(folder: string): Promise<LoadedIgnoreFile> {
    const root = this.root.current();
    return root ? loadIgnoreFile(root.path, `${folder}/${IGNORE_FILE}`) : Promise.resolve({ compiled: null, problem: null });
  }

  /** Only the local comparison (what the watcher triggers). */
  scan(options: PassOptions = {}): Promise<PassResult> {
    return this.serial(() => this.pass({ ...options, localOnly: true }));
  }

  /**
   * Starts watching: a first full pass, then chokidar on the root, a debounced scan of the folders that changed,
   * and a full pass every rescanIntervalMs. No timer runs while idle but the (unref'd) periodic rescan.
   */
  async start(options: { watch?: boolean; firstPass?: PassOptions } = {}): Promise<PassResult> {
    if (this.started) throw new Error('The sync engine is already started.');
    this.started = true;
    this.watching = options.watch !== false;
    this.abort = new AbortController();
    this.queue.on('change', this.onQueueChange);
    if (this.options.session) {
      this.sessionStatus = null;
      this.unsubscribeSession = this.options.session.subscribe((state) => this.sessionChanged(state.status));
      if (this.options.session.state.status === 'needs-sign-in') this.sessionChanged('needs-sign-in');
      this.sessionStatus = this.options.session.state.status;
    }
    const first = await this.syncOnce(options.firstPass ?? { settle: 'once' });
    if (options.watch !== false) {
      await this.startWatcher();
      this.scheduleRescan();
      this.watch.start();
      // The watcher reports only what happens once it is ready: a file put in the folder between the first pass and
      // then (a new design folder filled at once) would wait for the periodic rescan. One more local scan finds it.
      this.dirtyAll = true;
      this.scheduleScan(this.debounceMs);
    }
    return first;
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.started = false;
    this.watching = false;
    this.watch.stop();
    if (this.rescanTimer) clearTimeout(this.rescanTimer);
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.rescanTimer = this.debounceTimer = null;
    await this.rootReturn.stop();
    await this.watcherStarting?.catch(() => {});
    this.queue.off('change', this.onQueueChange);
    this.unsubscribeSession?.();
    this.unsubscribeSession = null;
    const watcher = this.watcher;
    this.watcher = null;
    await watcher?.close();
    await this.chain.catch(() => {});
    this.abort = new AbortController();
  }

  /** Waits until no pass runs or is scheduled (for tests and the one-shot CLI). */
  async idle(): Promise<void> {
    for (;;) {
      const chain = this.chain;
      await chain.catch(() => {});
      if (chain === this.chain && !this.debounceTimer) return;
      if (this.debounceTimer) await new Promise((resolve) => setTimeout(resolve, this.debounceMs));
    }
  }

  /** The folder of an own design, made the way a pass makes it when it has none yet (own-design-folders.ts). */
  folderFor(design: OwnDesignRef): Promise<string | null> {
    return this.serial(() => folderForDesign(this.ctx, design));
  }

  /** The person keeps the service's version of a conflicted file: their copy goes to the trash (conflict-copy.ts). */
  discardConflictCopy(path: string): Promise<string> {
    return this.serial(() => discardConflictCopy(this.ctx, path));
  }

  /** Something was put in a design folder by the app itself (a dropped file): scanned soon, without waiting for the watcher. */
  noticeFolder(folder: string): void {
    this.dirtyFolders.add(folder);
    this.scheduleScan(this.debounceMs);
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.catch(() => {}).then(work);
    this.chain = next;
    return next;
  }

  private async pass(options: PassOptions, changes?: RemoteScope & { kind: 'changes' }): Promise<PassResult> {
    const result: PassResult = { createdFolders: [], remote: null, scan: null, stopped: null, remoteSkipped: null };
    // Stopped by this engine, or by the queue runner (it found the folder gone while sending).
    const status = this.queue.status();
    const wasStopped = this.stoppedReason ?? (status.state === 'stopped' ? status.reason : null);
    this.stoppedReason = null;
    const check = this.root.verify();
    if (!check.ok) {
      this.stoppedReason = wasStopped;
      this.ctx.stop(check.reason);
      result.stopped = check.reason;
      return result;
    }
    // The hold a stop put on the queue ends: the folder is there as it was.
    if (status.state === 'stopped') this.queue.setRunState('idle', null);
    this.setPhase('scanning');
    let remoteProblem: RemoteProblem | null = null;
    if (!options.localOnly) {
      const session = this.options.session;
      if (session && !session.canWrite()) {
        result.remoteSkipped = session.state.status === 'needs-sign-in' ? session.state.reason : 'Not signed in: the service was not checked for changes.';
        remoteProblem = 'sign-in';
      } else {
        try {
          const scope: RemoteScope = changes ?? (options.designIds ? { kind: 'designs', designIds: options.designIds } : { kind: 'full' });
          const deps = { client: this.options.client, ownDesigns: this.options.ownDesigns, watch: this.watch, setUserId: (id: number | null) => void (this.userId = id) };
          const step = await remoteStep(this.ctx, deps, scope, this.abort.signal);
          result.createdFolders = step.createdFolders;
          result.remote = step.remote;
          if (step.folders && !options.folders) options = { ...options, folders: step.folders };
        } catch (error) {
          if (!isServiceError(error)) throw error;
          remoteProblem = error.problem.kind === 'offline' ? 'offline' : error.problem.kind === 'token-rejected' ? 'sign-in' : 'service-failed';
          engineLog.info('sync', 'the service was not read for changes', error);
          result.remoteSkipped = remoteSkippedWords(remoteProblem);
          this.ctx.reportOnce(result.remoteSkipped);
        }
      }
    }
    if (this.stoppedReason === null) {
      result.scan = await scanLocal(this.ctx, { settle: options.settle ?? 'once', allowManyMissing: options.allowManyMissing, ...(options.folders ? { folders: options.folders } : {}) });
      for (const path of [...result.scan.deferred]) this.deferredFolders.add(path.split('/')[0]!);
    }
    result.stopped = this.stoppedReason;
    if (this.stoppedReason === null) {
      if (wasStopped) {
        this.queue.log('info', 'The sync folder is back as it was: sync resumed.');
        this.emit('event', { type: 'resumed' });
      }
      if (!options.localOnly) this.remoteProblem = remoteProblem;
    }
    this.setPhase('idle');
    // Files still being written: looked at again once they may have settled.
    if (this.started && result.scan && result.scan.unsettled.length > 0) {
      for (const path of result.scan.unsettled) this.dirtyFolders.add(path.split('/')[0]!);
      this.scheduleScan(this.settleMs);
    }
    return result;
  }

  /**
   * The folder side's facts for the sync status (runtime/sync-status.ts): scanning or not, stopped and why, the
   * watcher's problem, why the last full pass could not read the service. Kept in memory, told by 'state' events.
   */
  get folderSide(): FolderSideState {
    return {
      phase: this.stoppedReason !== null ? 'stopped' : this.phase,
      stoppedReason: this.stoppedReason,
      watcherWarning: this.watcherProblem,
      remoteProblem: this.remoteProblem,
    };
  }

  private failed(what: string, error: unknown): void {
    engineLog.warn('sync', what.toLowerCase(), error);
    this.ctx.log('error', `${what}: ${(systemErrorWords(error) ?? (error instanceof Error ? error.message : String(error))).replace(/\.$/, '')}.`);
  }

  private setPhase(phase: 'idle' | 'scanning'): void {
    this.phase = phase;
    this.emit('state');
  }

  /**
   * Watches the sync folder with a new chokidar watcher (closing the one before: chokidar's watcher of a folder that
   * vanished is dead, and does not see it come back). Not while the folder is not there: its return is looked for
   * by awaitRootReturn, which starts the watcher again.
   */
  private startWatcher(): Promise<void> {
    const starting = (this.watcherStarting ?? Promise.resolve()).catch(() => {}).then(async () => {
      const old = this.watcher;
      this.watcher = null;
      await old?.close();
      const check = this.root.verify();
      if (!this.started || !check.ok) return;
      const watcher = await watchSyncFolderReady(check.root.path, {
        changed: (top) => {
          // The sync folder's ignore file changed: what is never sent may have changed in every folder.
          if (top === null || top === IGNORE_FILE) this.dirtyAll = true;
          else this.dirtyFolders.add(top);
          this.scheduleScan(this.debounceMs);
        },
        // Maybe the sync folder itself (or its disk): looked at at once, while the process still has the watcher's
        // handles, so that sync stops with the reason and waits for the folder.
        folderRemoved: () => this.checkRootNow(),
        failed: (error) => this.watcherFailed(error),
      });
      if (!this.started) {
        await watcher.close();
        return;
      }
      this.watcher = watcher;
    });
    this.watcherStarting = starting;
    return starting.finally(() => {
      if (this.watcherStarting === starting) this.watcherStarting = null;
    });
  }

  /** Stops sync at once when the sync folder is no longer there or no longer ours (SyncFolder.verify's reason). */
  private checkRootNow(): void {
    if (!this.started) return;
    const check = this.root.verify();
    if (!check.ok) this.ctx.stop(check.reason);
  }

  /**
   * While watching and stopped because the sync folder is not there as it was, its return is looked for (RootReturn);
   * meanwhile nothing is scanned, so nothing in it is taken for deleted, and the queue waits (nothing is cancelled).
   */
  private awaitRootReturn(): void {
    if (this.started && this.watching) this.rootReturn.await();
  }

  private async resumeAfterReturn(): Promise<void> {
    await this.startWatcher();
    if (!this.started) return;
    this.scheduleRescan();
    // A full pass: what changed here or on the service meanwhile. It writes "resumed" when the folder is as it was.
    this.dirtyAll = false;
    this.dirtyFolders.clear();
    await this.syncOnce({ settle: 'once' });
  }

  private watcherFailed(error: NodeJS.ErrnoException): void {
    const message = watcherFailureMessage(error, this.rescanIntervalMs);
    if (this.watcherProblem === message) return;
    this.watcherProblem = message;
    this.queue.log('error', message);
    this.emit('event', { type: 'warning', message });
    this.emit('state');
    // Without a reliable watcher, rescan more often.
    this.scheduleRescan(Math.min(this.rescanIntervalMs, 60_000));
  }

  private scheduleRescan(interval = this.rescanIntervalMs): void {
    if (this.rescanTimer) clearTimeout(this.rescanTimer);
    this.rescanTimer = setTimeout(() => {
      this.rescanTimer = null;
      void this.syncOnce({ settle: 'once' }).catch((error) => this.failed('A rescan failed', error)).finally(() => {
        if (this.started) this.scheduleRescan(this.watcherProblem ? Math.min(this.rescanIntervalMs, 60_000) : this.rescanIntervalMs);
      });
    }, interval);
    this.rescanTimer.unref();
  }

  private scheduleScan(delay: number): void {
    if (!this.started) return;
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = null;
      const all = this.dirtyAll || !this.root.verify().ok || this.stoppedReason !== null;
      const folders = [...this.dirtyFolders];
      this.dirtyAll = false;
      this.dirtyFolders.clear();
      void this.scan(all ? {} : { folders }).catch((error) => this.failed('A scan failed', error));
    }, delay);
    this.debounceTimer.unref();
  }

  private queueChanged(event: QueueEvent): void {
    if (event.type === 'status') {
      // The queue runner found the folder gone while sending (it stopped sync itself): wait for it the same way.
      if (event.status.state === 'stopped' && this.stoppedReason === null && this.started && this.watching) this.checkRootNow();
      return;
    }
    if (event.type !== 'item') return;
    const { item } = event;
    if (!['done', 'failed', 'cancelled'].includes(item.state) || !item.folder) return;
    if (item.kind === 'create-design' || this.deferredFolders.has(item.folder)) {
      this.deferredFolders.delete(item.folder);
      this.dirtyFolders.add(item.folder);
      this.scheduleScan(this.debounceMs);
    }
  }

  private sessionChanged(status: 'signed-out' | 'signed-in' | 'needs-sign-in'): void {
    // The session tells every state it sets, also the same one again (each pass confirms the user with whoami):
    // only a change means something here, or every pass would start the next one.
    const was = this.sessionStatus;
    this.sessionStatus = status;
    if (status === was) return;
    if (status === 'needs-sign-in') {
      const message = 'The service no longer accepts your sign-in: nothing is sent or brought from the service until you sign in again. Changes here are still found and queued.';
      this.queue.log('warning', message);
      this.emit('event', { type: 'warning', message });
      this.emit('state');
    } else if (status === 'signed-in' && this.started) {
      this.dirtyAll = true;
      void this.syncOnce({ settle: 'once' }).catch((error) => engineLog.warn('sync', 'the pass after a new sign-in failed', error));
    }
  }
}
