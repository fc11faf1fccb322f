import { EventEmitter } from 'node:events';
import type { AttentionKind, QueueKind, QueueState, SyncRunState, SyncStatusView } from '../../../shared';
import { QUEUE_STATES } from '../../../shared';
import type { Statement } from 'better-sqlite3';
import { commitLightly, commitThenFlush } from '../sync-state/light-commit';
import { statementsOf, type SyncDatabase } from '../sync-state/sync-database';
import { SyncFolder } from '../sync-state/sync-root';
import { engineLog } from '../log/engine-log';
import { systemClock, type QueueClock, type QueueTimer } from './clock';
import { addOrMergeItem } from './item-additions';
import { completeItem, settleItem } from './item-endings';
import { DISMISS_ON_CANCEL, dismissedVersions, type DismissedVersion } from './dismissed-versions';
import { DESIGN_EDIT_FIELDS, type CreateDesignPayload, type DesignEditFields, type DesignEditPayload } from './job-payloads';
import { CLEAR_SENT, heldBack, toItem, type ActivityEntry, type NewQueueItem, type QueueEvent, type QueueItem, type QueueRow, type SentAttempt, type Settlement } from './queue-item';

/** How far apart the end of a timed pause is checked, at most. */
const PAUSE_END_CHECK_MS = 60_000;

/**
 * The durable queue: every change is a row (written with synchronous=FULL) before anything is sent. A few writes of
 * an upload are light commits (commitLightly): its claim, progress and attempt row, made durable by the commit of the
 * read file's hash before the body's last bytes leave (markSending, confirmSending), and its ending while another item
 * runs, made durable by that item's next durable commit (complete; docs/sync.md "Commits of an upload").
 * It emits 'change' (QueueEvent) after each write, for the window; another process follows it with
 * `changedSince()` (PRAGMA data_version).
 */
export class QueueStore extends EventEmitter<{ change: [QueueEvent]; activity: [ActivityEntry] }> {
  /** Prepared once per database and reused: a scan queues thousands of items, and preparing cost more than running. */
  private readonly sql: (text: string) => Statement;

  private readonly syncFolder: SyncFolder;

  /** The timer that ends a timed pause of the uploads, and the end it was set for. */
  private pauseEnd: { until: number; timer: QueueTimer } | null = null;

  constructor(
    readonly db: SyncDatabase,
    private readonly now: () => number = Date.now,
    private readonly timers: Pick<QueueClock, 'setTimer' | 'clearTimer'> = systemClock,
  ) {
    super();
    this.syncFolder = new SyncFolder(db, now);
    this.sql = statementsOf(db);
  }

  /**
   * Adds an item, or, when the same file already has one not yet started, updates that one to this newer
   * change (its file version, kind and payload), so a file saved five times is uploaded once.
   */
  enqueue(item: NewQueueItem): QueueItem {
    const at = this.now();
    const state: QueueState = item.attention ? 'attention' : 'waiting';
    const values = {
      kind: item.kind, state, attention: item.attention?.kind ?? null, reason: item.attention?.reason ?? null,
      folder: item.folder ?? null, path: item.path ?? null, design_id: item.designId ?? null, file_kind: item.fileKind ?? null,
      remote_id: item.remoteId ?? null, payload: JSON.stringify(item.payload ?? {}),
      file_size: item.file?.size ?? null, file_mtime_ms: item.file?.mtimeMs ?? null, file_sha1: item.file?.sha1 ?? null, at,
    };
    // In the caller's transaction (a scan's), or in one begun IMMEDIATE: no other process adds the same file's item
    // between the read and the write.
    const add = () => addOrMergeItem(this.sql, values);
    const queued = this.db.inTransaction ? add() : this.db.transaction(add).immediate();
    this.emit('change', { type: 'item', item: queued });
    return queued;
  }

  /**
   * An edit of a design's fields to send (made while the service was away). A later edit of the same design while one
   * waits is merged into it (its fields win), so the service gets the newest values once and never an older edit
   * after a newer one; an earlier edit that failed is cancelled (the newer one supersedes it). Returns the item.
   */
  enqueueDesignEdit(designId: number, fields: DesignEditFields, designName: string): QueueItem {
    const at = this.now();
    const reason = 'Saved here: it is sent when the service is back.';
    const id = this.db.transaction((): number => {
      this.supersedeFailedEdits(designId, at);
      const open = this.sql(`SELECT id, payload FROM queue_items WHERE kind = 'update-design' AND design_id = ? AND state IN ('waiting', 'attention')`).get(designId) as { id: number; payload: string } | undefined;
      if (open) {
        const payload: DesignEditPayload = { fields: { ...earlierFields(open.payload), ...fields }, designName };
        this.sql(`UPDATE queue_items SET state = 'waiting', attention = NULL, reason = ?, payload = ?, attempts = 0, next_attempt_at = 0, updated_at = ? WHERE id = ?`)
          .run(reason, JSON.stringify(payload), at, open.id);
        return open.id;
      }
      return Number(this.sql(
        `INSERT INTO queue_items (kind, state, reason, design_id, payload, created_at, updated_at) VALUES ('update-design', 'waiting', ?, ?, ?, ?, ?)`,
      ).run(reason, designId, JSON.stringify({ fields, designName }), at, at).lastInsertRowid);
    })();
    return this.changed(id);
  }

  /**
   * A later edit of the design was saved (here or on the service): its failed edits are cancelled, so that retrying
   * one can never bring older values back. Returns how many.
   */
  supersedeFailedDesignEdits(designId: number): number {
    const ids = this.db.transaction(() => this.supersedeFailedEdits(designId, this.now()))();
    for (const id of ids) this.changed(id);
    return ids.length;
  }

  private supersedeFailedEdits(designId: number, at: number): number[] {
    const failed = (this.sql(`SELECT id FROM queue_items WHERE kind = 'update-design' AND design_id = ? AND state = 'failed'`).all(designId) as { id: number }[]).map((row) => row.id);
    for (const id of failed) {
      this.sql(`UPDATE queue_items SET state = 'cancelled', reason = 'Replaced by a later edit of the same design.', finished_at = ?, updated_at = ? WHERE id = ?`).run(at, at, id);
    }
    return failed;
  }

  /** The design edits not sent yet (waiting, running, or held for attention), oldest first. */
  pendingDesignEdits(designId?: number): QueueItem[] {
    const rows = designId === undefined
      ? this.sql(`SELECT * FROM queue_items WHERE kind = 'update-design' AND state IN ('waiting', 'running', 'attention') ORDER BY id`).all()
      : this.sql(`SELECT * FROM queue_items WHERE kind = 'update-design' AND design_id = ? AND state IN ('waiting', 'running', 'attention') ORDER BY id`).all(designId);
    return (rows as QueueRow[]).map(toItem);
  }

  get(id: number): QueueItem | null {
    const row = this.sql('SELECT * FROM queue_items WHERE id = ?').get(id) as QueueRow | undefined;
    return row ? toItem(row) : null;
  }

  /** The items of a file not yet done: running first, then the one waiting. */
  openItemsForPath(path: string): QueueItem[] {
    return (this.sql(`SELECT * FROM queue_items WHERE path = ? AND state IN ('running', 'waiting', 'attention') ORDER BY id`).all(path) as QueueRow[]).map(toItem);
  }

  /** The newest item of a path, whatever its state (to tell a proposal the person already turned down). */
  latestForPath(path: string): QueueItem | null {
    const row = this.sql('SELECT * FROM queue_items WHERE path = ? ORDER BY id DESC LIMIT 1').get(path) as QueueRow | undefined;
    return row ? toItem(row) : null;
  }

  /**
   * The files of a design this queue deleted on the service at or after `at` ("image:12", "document:7"): a listing
   * asked for before then may still hold them, and must not bring them back.
   */
  deletedOnServiceSince(designId: number, at: number): Set<string> {
    const rows = this.sql(`SELECT file_kind, remote_id FROM queue_items WHERE kind = 'delete-remote' AND state = 'done' AND design_id = ? AND remote_id IS NOT NULL AND finished_at >= ?`)
      .all(designId, at) as { file_kind: string | null; remote_id: number }[];
    return new Set(rows.map((row) => `${row.file_kind ?? 'document'}:${row.remote_id}`));
  }

  /** Waiting or attention items of the given top-level folders (to withdraw those whose file is gone). */
  pendingInFolders(folders: readonly string[]): QueueItem[] {
    return (this.sql(`SELECT * FROM queue_items WHERE state IN ('waiting', 'attention') AND folder IN (SELECT value FROM json_each(?)) ORDER BY id`)
      .all(JSON.stringify(folders)) as QueueRow[]).map(toItem);
  }

  list(options: { states?: readonly QueueState[]; limit?: number } = {}): QueueItem[] {
    const states = options.states ?? QUEUE_STATES;
    return (this.db
      .prepare(`SELECT * FROM queue_items WHERE state IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT ?`)
      .all(JSON.stringify(states), options.limit ?? -1) as QueueRow[]).map(toItem);
  }

  /** The next item whose turn it is, marked running with the time it starts sending (for crash reconciliation). */
  claimNext(): QueueItem | null {
    const at = this.now();
    // Light: a claim lost in a power cut leaves the item waiting, run again from the start; before anything it sends
    // can reach the service a durable commit (of its attempt) flushes it.
    const id = commitLightly(this.db, this.db.transaction(() => {
      if (heldBack(this.status())) return null;
      const row = this.db
        .prepare(`SELECT id FROM queue_items WHERE state = 'waiting' AND paused = 0 AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT 1`)
        .get(at) as { id: number } | undefined;
      if (!row) return null;
      this.sql(`UPDATE queue_items SET state = 'running', attempts = attempts + 1, started_at = ?, updated_at = ? WHERE id = ?`).run(at, at, row.id);
      return row.id;
    }));
    return id === null ? null : this.changed(id);
  }

  private anotherRunning(id: number): boolean {
    return this.sql(`SELECT 1 FROM queue_items WHERE state = 'running' AND id != ? LIMIT 1`).get(id) !== undefined;
  }

  /** Items left running by a process that stopped mid-way: each must be reconciled with the service before it is sent again. */
  interrupted(): QueueItem[] {
    return (this.sql(`SELECT * FROM queue_items WHERE state = 'running' ORDER BY id`).all() as QueueRow[]).map(toItem);
  }

  /** When the next waiting item is due, or null when none waits. */
  nextDueAt(): number | null {
    const row = this.sql(`SELECT min(next_attempt_at) AS at FROM queue_items WHERE state = 'waiting' AND paused = 0`).get() as { at: number | null };
    return row.at;
  }

  /** How many items wait for their turn (not paused): what a runner still has to do. */
  countWaiting(): number {
    return (this.sql(`SELECT count(*) AS n FROM queue_items WHERE state = 'waiting' AND paused = 0`).get() as { n: number }).n;
  }

  /** Bytes sent so far: a light commit (a figure lost in a power cut is of no consequence). */
  progress(id: number, sent: number, total: number): void {
    commitLightly(this.db, () => this.sql(`UPDATE queue_items SET bytes_sent = ?, bytes_total = ?, updated_at = ? WHERE id = ?`).run(sent, total, this.now(), id));
    this.changed(id);
  }

  done(id: number): QueueItem {
    const at = this.now();
    this.sql(`UPDATE queue_items SET state = 'done', attention = NULL, reason = NULL, finished_at = ?, updated_at = ? WHERE id = ?`).run(at, at, id);
    return this.changed(id);
  }

  /** Back to waiting, not before `at` (backoff, Retry-After, or an interrupted item reconciled). */
  retryAt(id: number, at: number, reason: string | null): QueueItem {
    this.sql(`UPDATE queue_items SET state = 'waiting', next_attempt_at = ?, reason = ?, attention = NULL, started_at = NULL, updated_at = ? WHERE id = ?`)
      .run(at, reason, this.now(), id);
    return this.changed(id);
  }

  failed(id: number, reason: string): QueueItem {
    const at = this.now();
    this.sql(`UPDATE queue_items SET state = 'failed', reason = ?, finished_at = ?, updated_at = ? WHERE id = ?`).run(reason, at, at, id);
    return this.changed(id);
  }

  needsAttention(id: number, kind: AttentionKind, reason: string): QueueItem {
    this.sql(`UPDATE queue_items SET state = 'attention', attention = ?, reason = ?, started_at = NULL, updated_at = ? WHERE id = ?`)
      .run(kind, reason, this.now(), id);
    return this.changed(id);
  }

  /** A person's answer to an attention item (confirm a delete, a new design…): it goes back in line, payload merged. */
  confirm(id: number, payload: Partial<CreateDesignPayload> = {}): QueueItem {
    const item = this.get(id);
    if (!item) throw new Error(`No queue item ${id}`);
    if (item.state !== 'attention') throw new Error(`Queue item ${id} is ${item.state}, not waiting for a confirmation`);
    this.sql(`UPDATE queue_items SET state = 'waiting', attention = NULL, reason = NULL, next_attempt_at = 0, payload = ?, updated_at = ? WHERE id = ?`)
      .run(JSON.stringify({ ...item.payload, ...payload, confirmed: true }), this.now(), id);
    return this.changed(id);
  }

  /** Tries a failed or waiting item again now, with a fresh count of attempts. */
  retry(id: number): QueueItem {
    this.sql(`UPDATE queue_items SET state = 'waiting', next_attempt_at = 0, reason = NULL, attempts = 0, finished_at = NULL, updated_at = ? WHERE id = ? AND state IN ('failed', 'waiting')`)
      .run(this.now(), id);
    return this.changed(id);
  }

  /**
   * Takes an item out of the queue; local files are never touched. A running item is cancelled too: the
   * runner sees it and stops sending (if the service had already taken it, it is recorded as done). A person's cancel
   * of a file's change that failed or was refused dismisses that version (`dismiss: false` for the engine's own).
   */
  cancel(id: number, options: { dismiss?: boolean } = {}): QueueItem {
    const at = this.now();
    this.sql(`UPDATE queue_items SET state = 'cancelled', payload = ${DISMISS_ON_CANCEL}, finished_at = @at, updated_at = @at
              WHERE id = @id AND state IN ('waiting', 'running', 'failed', 'attention')`).run({ at, id, dismiss: options.dismiss === false ? 0 : 1 });
    return this.changed(id);
  }

  /** Of these paths, those whose last change a person dismissed, with its file version (see dismissed-versions.ts). */
  dismissedVersions(paths: readonly string[]): Map<string, DismissedVersion> {
    return dismissedVersions(this.sql, paths);
  }

  /** Every failed item, and every waiting one held back by a backoff, tried again now. Returns how many. */
  retryAll(): number {
    const ids = (this.sql(`SELECT id FROM queue_items WHERE state IN ('failed', 'waiting') ORDER BY id`).all() as { id: number }[]).map((r) => r.id);
    for (const id of ids) this.retry(id);
    return ids.length;
  }

  /** Cancels every item not done yet (waiting, running, failed, needing attention). Returns how many. */
  cancelAll(): number {
    const ids = (this.sql(`SELECT id FROM queue_items WHERE state IN ('waiting', 'running', 'failed', 'attention') ORDER BY id`).all() as { id: number }[]).map((r) => r.id);
    for (const id of ids) this.cancel(id);
    return ids.length;
  }

  /**
   * Records what an attempt is about to send, durably, before the request goes out (see SentAttempt).
   * Only for an item still running (a person may have cancelled it a moment ago): returns whether it was stored.
   * `untilLastBytes`: a streamed file's attempt, stored in a light commit; confirmSending makes it durable before the
   * body's last bytes go, and the service can make nothing of a body it did not have whole.
   */
  markSending(id: number, sent: SentAttempt, options: { untilLastBytes?: boolean } = {}): boolean {
    const write = () => this.sql(
      `UPDATE queue_items SET sent_at = @at, sent_name = @name, sent_sha1 = @sha1, sent_size = @size, sent_mtime_ms = @mtimeMs,
         sent_inode = @inode, updated_at = @now WHERE id = @id AND state = 'running'`,
    ).run({ ...sent, now: this.now(), id });
    const { changes } = options.untilLastBytes ? commitLightly(this.db, write) : write();
    return changes > 0;
  }

  /**
   * A streamed file was read whole: its SHA-1 (of the bytes sent) joins the attempt, made durable before the body's
   * last bytes go (resolves once it is: flushed off the engine's thread, commitThenFlush). An attempt without a hash
   * was therefore never had whole by the service. False when the item is no longer running or has no attempt
   * (cancelled a moment ago): then the body must not be finished.
   */
  async confirmSending(id: number, sha1: string): Promise<boolean> {
    const { changes } = await commitThenFlush(this.db, () => this.sql(
      `UPDATE queue_items SET sent_sha1 = ?, updated_at = ? WHERE id = ? AND state = 'running' AND sent_at IS NOT NULL`,
    ).run(sha1, this.now(), id));
    return changes > 0;
  }

  /** The service's answer is known (or what was sent was found not to be there): nothing is in doubt any more. */
  clearSent(id: number): void {
    this.sql(`UPDATE queue_items SET ${CLEAR_SENT} WHERE id = ?`).run(id);
  }

  /** Changes what an item is about (e.g. an upload found already done becomes a replace of that record). */
  retarget(id: number, changes: { kind?: QueueKind; remoteId?: number | null; designId?: number | null; file?: { size: number; mtimeMs: number; sha1?: string | null } }): QueueItem {
    const item = this.get(id);
    if (!item) throw new Error(`No queue item ${id}`);
    this.sql(
      `UPDATE queue_items SET kind = ?, remote_id = ?, design_id = ?, file_size = ?, file_mtime_ms = ?, file_sha1 = ?, updated_at = ? WHERE id = ?`,
    ).run(
      changes.kind ?? item.kind, changes.remoteId !== undefined ? changes.remoteId : item.remoteId,
      changes.designId !== undefined ? changes.designId : item.designId,
      changes.file ? changes.file.size : item.fileSize, changes.file ? changes.file.mtimeMs : item.fileMtimeMs,
      changes.file ? (changes.file.sha1 ?? null) : item.fileSha1, this.now(), id,
    );
    return this.changed(id);
  }

  /** Merges into an item's payload (e.g. the id of a design already created, so it is never created twice). */
  mergePayload(id: number, payload: Record<string, unknown>): void {
    const item = this.get(id);
    if (!item) throw new Error(`No queue item ${id}`);
    this.sql('UPDATE queue_items SET payload = ?, updated_at = ? WHERE id = ?').run(JSON.stringify({ ...item.payload, ...payload }), this.now(), id);
  }

  /**
   * Ends an attempt of a running item: back to waiting, failed, needing attention or cancelled. Nothing happens
   * when the item is no longer running (a person cancelled it meanwhile); returns null then.
   * When the item goes back to waiting (or attention) while a newer change of the same file already waits, the
   * newer one takes its place: this one is cancelled and hands over what it sent, if that is still in doubt.
   */
  settle(id: number, to: Settlement): QueueItem | null {
    const touched = this.db.transaction(() => settleItem(this.sql, this.get(id), to, this.now()))();
    for (const other of touched.slice(1)) this.changed(other);
    return touched.length > 0 ? this.changed(id) : null;
  }

  /**
   * Marks an item done, running `record` (the last synced state: BaseFiles, DesignFolders) in the same
   * transaction, so the two never disagree after a crash; `line`, the activity line saying so, in it too (one
   * durable commit). A newer upload of the same path that waits becomes a replace of the record just made (it would
   * otherwise add the file a second time).
   */
  complete(id: number, record: () => void = () => {}, line?: { message: string; path: string | null }): QueueItem {
    const write = this.db.transaction(() => ({
      followers: completeItem(this.sql, id, record, this.now()),
      logged: line ? this.insertActivity('info', line.message, line.path) : null,
    }));
    // Light while another item runs: that item's next durable commit (the hash before its body's last bytes, or its
    // own ending) flushes this one, as every commit after it; the last item to end commits durably.
    const { followers, logged } = this.anotherRunning(id) ? commitLightly(this.db, write) : write();
    for (const other of followers) this.changed(other);
    const item = this.changed(id);
    if (logged && this.listenerCount('activity') > 0) this.emit('activity', logged);
    return item;
  }

  /**
   * Items a process left running when it stopped (crash, kill): back to waiting, keeping what they sent, so that
   * they are reconciled with the service before being sent again. Call once, before a runner starts claiming.
   */
  recoverInterrupted(): QueueItem[] {
    const items = this.interrupted();
    for (const item of items) {
      this.settle(item.id, { state: 'waiting', at: 0, reason: null, countAttempt: false, sent: 'keep' });
    }
    return items;
  }

  /** The newest activity lines, newest first. */
  recentActivity(limit = 20): ActivityEntry[] {
    return this.sql('SELECT id, at, level, message, path FROM activity ORDER BY id DESC LIMIT ?').all(limit) as ActivityEntry[];
  }

  setPaused(id: number, paused: boolean): QueueItem {
    this.sql(`UPDATE queue_items SET paused = ?, updated_at = ? WHERE id = ?`).run(paused ? 1 : 0, this.now(), id);
    return this.changed(id);
  }

  /**
   * Pauses or resumes all uploads. A pause `until` a time (epoch ms) ends by itself then, in this process or whichever
   * reads the status after it (a restart keeps it: it is stored with the pause).
   */
  setQueuePaused(paused: boolean, until: number | null = null): void {
    if (paused && until !== null && !(Number.isSafeInteger(until) && until > this.now())) throw new RangeError(`A pause must end later than now, got ${until}.`);
    this.sql(`UPDATE sync_status SET queue_paused = ?, queue_paused_until = ?, updated_at = ? WHERE id = 1`).run(paused ? 1 : 0, paused ? until : null, this.now());
    this.emit('change', { type: 'status', status: this.status() });
  }

  /**
   * Keeps one timer for the end of a timed pause. It wakes at most a minute apart, so that a computer that slept
   * past the end (its timers stand still meanwhile) resumes within a minute of waking.
   */
  private followPauseEnd(until: number | null): void {
    if (this.pauseEnd?.until === until) return;
    this.timers.clearTimer(this.pauseEnd?.timer);
    this.pauseEnd = null;
    if (until === null) return;
    const timer = this.timers.setTimer(() => {
      if (this.pauseEnd?.timer !== timer) return;
      this.pauseEnd = null;
      if (!this.db.open) return;
      if (this.now() < until) {
        this.followPauseEnd(until);
        return;
      }
      try {
        this.sql(`UPDATE sync_status SET queue_paused = 0, queue_paused_until = NULL, updated_at = ? WHERE id = 1 AND queue_paused = 1 AND queue_paused_until = ?`).run(this.now(), until);
        this.emit('change', { type: 'status', status: this.status() });
      } catch (error) {
        engineLog.warn('queue', 'the end of a timed pause could not be written (the status says it ended all the same)', error);
      }
    }, Math.max(0, Math.min(until - this.now(), PAUSE_END_CHECK_MS)));
    this.pauseEnd = { until, timer };
  }

  /**
   * The one run state kept in sync_status: 'stopped' (with why) while the sync folder is not there as it was, so that
   * nothing leaves the queue (in this process or another) until the folder side finds it back; 'idle' otherwise.
   * Whatever runs now (scanning, sending, waiting for the service) is never stored: the engine's sync status
   * (runtime/sync-status.ts) knows it, and a process killed mid-way leaves nothing behind that would lie.
   */
  setRunState(state: 'idle' | 'stopped', reason: string | null = null): void {
    this.sql(`UPDATE sync_status SET state = ?, reason = ?, updated_at = ? WHERE id = 1`).run(state, reason, this.now());
    this.emit('change', { type: 'status', status: this.status() });
  }

  status(): SyncStatusView {
    const row = this.sql('SELECT * FROM sync_status WHERE id = 1').get() as { state: SyncRunState; reason: string | null; queue_paused: number; queue_paused_until: number | null; last_scan_at: number | null };
    // A timed pause whose end has come is over, whether or not its end was written yet.
    const pausedUntil = row.queue_paused === 1 ? row.queue_paused_until : null;
    const queuePaused = row.queue_paused === 1 && (pausedUntil === null || pausedUntil > this.now());
    // One whose end is not written yet (its timer slept, or another process paused) has it written at once.
    this.followPauseEnd(pausedUntil);
    // States an older version stored (scanning, syncing, waiting…) said what a process did then, not now.
    const stopped = row.state === 'stopped';
    const root = this.syncFolder.current();
    const counts = Object.fromEntries(QUEUE_STATES.map((state) => [state, 0])) as Record<QueueState, number>;
    for (const { state, n } of this.sql('SELECT state, count(*) AS n FROM queue_items GROUP BY state').all() as { state: QueueState; n: number }[]) counts[state] = n;
    return { state: stopped ? 'stopped' : 'idle', reason: stopped ? row.reason : null, root: root?.path ?? null, queuePaused, queuePausedUntil: queuePaused ? pausedUntil : null, lastScanAt: row.last_scan_at, counts };
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

  /** The folder was compared with the last synced state at `at`. */
  markScanned(at: number): void {
    this.sql('UPDATE sync_status SET last_scan_at = ? WHERE id = 1').run(at);
  }

  log(level: 'info' | 'warning' | 'error', message: string, path: string | null = null): void {
    const entry = this.insertActivity(level, message, path);
    if (this.listenerCount('activity') > 0) this.emit('activity', entry);
  }

  private insertActivity(level: ActivityEntry['level'], message: string, path: string | null): ActivityEntry {
    const at = this.now();
    const { lastInsertRowid } = this.sql('INSERT INTO activity (at, level, message, path) VALUES (?, ?, ?, ?)').run(at, level, message, path);
    return { id: Number(lastInsertRowid), at, level, message, path };
  }

  private changed(id: number): QueueItem {
    const item = this.get(id)!;
    this.emit('change', { type: 'item', item });
    return item;
  }
}

/**
 * The fields of the edit waiting, for a later edit to be merged into; none when its payload cannot be read (the later
 * edit's fields then stand alone: they are what the person last asked for), said in the engine log.
 */
function earlierFields(payload: string): DesignEditFields {
  try {
    const parsed = DESIGN_EDIT_FIELDS.safeParse((JSON.parse(payload) as { fields?: unknown }).fields);
    if (parsed.success) return parsed.data;
    engineLog.warn('queue', `a waiting design edit's fields cannot be read (${parsed.error.issues[0]?.message ?? 'not fields'}); the newer edit replaces them`);
    return {};
  } catch (error) {
    engineLog.warn('queue', 'a waiting design edit is not readable JSON; the newer edit replaces it', error);
    return {};
  }
}
