import { EventEmitter } from 'node:events';
import type { AttentionKind, QueueState, SyncStatusView } from '../../../shared';
import type { SyncDatabase } from '../sync-state/sync-database';
import { SyncFolder } from '../sync-state/sync-root';
import { ActivityLog, type ActivityEntry, type ActivityLevel } from './activity-log';
import { systemClock, type QueueClock } from './clock';
import type { DismissedVersion } from './dismissed-versions';
import type { CreateDesignPayload, DesignEditFields } from './job-payloads';
import type { NewQueueItem, QueueEvent, QueueItem, Reason, SentAttempt, Settlement } from './queue-item';
import type { Said } from './said';
import { QueueItems, type Retarget } from './queue-items';
import { QueueRunState } from './run-state';

/**
 * The durable queue of one profile's sync database, as one object: its items (queue-items.ts, the one writer of
 * queue_items), its activity list (activity-log.ts, of activity) and its run state (run-state.ts, of the queue's part
 * of sync_status), composed. It emits 'change' (QueueEvent) after each write of an item or of the run state, and
 * 'activity' for each line added, for the window; another process follows it with `changedSince()` (PRAGMA
 * data_version). What a person decides about the queue goes through QueueService (queue-service.ts).
 */
export class QueueStore extends EventEmitter<{ change: [QueueEvent]; activity: [ActivityEntry] }> {
  readonly items: QueueItems;
  readonly activityLog: ActivityLog;
  readonly runState: QueueRunState;
  private readonly syncFolder: SyncFolder;

  constructor(
    readonly db: SyncDatabase,
    now: () => number = Date.now,
    timers: Pick<QueueClock, 'setTimer' | 'clearTimer'> = systemClock,
  ) {
    super();
    this.items = new QueueItems(db, now, (item) => this.emit('change', { type: 'item', item }));
    this.activityLog = new ActivityLog(db, now);
    this.runState = new QueueRunState(db, now, timers, () => this.statusChanged());
    this.syncFolder = new SyncFolder(db, now);
  }

  // Items (queue-items.ts)

  enqueue(item: NewQueueItem): QueueItem { return this.items.enqueue(item); }
  enqueueDesignEdit(designId: number, fields: DesignEditFields, designName: string): QueueItem { return this.items.enqueueDesignEdit(designId, fields, designName); }
  supersedeFailedDesignEdits(designId: number): number { return this.items.supersedeFailedDesignEdits(designId); }
  pendingDesignEdits(designId?: number): QueueItem[] { return this.items.pendingDesignEdits(designId); }
  get(id: number): QueueItem | null { return this.items.get(id); }
  list(options: { states?: readonly QueueState[]; limit?: number } = {}): QueueItem[] { return this.items.list(options); }
  openItemsForPath(path: string): QueueItem[] { return this.items.openForPath(path); }
  latestForPath(path: string): QueueItem | null { return this.items.latestForPath(path); }
  deletedOnServiceSince(designId: number, at: number): Set<string> { return this.items.deletedOnServiceSince(designId, at); }
  pendingInFolders(folders: readonly string[]): QueueItem[] { return this.items.pendingInFolders(folders); }
  dismissedVersions(paths: readonly string[]): Map<string, DismissedVersion> { return this.items.dismissedVersions(paths); }
  interrupted(): QueueItem[] { return this.items.interrupted(); }
  nextDueAt(): number | null { return this.items.nextDueAt(); }
  countWaiting(): number { return this.items.countWaiting(); }

  /** The next item whose turn it is (none while the run state holds the queue back), marked running. */
  claimNext(): QueueItem | null { return this.items.claimNext(() => this.runState.holdsBack()); }
  progress(id: number, sent: number, total: number): void { this.items.progress(id, sent, total); }
  markSending(id: number, sent: SentAttempt, options: { untilLastBytes?: boolean } = {}): boolean { return this.items.markSending(id, sent, options); }
  confirmSending(id: number, sha1: string): Promise<boolean> { return this.items.confirmSending(id, sha1); }
  clearSent(id: number): void { this.items.clearSent(id); }
  retarget(id: number, changes: Retarget): QueueItem { return this.items.retarget(id, changes); }
  mergePayload(id: number, payload: Record<string, unknown>): void { this.items.mergePayload(id, payload); }
  settle(id: number, to: Settlement): QueueItem | null { return this.items.settle(id, to); }
  done(id: number): QueueItem { return this.items.done(id); }
  retryAt(id: number, at: number, reason: Reason | null): QueueItem { return this.items.retryAt(id, at, reason); }
  failed(id: number, reason: Reason): QueueItem { return this.items.failed(id, reason); }
  needsAttention(id: number, kind: AttentionKind, reason: Reason): QueueItem { return this.items.needsAttention(id, kind, reason); }
  confirm(id: number, payload: Partial<CreateDesignPayload> = {}): QueueItem { return this.items.confirm(id, payload); }
  retry(id: number): QueueItem { return this.items.retry(id); }
  retryAll(): number { return this.items.retryAll(); }
  cancel(id: number, options: { dismiss?: boolean } = {}): QueueItem { return this.items.cancel(id, options); }
  cancelAll(): number { return this.items.cancelAll(); }
  setPaused(id: number, paused: boolean): QueueItem { return this.items.setPaused(id, paused); }

  /**
   * Marks an item done, running `record` (the last synced state: BaseFiles, DesignFolders) in the same
   * transaction, so the two never disagree after a crash; `line`, the activity line saying so, in it too (one
   * durable commit). A newer upload of the same path that waits becomes a replace of the record just made.
   */
  complete(id: number, record: () => void = () => {}, line?: { said: Said; path: string | null }): QueueItem {
    let logged: ActivityEntry | null = null;
    const item = this.items.complete(id, () => {
      record();
      if (line) logged = this.activityLog.add('info', line.said, line.path);
    });
    if (logged) this.told(logged);
    return item;
  }

  /**
   * Items a process left running when it stopped (crash, kill): back to waiting, keeping what they sent, so that
   * they are reconciled with the service before being sent again. Call once, before a runner starts claiming.
   */
  recoverInterrupted(): QueueItem[] {
    const items = this.items.interrupted();
    for (const item of items) this.items.settle(item.id, { state: 'waiting', at: 0, reason: null, countAttempt: false, sent: 'keep' });
    return items;
  }

  // The activity list (activity-log.ts)

  log(level: ActivityLevel, line: Said, path: string | null = null): void {
    this.told(this.activityLog.add(level, line, path));
  }

  /** The newest activity lines, newest first. */
  recentActivity(limit = 20): ActivityEntry[] { return this.activityLog.recent(limit); }

  // The run state (run-state.ts)

  /** Pauses or resumes all uploads; a pause `until` a time (epoch ms) ends by itself then. */
  setQueuePaused(paused: boolean, until: number | null = null): void {
    this.runState.setPaused(paused, until);
    this.statusChanged();
  }

  /** 'stopped' (with why) while the sync folder is not there as it was, so that nothing leaves the queue; 'idle' otherwise. */
  setRunState(state: 'idle' | 'stopped', reason: string | null = null): void {
    this.runState.setRunState(state, reason);
    this.statusChanged();
  }

  /** The folder was compared with the last synced state at `at`. */
  markScanned(at: number): void { this.runState.markScanned(at); }

  /** The run state with the items' counts and the sync folder, as the sync status and the window read them. */
  status(): SyncStatusView {
    const run = this.runState.read();
    return {
      state: run.stopped ? 'stopped' : 'idle', reason: run.reason, root: this.syncFolder.current()?.path ?? null,
      queuePaused: run.queuePaused, queuePausedUntil: run.queuePausedUntil, lastScanAt: run.lastScanAt, counts: this.items.counts(),
    };
  }

  /** For another process following this queue: true when anything was written since the last call. */
  changedSince(): () => boolean {
    let seen = this.db.pragma('data_version', { simple: true }) as number;
    return () => {
      const now = this.db.pragma('data_version', { simple: true }) as number;
      const changed = now !== seen;
      seen = now;
      return changed;
    };
  }

  private statusChanged(): void {
    this.emit('change', { type: 'status', status: this.status() });
  }

  private told(entry: ActivityEntry): void {
    if (this.listenerCount('activity') > 0) this.emit('activity', entry);
  }
}
