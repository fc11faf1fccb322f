import { EventEmitter } from 'node:events';
import type { Session } from '../authorization/session';
import type { DesignCache } from '../cache/design-cache';
import { engineLog } from '../log/engine-log';
import type { QueueBlock } from '../queue/problem-outcome';
import type { QueueStore } from '../queue/queue-store';
import { runnerLockHolder } from '../queue/runner-lock';
import type { SettingsStore } from '../settings/settings-store';
import type { TrashMode } from '../sync/local-files';
import type { SyncEvent } from '../sync/sync-context';
import type { PassResult } from '../sync/sync-options';
import type { SyncDatabase } from '../sync-state/sync-database';
import { SyncRootError, type SyncRoot } from '../sync-state/sync-root';
import type { DesignChanges } from './design-changes';
import { EngineError } from './engine-error';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import { QueueLockedError } from '../queue/runner-lock';
import type { ServiceConnection } from './service-connection';
import { StoredTokenFollower } from './stored-token-follower';
import { makeSyncParts, type SyncParts } from './sync-parts';
import { eventsOf, type SyncStatusService } from './sync-status';

/** Why the background work is not running, when it is not. */
export type BackgroundProblem = { kind: 'queue-locked'; message: string; words: EngineWords | null } | { kind: 'sync-failed'; message: string };

export interface SyncServiceDeps {
  connection: ServiceConnection;
  session: Session;
  settings: SettingsStore;
  cache: DesignCache;
  syncDb: SyncDatabase;
  queue: QueueStore;
  changes: DesignChanges;
  syncStatus: SyncStatusService;
  profileDir: string;
  /** Whether the engine works in the background now (a folder chosen then is started at once). */
  background: () => boolean;
  closed: () => boolean;
  settleMs: number;
  rescanIntervalMs: number;
  trash: TrashMode;
  remotePollMs?: number;
}

/**
 * The sync folder and the upload queue's runner of the chosen service: made on first use, let go when another service
 * is chosen. Holds what the person asks of the folder (choose it, sync now, accept the content policy, the ignore
 * file) and what a decision on the queue or a deleted design triggers. Tells 'state' when what the overall state is
 * made of changed.
 */
export class SyncService extends EventEmitter<{ state: [] }> {
  private parts: { baseUrl: string; sync: SyncParts; unfollow: (() => void)[] } | null = null;
  private starting: Promise<unknown> | null = null;
  private problemNow: BackgroundProblem | null = null;
  private readonly storedToken: StoredTokenFollower;

  constructor(private readonly deps: SyncServiceDeps) {
    super();
    this.storedToken = new StoredTokenFollower(deps.session, deps.closed);
  }

  /** Why part of the background work could not start (another process sends this profile's queue…), or null. */
  get problem(): BackgroundProblem | null {
    return this.problemNow;
  }

  clearProblem(): void {
    this.problemNow = null;
  }

  /** The sync engine and queue runner of the chosen service (made on first use). */
  syncParts(): SyncParts {
    const baseUrl = this.deps.connection.baseUrl();
    if (this.parts?.baseUrl === baseUrl) return this.parts.sync;
    const { deps } = this;
    const made = makeSyncParts({
      baseUrl,
      userAgent: deps.connection.userAgent,
      session: deps.session,
      cache: deps.cache,
      db: deps.syncDb,
      queue: deps.queue,
      transportHooks: deps.connection.transportHooks(),
      settleMs: deps.settleMs,
      rescanIntervalMs: deps.rescanIntervalMs,
      trash: deps.trash,
      contentPolicyAccepted: () => this.contentPolicyAccepted(),
      ...(deps.remotePollMs !== undefined ? { remotePollMs: deps.remotePollMs } : {}),
      online: () => deps.connection.connectivity.state.online,
      connectivity: deps.connection.connectivity,
      reviewBeforePublishing: () => deps.settings.read().reviewBeforePublishing === true,
    });
    // What the overall state is made of, besides the queue's own rows: tell whoever shows it. While the queue waits
    // for a sign-in, a token another process stores (`design-sync login` in another terminal) is taken up at once.
    // All of it is let go when the parts are dropped (another service chosen): only the new parts are followed.
    const { sync, runner } = made;
    const onBlocked = (block: QueueBlock | null) => {
      this.storedToken.follow(block?.kind === 'sign-in' ? baseUrl : null);
      this.emit('state');
    };
    const onEvent = (event: SyncEvent) => {
      // A pass read the own designs again, or made a design's folder: tell what changed.
      if (event.type === 'remote') deps.changes.checkOwn();
      if (event.type === 'folder-created') deps.changes.ownSyncChanged([event.designId]);
      // A scan that ran to its end is each linked folder's last sync when it left nothing of it to send: told as the
      // designs' own views, so that no window has to infer it from how the sync view changed.
      if (event.type === 'scan' && event.summary.stopped === null) {
        deps.changes.ownSyncChanged(sync.folders.all().flatMap((folder) => (folder.state === 'linked' && folder.designId !== null ? [folder.designId] : [])));
      }
      if (event.type === 'stopped' || event.type === 'resumed' || event.type === 'warning') this.emit('state');
    };
    runner.on('blocked', onBlocked);
    sync.on('event', onEvent);
    this.parts = {
      baseUrl,
      sync: made,
      unfollow: [
        deps.syncStatus.follow(eventsOf(sync, 'state')),
        () => runner.off('blocked', onBlocked),
        () => sync.off('event', onEvent),
      ],
    };
    return made;
  }

  /** The sync parts when a service is chosen, else null (views that show the folder's side without making it). */
  partsIfChosen(): SyncParts | null {
    return this.deps.connection.serviceUrl() ? this.syncParts() : null;
  }

  /** The parts made so far, or null (the status reads them without making them). */
  currentParts(): SyncParts | null {
    return this.parts?.sync ?? null;
  }

  folder(): SyncRoot | null {
    return this.syncParts().sync.root.current();
  }

  /** Makes `path` the profile's sync folder; SyncRootError's words become a 'sync-folder' problem. */
  chooseFolder(path: string): SyncRoot {
    let root: SyncRoot;
    try {
      root = this.syncParts().sync.root.choose(path, { profileDir: this.deps.profileDir });
    } catch (error) {
      if (error instanceof SyncRootError) throw new EngineError({ kind: 'sync-folder', message: error.message });
      throw error;
    }
    if (this.deps.background()) this.startInBackground();
    return root;
  }

  /** Whether another process (the app, `sync --watch`) sends this profile's queue and keeps its folder now. */
  otherProcessSyncs(): boolean {
    return runnerLockHolder(`${this.deps.queue.db.name}.runner.lock`) !== null;
  }

  contentPolicyAccepted(): boolean {
    return this.deps.settings.read().contentPolicyAcceptedAt !== undefined;
  }

  /** Rule 5, accepted by the person: the queue may send. */
  acceptContentPolicy(): void {
    if (!this.contentPolicyAccepted()) this.deps.settings.update({ contentPolicyAcceptedAt: new Date().toISOString() });
    this.parts?.sync.runner.contentPolicyChanged();
    this.emit('state');
  }

  /**
   * Edits of designs wait in the queue even without a sync folder: when one is queued while the background work
   * runs, the queue runner is started if it was not (it sends them when the service is back).
   */
  queueWorkAdded(): void {
    if (this.deps.background() && this.deps.connection.serviceUrl()) this.startQueueRunner();
  }

  /** The background's share: the folder watched and the queue sent, or only the queue when edits wait without a folder. */
  startBackground(): void {
    if (this.syncParts().sync.root.current()) this.startInBackground();
    else if (this.deps.queue.pendingDesignEdits().length > 0) this.startQueueRunner();
  }

  /**
   * Stops the folder's watch and the queue. Uploads under way get up to `drainMs` to finish (so their outcome is known
   * and nothing is sent twice); the rest stop safely, go back in line and are reconciled at the next start.
   */
  async stopBackground(drainMs: number): Promise<void> {
    const starting = this.starting;
    this.starting = null;
    // Waits for it to end: a failure to start was kept as the background problem (startInBackground).
    await Promise.allSettled([starting]);
    const sync = this.parts?.sync;
    if (sync) {
      await sync.runner.stop({ drainMs });
      await sync.sync.stop();
    }
    this.storedToken.follow(null);
  }

  /** Lets the parts go (another service is being chosen, or the engine closes): stopped, no longer followed. */
  async drop(): Promise<void> {
    this.storedToken.follow(null);
    const sync = this.parts?.sync;
    for (const unfollow of this.parts?.unfollow.splice(0) ?? []) unfollow();
    this.parts = null;
    if (sync) {
      await sync.runner.stop();
      await sync.sync.stop();
    }
  }

  // What the person asks of the folder besides its settings: each takes effect at once, not at the next rescan.

  /**
   * "Sync now" (the window, the tray): a full pass at once — the own designs and every linked design's files from the
   * service, then the folder's changes into the queue — after whatever runs now. Refused without a sync folder.
   */
  async syncNow(): Promise<PassResult> {
    const { sync } = this.syncParts();
    if (!sync.root.current()) throw new EngineError({ kind: 'sync-folder', message: 'Choose a sync folder first.' });
    const result = await sync.syncOnce({ settle: 'once' });
    this.queueWorkAdded();
    return result;
  }

  /**
   * A decision was taken on queue items of these designs (a deletion turned down or confirmed, a conflict settled):
   * their files are looked at on the service at once, so that it shows within seconds (a file kept there comes back).
   */
  decisionTaken(designIds: readonly (number | null)[]): void {
    void this.applyDecision(designIds).catch((error: unknown) => engineLog.warn('sync', 'the pass after a decision failed', error));
  }

  /**
   * The same, awaited (`design-sync queue cancel`, whose process ends with the command): the pass over those designs,
   * or null when there is nothing to look at (no service, no sync folder, no design).
   */
  async applyDecision(designIds: readonly (number | null)[]): Promise<PassResult | null> {
    const ids = [...new Set(designIds.filter((id): id is number => id !== null))];
    if (ids.length === 0 || !this.deps.connection.serviceUrl()) return null;
    const { sync } = this.syncParts();
    if (!sync.root.current()) return null;
    return sync.syncDesigns(ids);
  }

  /**
   * An own design was deleted on the service (own.delete got its answer): its folder is handled at once, as
   * docs/sync.md says — to the trash when nothing in it changed since the last sync, else kept, no longer synced, and
   * the person told. Nothing without a sync folder, or when the design had no folder.
   */
  async ownDesignDeleted(designId: number): Promise<void> {
    if (!this.deps.connection.serviceUrl()) return;
    const { sync } = this.syncParts();
    if (!sync.root.current()) return;
    await sync.designGone(designId, { confirmed: true });
  }

  /**
   * "Pull the catalogue now" also brings the sync folder's side of the service: a full pass once the catalogue (own
   * designs and drafts included) is pulled. Its failure is logged; the pull's own outcome is what the person is told.
   */
  async refreshAfterPull(): Promise<void> {
    if (!this.deps.connection.serviceUrl() || !this.syncParts().sync.root.current()) return;
    try {
      await this.syncNow();
    } catch (error) {
      engineLog.warn('sync', 'the sync pass after pulling the catalogue failed', error);
    }
  }

  private startQueueRunner(): void {
    const { runner } = this.syncParts();
    if (runner.isRunning) return;
    try {
      runner.start();
    } catch (error) {
      // Who holds the queue, as facts the front ends word (the lock's path is in the engine log).
      const words: EngineWords | null = error instanceof QueueLockedError ? { id: 'sync.detail.queueLocked', values: { pid: String(error.pid) } } : null;
      this.problemNow = { kind: 'queue-locked', message: (error as Error).message, words };
      engineLog.warn('queue', 'the queue runner could not start', error);
    }
  }

  private startInBackground(): void {
    const { sync } = this.syncParts();
    this.startQueueRunner();
    if (this.starting) return;
    this.starting = sync.start({ watch: true, firstPass: { settle: 'once' } }).catch((error: unknown) => {
      this.problemNow = { kind: 'sync-failed', message: `Sync could not start: ${error instanceof Error ? error.message : String(error)}` };
      engineLog.warn('sync', 'sync could not start', error);
    });
  }
}
