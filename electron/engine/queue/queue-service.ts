import { EventEmitter } from 'node:events';
import { describeFieldErrors, validateDesignInput, type AttentionKind, type DesignInput, type QueueItemView, type QueueState, type SyncStatusView } from '../../../shared';
import { PAUSE_MORNING_HOUR } from '../../../shared/sync/sync-state-words';
import type { ActivityEntry } from './activity-log';
import { describeItem, itemSubject } from './describe-item';
import { fieldErrorsSaid } from './field-words';
import type { QueueEvent, QueueItem } from './queue-item';
import { QueueRefusal } from './queue-refusal';
import { queueReport, type QueueReport } from './queue-report';
import { uploadProgressOf } from './upload-progress';
import type { QueueStore } from './queue-store';
import { said, type Said } from './said';

/** How long a pause of all uploads lasts by itself: an hour, or until the next 08:00 (PAUSE_MORNING_HOUR, local time). */
export type PauseLength = 'hour' | 'tomorrow';
export const PAUSE_LENGTHS: readonly PauseLength[] = ['hour', 'tomorrow'];

/** When a pause of `length` begun at `now` ends (epoch ms). */
export function pauseEndsAt(length: PauseLength, now: number): number {
  if (length === 'hour') return now + 60 * 60_000;
  const morning = new Date(now);
  morning.setHours(PAUSE_MORNING_HOUR, 0, 0, 0);
  if (morning.getTime() <= now) morning.setDate(morning.getDate() + 1);
  return morning.getTime();
}

/** The items not done yet: what the window's queue and `design-sync queue` list by default. */
export const NOT_DONE: readonly QueueState[] = ['running', 'waiting', 'attention', 'failed'];

/** What the person can be asked to confirm, by the attention an item waits with. */
type Confirmable = Extract<AttentionKind, 'confirm-delete' | 'confirm-design' | 'conflict' | 'ready-to-publish'>;

/** What there is to confirm, as a select's key of the catalogs (`engine.refusal.queue.nothingToConfirm`). */
const CONFIRMABLE_CODES: Record<Confirmable, string> = {
  'confirm-delete': 'deletion', 'confirm-design': 'newDesign', conflict: 'conflict', 'ready-to-publish': 'readyToPublish',
};

/** A decision the person took about the queue, once it is written (QueueService's 'decided' event). */
export interface QueueDecision {
  kind: 'retry' | 'cancel' | 'pause' | 'resume' | 'confirm' | 'resolve-conflict';
  /** The items it changed; 'all' for a decision about every upload (a pause or resume of all). */
  items: number[] | 'all';
  /** The designs of those items. */
  designIds: number[];
}

export interface QueueServiceDeps {
  store: QueueStore;
  /**
   * Items were put in line again (retried, confirmed, resumed): the engine starts the queue's runner if it may run here
   * (engine.queueWorkAdded). A runner already running notices by itself.
   */
  workAdded?: () => void;
  /**
   * The person decided about items of these designs (a deletion turned down, a conflict settled): their files are looked
   * at on the service at once, so that it shows within seconds (a file kept there comes back into the folder).
   */
  decisionTaken?: (designIds: number[]) => void;
  /** Moves the person's copy of a conflicted file to the trash; without it, keeping only the service's version is refused. */
  discardConflictCopy?: (path: string) => Promise<unknown>;
  /** The clock a timed pause counts from. */
  now?: () => number;
}

/**
 * The queue's decisions, for every front end (the window's contract and the CLI call it, and say what came of it in
 * their words): what the person may do to an item or to all of them — retry, cancel, pause and resume, confirm (a
 * deletion, a new design, a file ready to publish), settle a conflict — each checked against the item's state first and
 * refused in words naming the item (QueueRefusal), and what each triggers: the runner woken, the sync folder told,
 * a line in the activity list. It also answers the reads the views need. Its 'decided' event tells each decision once
 * written; the store's 'change' and 'activity' are followed through onChange() and onActivity().
 */
export class QueueService extends EventEmitter<{ decided: [QueueDecision] }> {
  private readonly store: QueueStore;
  private readonly now: () => number;

  constructor(private readonly deps: QueueServiceDeps) {
    super();
    this.store = deps.store;
    this.now = deps.now ?? Date.now;
  }

  // Reads

  /** The items in these states (default: not done yet), oldest first. */
  list(options: { states?: readonly QueueState[]; limit?: number } = {}): QueueItem[] {
    return this.store.list({ states: options.states ?? NOT_DONE, ...(options.limit !== undefined ? { limit: options.limit } : {}) });
  }

  /** The newest activity lines, newest first. */
  recentActivity(limit = 50): ActivityEntry[] {
    return this.store.recentActivity(limit);
  }

  /** The queue's run state and counts (paused, until when, stopped, the last scan). */
  status(): SyncStatusView {
    return this.store.status();
  }

  /** An item told as it changes: while it is being sent, with its file's rate now (bytes a second). */
  withRate(item: QueueItemView): QueueItemView {
    if (item.state !== 'running') return item;
    const progress = uploadProgressOf(this.store);
    // Told here too (a second telling adds nothing): the rate then includes this very report, whichever listener runs first.
    progress.itemChanged(item);
    return { ...item, bytesPerSecond: progress.fileRate(item.id) } as QueueItemView;
  }

  /** The item, or null when there is none. */
  find(id: number): QueueItem | null {
    return this.store.get(id) ?? null;
  }

  /** What `design-sync status` prints: the items by state, those in progress, those waiting for the person, the last lines. */
  report(activityLines?: number): QueueReport {
    return queueReport(this.store, activityLines);
  }

  /**
   * A check of whether anything of the queue changed since it was made, written by this process or another (the app,
   * another command): `design-sync status --follow` prints again when it says so.
   */
  changedSince(): () => boolean {
    return this.store.changedSince();
  }

  /** The item, or a refusal saying there is none. */
  item(id: number): QueueItem {
    const item = this.store.get(id);
    if (!item) throw QueueRefusal.of('not-found', 'engine.refusal.queue.noSuchItem', { id });
    return item;
  }

  /** Follows every change of an item or of the run state; returns the function that stops following. */
  onChange(listener: (event: QueueEvent) => void): () => void {
    this.store.on('change', listener);
    return () => this.store.off('change', listener);
  }

  /** Follows every line added to the activity list; returns the function that stops following. */
  onActivity(listener: (entry: ActivityEntry) => void): () => void {
    this.store.on('activity', listener);
    return () => this.store.off('activity', listener);
  }

  // Retry

  /** Tries a failed (or waiting) item again now, with a fresh count of attempts. */
  retry(id: number): QueueItem {
    const item = this.item(id);
    if (item.state !== 'failed' && item.state !== 'waiting') {
      throw QueueRefusal.of('conflict', 'engine.refusal.queue.notRetryable', { id: item.id, subject: itemSubject(item), state: item.state });
    }
    const retried = this.store.retry(item.id);
    this.decided('retry', [retried]);
    this.deps.workAdded?.();
    return retried;
  }

  /** Every failed item, and every waiting one held back by a backoff, tried again now. Returns how many. */
  retryAll(): number {
    const items = this.store.list({ states: ['failed', 'waiting'] });
    const count = this.store.retryAll();
    this.decided('retry', items);
    if (count > 0) this.deps.workAdded?.();
    return count;
  }

  // Cancel

  /**
   * Takes an item out of the queue; local files are never touched. One being sent is stopped (the runner sees it; had
   * the service already taken it, it is kept as synced). A change of a file the service refused is not queued again
   * until the file changes. One line in the activity list says so, and the item's design is looked at on the service
   * at once (a file whose deletion was turned down comes back), unless `lookAtService` is false (the caller does it).
   */
  cancel(id: number, options: { lookAtService?: boolean } = {}): QueueItem {
    const item = this.item(id);
    if (item.state === 'done' || item.state === 'cancelled') throw QueueRefusal.of('conflict', 'engine.refusal.queue.alreadyEnded', { id: item.id, subject: itemSubject(item), state: item.state });
    const cancelled = this.store.cancel(item.id);
    this.store.log('info', cancelledLine(item), item.path ?? item.folder);
    this.decided('cancel', [cancelled]);
    if (options.lookAtService !== false) this.lookAtService([cancelled]);
    return cancelled;
  }

  /** Cancels every item not done yet, with one line in the activity list; returns how many, and their designs. */
  cancelAll(options: { lookAtService?: boolean } = {}): { count: number; designIds: number[] } {
    const items = this.store.list({ states: NOT_DONE });
    const count = this.store.cancelAll();
    if (count > 0) this.store.log('info', count === 1 ? said('activity.queue.oneCancelled', { item: describeItem(items[0]!) }) : said('activity.queue.allCancelled', { count }));
    this.decided('cancel', items);
    if (options.lookAtService !== false) this.lookAtService(items);
    return { count, designIds: designIdsOf(items) };
  }

  // Pause and resume

  /** Pauses one item (one being sent stops, and goes back in line paused). */
  pause(id: number): QueueItem {
    const paused = this.store.setPaused(this.item(id).id, true);
    this.decided('pause', [paused]);
    return paused;
  }

  resume(id: number): QueueItem {
    const resumed = this.store.setPaused(this.item(id).id, false);
    this.decided('resume', [resumed]);
    this.deps.workAdded?.();
    return resumed;
  }

  /**
   * Pauses all uploads (those being sent stop, and go back in line), until the person resumes them or, given a length,
   * until it ends (then they resume by themselves). Returns when it ends (or null) and how many wait.
   */
  pauseAll(length: PauseLength | null = null): { until: number | null; waiting: number } {
    const until = length === null ? null : pauseEndsAt(length, this.now());
    this.store.setQueuePaused(true, until);
    this.emit('decided', { kind: 'pause', items: 'all', designIds: [] });
    return { until, waiting: this.store.status().counts.waiting };
  }

  /** Resumes all uploads. Returns how many wait. */
  resumeAll(): { waiting: number } {
    this.store.setQueuePaused(false);
    this.emit('decided', { kind: 'resume', items: 'all', designIds: [] });
    this.deps.workAdded?.();
    return { waiting: this.store.status().counts.waiting };
  }

  // Confirm

  /** The person confirms deleting a file on the service (it was deleted from the folder). */
  confirmDeletion(id: number): QueueItem {
    return this.confirmed(this.store.confirm(this.waitingFor(id, 'confirm-delete').id));
  }

  /** The person confirms the design proposed for a new folder, with its required fields; a draft unless `publish`. */
  confirmNewDesign(id: number, fields: { name?: string | undefined; excerpt?: string | undefined; license?: string | undefined }, publish: boolean): QueueItem {
    this.waitingFor(id, 'confirm-design');
    const checked = validateDesignInput(fields, 'create');
    if (!checked.ok) throw QueueRefusal.of('validation', 'engine.refusal.queue.newDesignInvalid', { problems: fieldErrorsSaid(checked.errors) ?? describeFieldErrors(checked.errors) }, checked.errors);
    return this.confirmed(this.store.confirm(id, { ...(checked.value as DesignInput), publish }));
  }

  /** The person sends a file that waits as ready to publish (added to a published design while review before publishing is on). */
  sendReady(id: number): QueueItem {
    return this.confirmed(this.store.confirm(this.waitingFor(id, 'ready-to-publish').id));
  }

  /** The person sends every file that waits as ready to publish. Returns how many. */
  sendAllReady(): number {
    const ready = this.store.list({ states: ['attention'] }).filter((item) => item.attention === 'ready-to-publish');
    const sent = ready.map((item) => this.store.confirm(item.id));
    if (sent.length > 0) this.confirmedAll(sent);
    return sent.length;
  }

  /**
   * Confirms every deletion on the service that waits for the person (files deleted from the folder), as
   * `design-sync sync --confirm-deletes` asks; `onConfirmed` is told of each. Returns them.
   */
  confirmPendingDeletes(onConfirmed?: (item: QueueItem) => void): QueueItem[] {
    const confirmed: QueueItem[] = [];
    for (const item of this.store.list({ states: ['attention'] })) {
      if (item.kind !== 'delete-remote' || item.attention !== 'confirm-delete') continue;
      confirmed.push(this.store.confirm(item.id));
      onConfirmed?.(item);
    }
    if (confirmed.length > 0) this.confirmedAll(confirmed);
    return confirmed;
  }

  /**
   * The person settles a conflict: 'both' sends their copy as a new file; 'service' keeps only the service's version,
   * their copy moved to the trash before the item leaves the queue. Either way the design is looked at on the service
   * at once.
   */
  async resolveConflict(id: number, keep: 'both' | 'service'): Promise<QueueItem> {
    const item = this.waitingFor(id, 'conflict');
    let settled: QueueItem;
    if (keep === 'both') {
      settled = this.store.confirm(item.id);
      this.deps.workAdded?.();
    } else {
      if (item.path) {
        if (!this.deps.discardConflictCopy) throw QueueRefusal.of('conflict', 'engine.refusal.queue.cannotTrash', { path: item.path });
        await this.deps.discardConflictCopy(item.path);
      }
      settled = this.store.cancel(item.id);
    }
    this.decided('resolve-conflict', [settled]);
    this.lookAtService([settled]);
    return settled;
  }

  // Within

  /** The item, refused unless it waits for the person with this attention. */
  private waitingFor(id: number, attention: Confirmable): QueueItem {
    const item = this.item(id);
    if (item.state !== 'attention' || item.attention !== attention) {
      throw QueueRefusal.of('conflict', 'engine.refusal.queue.nothingToConfirm', {
        id, subject: itemSubject(item), state: item.state, attention: item.attention ?? 'none', what: CONFIRMABLE_CODES[attention],
      });
    }
    return item;
  }

  private confirmed(item: QueueItem): QueueItem {
    this.confirmedAll([item]);
    return item;
  }

  private confirmedAll(items: QueueItem[]): void {
    this.decided('confirm', items);
    this.deps.workAdded?.();
  }

  private lookAtService(items: QueueItem[]): void {
    const designIds = designIdsOf(items);
    if (designIds.length > 0) this.deps.decisionTaken?.(designIds);
  }

  private decided(kind: QueueDecision['kind'], items: QueueItem[]): void {
    if (items.length > 0) this.emit('decided', { kind, items: items.map((item) => item.id), designIds: designIdsOf(items) });
  }

}

/** The activity line of a person's cancel. */
function cancelledLine(item: QueueItem): Said {
  const how = item.kind === 'delete-remote' ? 'staysOnService' : item.kind === 'update-design' ? 'notSent' : 'localUntouched';
  return said('activity.queue.cancelledByYou', { item: describeItem(item), how });
}

function designIdsOf(items: readonly QueueItem[]): number[] {
  return [...new Set(items.flatMap((item) => (item.designId === null ? [] : [item.designId])))];
}
