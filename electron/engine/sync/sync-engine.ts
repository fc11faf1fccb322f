import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { QueueStore } from '../queue/queue-store';
import { type QueueEvent } from '../queue/queue-item';
import { BaseFiles } from '../sync-state/base-files';
import { DesignFolders } from '../sync-state/design-folders';
import { HeldBack } from '../sync-state/held-back';
import { IGNORE_FILE } from './ignore/never-sent-rules';
import { loadIgnoreFile, readIgnoreText, writeIgnoreText, type LoadedIgnoreFile } from './ignore/ignore-files';
import { trashFunction, type TrashFile } from './local-files';
import { discardConflictCopy } from './conflict-copy';
import { FolderWatch } from './folder-watch';
import { handleDesignGone, type DesignGoneOutcome } from './design-gone';
import { folderForDesign, type OwnDesignRef } from './own-design-folders';
import { PassScheduler } from './pass-scheduler';
import type { RemoteScope } from './remote-step';
import { RemoteWatch } from './remote-watch';
import { followSession } from './session-follow';
import type { PassOptions, PassResult, SyncEngineOptions } from './sync-options';
import type { SyncContext, SyncEvent } from './sync-context';
import { SyncPass } from './sync-pass';
import { FolderSide, type FolderSideState } from './folder-side-state';
import { SyncFolder } from '../sync-state/sync-root';
import { RootReturn } from './root-return';
import { engineLog } from '../log/engine-log';
import { systemErrorWords } from '../log/error-words';
import { said, untranslated } from '../queue/said';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import { stopOf } from './stop-reason';

export type { PassOptions, PassResult, SyncEngineOptions } from './sync-options';

/** An empty file is sent once it stayed empty this long: a tool that empties a file first may work minutes before writing. */
export const EMPTY_SETTLE_MS = 60_000;
export type { FolderSideState, RemoteProblem } from './folder-side-state';

/**
 * Sync of the chosen folder with the user's own designs. The folder is the source of truth, compared with the
 * last synced state by scans; the watcher (chokidar) only says when and where to scan; a periodic full rescan
 * catches what it missed. Local changes go to the queue (sent by the queue runner); changes on the service are
 * brought into the folder here. Emits 'event' (SyncEvent) and 'state' (the folder side's facts changed).
 *
 * A composition of its parts: the pass (sync-pass.ts), the scheduler that says when to pass and over what
 * (pass-scheduler.ts), the folder's watcher (folder-watch.ts) and its return after a stop (root-return.ts), the
 * service's watch (remote-watch.ts), and the folder side's facts (FolderSide).
 */
export class SyncEngine extends EventEmitter<{ event: [SyncEvent]; state: [] }> {
  readonly queue: QueueStore;
  readonly base: BaseFiles;
  readonly folders: DesignFolders;
  readonly root: SyncFolder;
  readonly heldBack: HeldBack;
  /** Polls the own designs' list while watching, so that the service's changes arrive within a poll. */
  readonly watch: RemoteWatch;
  private readonly ctx: SyncContext;
  private readonly side: FolderSide;
  private readonly scheduler: PassScheduler;
  private readonly passes: SyncPass;
  private readonly folderWatch: FolderWatch;
  private readonly rootReturn: RootReturn;
  private readonly onQueueChange = (event: QueueEvent) => this.queueChanged(event);
  private unfollowSession: (() => void) | null = null;
  private abort = new AbortController();
  private started = false;
  /** start() was asked to watch: the watcher is made again when the folder comes back. */
  private watching = false;
  /** The signed-in user, as the last pass learnt it (the remote watch asks for their list). */
  private userId: number | null = null;

  constructor(private readonly options: SyncEngineOptions) {
    super();
    const now = options.now ?? Date.now;
    this.queue = options.queue;
    this.base = new BaseFiles(options.db);
    this.folders = new DesignFolders(options.db, now);
    this.root = new SyncFolder(options.db, now);
    this.heldBack = new HeldBack(options.db, now);
    const settleMs = options.settleMs ?? 2000;
    const rescanIntervalMs = options.rescanIntervalMs ?? 10 * 60_000;
    const debounceMs = options.debounceMs ?? 300;
    this.side = new FolderSide(() => this.emit('state'));
    this.ctx = this.context(trashFunction(options.trash ?? 'system'), settleMs, now);
    this.scheduler = new PassScheduler({
      scan: (pass) => this.scan(pass), syncOnce: (pass) => this.syncOnce(pass), started: () => this.started,
      wholeFolder: () => !this.root.verify().ok || this.side.stoppedReason !== null,
      watcherFailing: () => this.side.watcherWarning !== null, failed: (what, error) => this.failed(what, error),
      debounceMs, settleMs, rescanIntervalMs,
    });
    this.rootReturn = new RootReturn({
      verify: () => this.root.verify(),
      stillAway: (check) => {
        if (this.side.stoppedReason !== check.reason) this.ctx.stop(check);
      },
      back: () => this.resumeAfterReturn(),
      failed: (error) => this.failed('restart', error),
      lookAgain: () => this.started && this.side.stoppedReason !== null,
      pollMs: options.rootPollMs ?? 2000,
    });
    this.folderWatch = new FolderWatch({
      verify: () => this.root.verify(), active: () => this.started,
      // The sync folder's ignore file changed: what is never sent may have changed in every folder.
      changed: (top) => this.scheduler.changed(top === null || top === IGNORE_FILE ? null : top),
      // Maybe the sync folder itself (or its disk): looked at at once, while the process still has the watcher's
      // handles, so that sync stops with the reason and waits for the folder.
      folderRemoved: () => this.checkRootNow(),
      problem: (problem) => this.watcherFailed(problem),
      rescanIntervalMs,
    });
    this.watch = new RemoteWatch({
      client: options.client, intervalMs: options.remotePollMs, timers: options.watchTimers, userId: () => this.userId, serial: (work) => this.scheduler.serial(work),
      mayPoll: () => this.started && this.side.stoppedReason === null && (this.options.session?.canWrite() ?? true) && (this.options.online?.() ?? true),
      changed: async (changes) => void await this.pass({ settle: 'once' }, { kind: 'changes', changes }), signal: () => this.abort.signal,
      userUnknown: async () => void await this.pass({ settle: 'once' }),
    });
    this.passes = new SyncPass({
      ctx: this.ctx, side: this.side, client: options.client, ownDesigns: options.ownDesigns, session: options.session ?? null, watch: this.watch,
      signal: () => this.abort.signal, setUserId: (id) => void (this.userId = id),
    });
  }

  /** What the scanner, the remote pass and the engine share: the stores, the settle times, the log and the stop. */
  private context(trash: TrashFile, settleMs: number, now: () => number): SyncContext {
    const { options } = this;
    const reported = new Set<string>();
    const ctx: SyncContext = {
      db: options.db, queue: this.queue, base: this.base, folders: this.folders, root: this.root, heldBack: this.heldBack,
      reviewBeforePublishing: options.reviewBeforePublishing ?? (() => null),
      settleMs, maxSettleWaitMs: options.maxSettleWaitMs ?? 60_000,
      emptySettleMs: options.emptySettleMs ?? EMPTY_SETTLE_MS, trash, now,
      emit: (event) => this.emit('event', event),
      log: (level, line, path = null) => {
        this.queue.log(level, line, path);
        if (level !== 'info') this.emit('event', { type: 'warning', message: line.text, words: line.words, ...(path ? { path } : {}) });
      },
      reportOnce: (note, path = null) => {
        const line = typeof note === 'string' ? untranslated(note) : note;
        if (reported.has(line.text)) return;
        reported.add(line.text);
        ctx.log('warning', line, path);
      },
      stop: (stop) => {
        const { reason, words } = stopOf(stop);
        // The facts of the stop now (the reason may be the same one a stored stop left, without them).
        this.side.stoppedWords = words;
        if (this.side.stoppedReason !== reason) {
          this.side.stoppedReason = reason;
          this.queue.setRunState('stopped', reason);
          this.queue.log('error', words ? { text: reason, words } : untranslated(reason));
          this.emit('event', { type: 'stopped', reason, ...(words ? { words } : {}) });
        }
        this.awaitRootReturn();
      },
      running: () => this.side.stoppedReason === null,
    };
    return ctx;
  }

  /** Why sync is stopped, or null. */
  get stopped(): string | null {
    return this.side.stoppedReason;
  }

  /** The watcher's failure (its limit reached…), shown to the person; sync goes on with periodic rescans. */
  get watcherWarning(): string | null {
    return this.side.watcherWarning;
  }

  /**
   * The folder side's facts for the sync status (runtime/sync-status.ts): scanning or not, stopped and why, the
   * watcher's problem, why the last full pass could not read the service. Kept in memory, told by 'state' events.
   */
  get folderSide(): FolderSideState {
    return this.side.state;
  }

  /**
   * One full pass: folders for own designs, changes from the service into the folder, then the folder's changes
   * into the queue. Passes never overlap.
   */
  syncOnce(options: PassOptions = {}): Promise<PassResult> {
    return this.scheduler.serial(() => this.pass(options));
  }

  /** Only these designs' files from the service, and their folders, now: a decision taken on one takes effect at once. */
  syncDesigns(designIds: readonly number[]): Promise<PassResult> {
    return this.scheduler.serial(() => this.pass({ settle: 'once', designIds }));
  }

  /** A design deleted on the service (own.delete, or gone from the list): its folder handled at once (design-gone.ts). */
  designGone(designId: number, options: { confirmed?: boolean } = {}): Promise<DesignGoneOutcome> {
    const goneOptions = { confirmed: options.confirmed === true, userId: this.userId, name: this.watch.nameOf(designId), signal: this.abort.signal };
    return this.scheduler.serial(() => handleDesignGone(this.ctx, this.options.client, designId, goneOptions));
  }

  /** The sync folder's ignore file: its path and text ('' when there is none), and why it cannot be used, if it cannot. */
  async ignoreFile(): Promise<{ path: string | null; text: string; problem: string | null }> {
    const root = this.root.current();
    if (!root) return { path: null, text: '', problem: null };
    const { problem } = await loadIgnoreFile(root.path, IGNORE_FILE);
    let text = '';
    try {
      text = (await readIgnoreText(root.path, IGNORE_FILE)) ?? '';
    } catch (error) {
      // Its problem says why, to the person; the cause goes to the engine log.
      engineLog.warn('sync', 'the sync folder\'s ignore file could not be read', error);
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
    this.queue.log('info', said(text.trim() === '' ? 'activity.sync.ignoreFileRemoved' : 'activity.sync.ignoreFileSaved', { file: IGNORE_FILE }), IGNORE_FILE);
    return options.scan === false ? null : this.scan({ settle: 'once' });
  }

  /** A design folder's own ignore file, compiled (null when it has none), or why it cannot be used. */
  ignoreFileOf(folder: string): Promise<LoadedIgnoreFile> {
    const root = this.root.current();
    return root ? loadIgnoreFile(root.path, `${folder}/${IGNORE_FILE}`) : Promise.resolve({ compiled: null, problem: null });
  }

  /** Only the local comparison (what the watcher triggers). */
  scan(options: PassOptions = {}): Promise<PassResult> {
    return this.scheduler.serial(() => this.pass({ ...options, localOnly: true }));
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
      this.unfollowSession = followSession(this.options.session, { lost: () => this.signInLost(), signedIn: () => this.signedIn() });
    }
    const first = await this.syncOnce(options.firstPass ?? { settle: 'once' });
    if (options.watch !== false) {
      await this.folderWatch.start();
      this.scheduler.scheduleRescan();
      this.watch.start();
      // The watcher reports only what happens once it is ready: a file put in the folder between the first pass and
      // then (a new design folder filled at once) would wait for the periodic rescan. One more local scan finds it.
      this.scheduler.changed(null);
    }
    return first;
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.started = false;
    this.watching = false;
    this.watch.stop();
    this.scheduler.stopTimers();
    await this.rootReturn.stop();
    this.queue.off('change', this.onQueueChange);
    this.unfollowSession?.();
    this.unfollowSession = null;
    await this.folderWatch.close();
    await this.scheduler.settled();
    this.abort = new AbortController();
  }

  /** Waits until no pass runs or is scheduled (for tests and the one-shot CLI). */
  idle(): Promise<void> {
    return this.scheduler.idle();
  }

  /** The folder of an own design, made the way a pass makes it when it has none yet (own-design-folders.ts). */
  folderFor(design: OwnDesignRef): Promise<string | null> {
    return this.scheduler.serial(() => folderForDesign(this.ctx, design));
  }

  /** The person keeps the service's version of a conflicted file: their copy goes to the trash (conflict-copy.ts). */
  discardConflictCopy(path: string): Promise<string> {
    return this.scheduler.serial(() => discardConflictCopy(this.ctx, path));
  }

  /** Something was put in a design folder by the app itself (a dropped file): scanned soon, without waiting for the watcher. */
  noticeFolder(folder: string): void {
    this.scheduler.changed(folder);
  }

  /** A pass (inside the chain), and what it leaves to look at again. */
  private async pass(options: PassOptions, changes?: RemoteScope & { kind: 'changes' }): Promise<PassResult> {
    const result = await this.passes.run(options, changes);
    this.scheduler.afterPass(result);
    return result;
  }

  /** A scheduled scan, rescan or the restart after the folder came back failed: said in the activity list. */
  private failed(what: 'scan' | 'rescan' | 'restart', error: unknown): void {
    const line = said('activity.sync.failed', { what, why: (systemErrorWords(error) ?? (error instanceof Error ? error.message : String(error))).replace(/\.$/, '') });
    engineLog.warn('sync', line.text, error);
    this.ctx.log('error', line);
  }

  /** Stops sync at once when the sync folder is no longer there or no longer ours (SyncFolder.verify's reason). */
  private checkRootNow(): void {
    if (!this.started) return;
    const check = this.root.verify();
    if (!check.ok) this.ctx.stop(check);
  }

  /**
   * While watching and stopped because the sync folder is not there as it was, its return is looked for (RootReturn);
   * meanwhile nothing is scanned, so nothing in it is taken for deleted, and the queue waits (nothing is cancelled).
   */
  private awaitRootReturn(): void {
    if (this.started && this.watching) this.rootReturn.await();
  }

  private async resumeAfterReturn(): Promise<void> {
    await this.folderWatch.start();
    if (!this.started) return;
    this.scheduler.scheduleRescan();
    // A full pass: what changed here or on the service meanwhile. It writes "resumed" when the folder is as it was.
    this.scheduler.clearDirty();
    await this.syncOnce({ settle: 'once' });
  }

  private watcherFailed({ text: message, words }: { text: string; words: EngineWords }): void {
    this.side.watcherWarning = message;
    this.side.watcherWords = words;
    this.queue.log('error', { text: message, words });
    this.emit('event', { type: 'warning', message, words });
    this.emit('state');
    // Without a reliable watcher, rescan more often.
    this.scheduler.scheduleRescan(this.scheduler.rescanInterval());
  }

  private queueChanged(event: QueueEvent): void {
    // The queue runner found the folder gone while sending (it stopped sync itself): wait for it the same way.
    if (event.type === 'status') {
      if (event.status.state === 'stopped' && this.side.stoppedReason === null && this.started && this.watching) this.checkRootNow();
      return;
    }
    this.scheduler.itemChanged(event);
  }

  private signInLost(): void {
    const line = said('activity.sync.signInLost');
    this.queue.log('warning', line);
    this.emit('event', { type: 'warning', message: line.text, words: line.words });
    this.emit('state');
  }

  private signedIn(): void {
    if (!this.started) return;
    this.scheduler.markAll();
    void this.syncOnce({ settle: 'once' }).catch((error) => engineLog.warn('sync', 'the pass after a new sign-in failed', error));
  }
}
