import type { AttentionKind, QueueKind, QueueState } from '../../../shared';
import { QUEUE_STATES } from '../../../shared';
import { engineLog } from '../log/engine-log';
import { commitLightly, commitThenFlush } from '../sync-state/light-commit';
import { statementsOf, type SyncDatabase } from '../sync-state/sync-database';
import { DISMISS_ON_CANCEL, dismissedVersions, type DismissedVersion } from './dismissed-versions';
import { DESIGN_EDIT_FIELDS, type CreateDesignPayload, type DesignEditFields, type DesignEditPayload } from './job-payloads';
import { CLEAR_SENT, reasonText, saidOf, toItem, type NewQueueItem, type QueueItem, type QueueRow, type Reason, type SentAttempt, type Settlement } from './queue-item';
import { said, wordsColumn } from './said';

type Sql = ReturnType<typeof statementsOf>;

/** What an item becomes about (e.g. an upload found already done becomes a replace of that record). */
export interface Retarget {
  kind?: QueueKind;
  remoteId?: number | null;
  designId?: number | null;
  file?: { size: number; mtimeMs: number; sha1?: string | null };
}

/** The values an item is added with: the columns it sets, and when. */
type NewQueueRowValues = Pick<QueueRow,
  'kind' | 'state' | 'attention' | 'reason' | 'reason_words' | 'folder' | 'path' | 'design_id' | 'file_kind' | 'remote_id' | 'payload'
  | 'file_size' | 'file_mtime_ms' | 'file_sha1'> & { at: number };

/**
 * The queue's items (the `queue_items` table of the sync database), its one writer: every change is a row (written
 * with synchronous=FULL) before anything is sent. A few writes of an upload are light commits (commitLightly): its
 * claim, progress and attempt row, made durable by the commit of the read file's hash before the body's last bytes
 * leave (markSending, confirmSending), and its ending while another item runs, made durable by that item's next
 * durable commit (complete; docs/sync.md "Commits of an upload").
 * Each write tells `changed` of every item it changed, once it is committed (QueueStore emits them as 'change').
 */
export class QueueItems {
  /** Prepared once per database and reused: a scan queues thousands of items, and preparing cost more than running. */
  private readonly sql: Sql;

  constructor(
    private readonly db: SyncDatabase,
    private readonly now: () => number = Date.now,
    private readonly changed: (item: QueueItem) => void = () => {},
  ) {
    this.sql = statementsOf(db);
  }

  // Reading

  get(id: number): QueueItem | null {
    const row = this.sql('SELECT * FROM queue_items WHERE id = ?').get(id) as QueueRow | undefined;
    return row ? toItem(row) : null;
  }

  list(options: { states?: readonly QueueState[]; limit?: number } = {}): QueueItem[] {
    const states = options.states ?? QUEUE_STATES;
    return (this.sql(`SELECT * FROM queue_items WHERE state IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT ?`)
      .all(JSON.stringify(states), options.limit ?? -1) as QueueRow[]).map(toItem);
  }

  /** How many items are in each state. */
  counts(): Record<QueueState, number> {
    const counts = Object.fromEntries(QUEUE_STATES.map((state) => [state, 0])) as Record<QueueState, number>;
    for (const { state, n } of this.sql('SELECT state, count(*) AS n FROM queue_items GROUP BY state').all() as { state: QueueState; n: number }[]) counts[state] = n;
    return counts;
  }

  /** The items of a file not yet done: running first, then the one waiting. */
  openForPath(path: string): QueueItem[] {
    return (this.sql(`SELECT * FROM queue_items WHERE path = ? AND state IN ('running', 'waiting', 'attention') ORDER BY id`).all(path) as QueueRow[]).map(toItem);
  }

  /** The newest item of a path, whatever its state (to tell a proposal the person already turned down). */
  latestForPath(path: string): QueueItem | null {
    const row = this.sql('SELECT * FROM queue_items WHERE path = ? ORDER BY id DESC LIMIT 1').get(path) as QueueRow | undefined;
    return row ? toItem(row) : null;
  }

  /** Waiting or attention items of the given top-level folders (to withdraw those whose file is gone). */
  pendingInFolders(folders: readonly string[]): QueueItem[] {
    return (this.sql(`SELECT * FROM queue_items WHERE state IN ('waiting', 'attention') AND folder IN (SELECT value FROM json_each(?)) ORDER BY id`)
      .all(JSON.stringify(folders)) as QueueRow[]).map(toItem);
  }

  /** The design edits not sent yet (waiting, running, or held for attention), oldest first. */
  pendingDesignEdits(designId?: number): QueueItem[] {
    const rows = designId === undefined
      ? this.sql(`SELECT * FROM queue_items WHERE kind = 'update-design' AND state IN ('waiting', 'running', 'attention') ORDER BY id`).all()
      : this.sql(`SELECT * FROM queue_items WHERE kind = 'update-design' AND design_id = ? AND state IN ('waiting', 'running', 'attention') ORDER BY id`).all(designId);
    return (rows as QueueRow[]).map(toItem);
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

  /** Of these paths, those whose last change a person dismissed, with its file version (see dismissed-versions.ts). */
  dismissedVersions(paths: readonly string[]): Map<string, DismissedVersion> {
    return dismissedVersions(this.sql, paths);
  }

  /** Items left running by a process that stopped mid-way: each must be reconciled with the service before it is sent again. */
  interrupted(): QueueItem[] {
    return (this.sql(`SELECT * FROM queue_items WHERE state = 'running' ORDER BY id`).all() as QueueRow[]).map(toItem);
  }

  /** When the next waiting item is due, or null when none waits. */
  nextDueAt(): number | null {
    return (this.sql(`SELECT min(next_attempt_at) AS at FROM queue_items WHERE state = 'waiting' AND paused = 0`).get() as { at: number | null }).at;
  }

  /** How many items wait for their turn (not paused): what a runner still has to do. */
  countWaiting(): number {
    return (this.sql(`SELECT count(*) AS n FROM queue_items WHERE state = 'waiting' AND paused = 0`).get() as { n: number }).n;
  }

  /** Whether an item other than `id` is being sent. */
  anotherRunning(id: number): boolean {
    return this.sql(`SELECT 1 FROM queue_items WHERE state = 'running' AND id != ? LIMIT 1`).get(id) !== undefined;
  }

  // Adding

  /**
   * Adds an item, or, when the same file already has one not yet started, updates that one to this newer
   * change (its file version, kind and payload), so a file saved five times is uploaded once.
   */
  enqueue(item: NewQueueItem): QueueItem {
    const at = this.now();
    const state: QueueState = item.attention ? 'attention' : 'waiting';
    const values: NewQueueRowValues = {
      kind: item.kind, state, attention: item.attention?.kind ?? null, reason: item.attention ? reasonText(item.attention.reason) : null,
      reason_words: item.attention ? wordsColumn(saidOf(item.attention.reason)) : null,
      folder: item.folder ?? null, path: item.path ?? null, design_id: item.designId ?? null, file_kind: item.fileKind ?? null,
      remote_id: item.remoteId ?? null, payload: JSON.stringify(item.payload ?? {}),
      file_size: item.file?.size ?? null, file_mtime_ms: item.file?.mtimeMs ?? null, file_sha1: item.file?.sha1 ?? null, at,
    };
    // In the caller's transaction (a scan's), or in one begun IMMEDIATE: no other process adds the same file's item
    // between the read and the write.
    const add = () => this.addOrMerge(values);
    const queued = this.db.inTransaction ? add() : this.db.transaction(add).immediate();
    this.changed(queued);
    return queued;
  }

  /**
   * Adds an item, or updates the one of the same file not yet started (the partial unique index
   * queue_items_pending_path) to this newer change: one read, then one write. A new item is made from the values
   * written rather than read back: a scan queues thousands of items, and reading each row back (RETURNING *) cost more
   * than writing it.
   */
  private addOrMerge(values: NewQueueRowValues): QueueItem {
    const pending = values.path === null ? undefined : this.sql(
      `SELECT id FROM queue_items WHERE path = ? AND state IN ('waiting', 'attention')`,
    ).get(values.path) as { id: number } | undefined;
    if (!pending) {
      const { lastInsertRowid } = this.sql(
        `INSERT INTO queue_items (kind, state, attention, reason, reason_words, folder, path, design_id, file_kind, remote_id, payload,
           file_size, file_mtime_ms, file_sha1, created_at, updated_at)
         VALUES (@kind, @state, @attention, @reason, @reason_words, @folder, @path, @design_id, @file_kind, @remote_id, @payload,
           @file_size, @file_mtime_ms, @file_sha1, @at, @at)`,
      ).run(values);
      return toItem(newQueueRow(Number(lastInsertRowid), values));
    }
    this.sql(
      `UPDATE queue_items SET kind = @kind, state = @state, attention = @attention, reason = @reason, reason_words = @reason_words, folder = @folder,
         design_id = @design_id, file_kind = @file_kind, remote_id = @remote_id, payload = @payload, file_size = @file_size,
         file_mtime_ms = @file_mtime_ms, file_sha1 = @file_sha1, bytes_sent = 0, bytes_total = NULL, updated_at = @at
       WHERE id = @id`,
    ).run({ ...values, id: pending.id });
    return this.get(pending.id)!;
  }

  /**
   * An edit of a design's fields to send (made while the service was away). A later edit of the same design while one
   * waits is merged into it (its fields win), so the service gets the newest values once and never an older edit
   * after a newer one; an earlier edit that failed is cancelled (the newer one supersedes it). Returns the item.
   */
  enqueueDesignEdit(designId: number, fields: DesignEditFields, designName: string): QueueItem {
    const at = this.now();
    const reason = said('queue.reason.editSavedHere');
    const { id, superseded } = this.db.transaction(() => {
      const superseded = this.supersedeFailedEdits(designId, at);
      const open = this.sql(`SELECT id, payload FROM queue_items WHERE kind = 'update-design' AND design_id = ? AND state IN ('waiting', 'attention')`).get(designId) as { id: number; payload: string } | undefined;
      if (open) {
        const payload: DesignEditPayload = { fields: { ...earlierFields(open.payload), ...fields }, designName };
        this.sql(`UPDATE queue_items SET state = 'waiting', attention = NULL, reason = ?, reason_words = ?, payload = ?, attempts = 0, next_attempt_at = 0, updated_at = ? WHERE id = ?`)
          .run(reason.text, wordsColumn(reason), JSON.stringify(payload), at, open.id);
        return { id: open.id, superseded };
      }
      const id = Number(this.sql(
        `INSERT INTO queue_items (kind, state, reason, reason_words, design_id, payload, created_at, updated_at) VALUES ('update-design', 'waiting', ?, ?, ?, ?, ?, ?)`,
      ).run(reason.text, wordsColumn(reason), designId, JSON.stringify({ fields, designName }), at, at).lastInsertRowid);
      return { id, superseded };
    })();
    for (const other of superseded) this.tell(other);
    return this.tell(id);
  }

  /**
   * A later edit of the design was saved (here or on the service): its failed edits are cancelled, so that retrying
   * one can never bring older values back. Returns how many.
   */
  supersedeFailedDesignEdits(designId: number): number {
    const ids = this.db.transaction(() => this.supersedeFailedEdits(designId, this.now()))();
    for (const id of ids) this.tell(id);
    return ids.length;
  }

  private supersedeFailedEdits(designId: number, at: number): number[] {
    const failed = (this.sql(`SELECT id FROM queue_items WHERE kind = 'update-design' AND design_id = ? AND state = 'failed'`).all(designId) as { id: number }[]).map((row) => row.id);
    const reason = said('queue.reason.replacedByLaterEdit');
    for (const id of failed) {
      this.sql(`UPDATE queue_items SET state = 'cancelled', reason = ?, reason_words = ?, finished_at = ?, updated_at = ? WHERE id = ?`).run(reason.text, wordsColumn(reason), at, at, id);
    }
    return failed;
  }

  // A run of the queue

  /** The next item whose turn it is, marked running with the time it starts sending (for crash reconciliation). */
  claimNext(heldBack: () => boolean): QueueItem | null {
    const at = this.now();
    // Light: a claim lost in a power cut leaves the item waiting, run again from the start; before anything it sends
    // can reach the service a durable commit (of its attempt) flushes it.
    const id = commitLightly(this.db, this.db.transaction(() => {
      if (heldBack()) return null;
      const row = this.sql(`SELECT id FROM queue_items WHERE state = 'waiting' AND paused = 0 AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT 1`)
        .get(at) as { id: number } | undefined;
      if (!row) return null;
      this.sql(`UPDATE queue_items SET state = 'running', attempts = attempts + 1, started_at = ?, updated_at = ? WHERE id = ?`).run(at, at, row.id);
      return row.id;
    }));
    return id === null ? null : this.tell(id);
  }

  /** Bytes sent so far: a light commit (a figure lost in a power cut is of no consequence). */
  progress(id: number, sent: number, total: number): void {
    commitLightly(this.db, () => this.sql(`UPDATE queue_items SET bytes_sent = ?, bytes_total = ?, updated_at = ? WHERE id = ?`).run(sent, total, this.now(), id));
    this.tell(id);
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
  retarget(id: number, changes: Retarget): QueueItem {
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
    return this.tell(id);
  }

  /** Merges into an item's payload (e.g. the id of a design already created, so it is never created twice). */
  mergePayload(id: number, payload: Record<string, unknown>): void {
    const item = this.get(id);
    if (!item) throw new Error(`No queue item ${id}`);
    this.sql('UPDATE queue_items SET payload = ?, updated_at = ? WHERE id = ?').run(JSON.stringify({ ...item.payload, ...payload }), this.now(), id);
  }

  done(id: number): QueueItem {
    const at = this.now();
    this.sql(`UPDATE queue_items SET state = 'done', attention = NULL, reason = NULL, reason_words = NULL, finished_at = ?, updated_at = ? WHERE id = ?`).run(at, at, id);
    return this.tell(id);
  }

  /** Back to waiting, not before `at` (backoff, Retry-After, or an interrupted item reconciled). */
  retryAt(id: number, at: number, reason: Reason | null): QueueItem {
    this.sql(`UPDATE queue_items SET state = 'waiting', next_attempt_at = ?, reason = ?, reason_words = ?, attention = NULL, started_at = NULL, updated_at = ? WHERE id = ?`)
      .run(at, reason === null ? null : reasonText(reason), reason === null ? null : wordsColumn(saidOf(reason)), this.now(), id);
    return this.tell(id);
  }

  failed(id: number, reason: Reason): QueueItem {
    const at = this.now();
    this.sql(`UPDATE queue_items SET state = 'failed', reason = ?, reason_words = ?, finished_at = ?, updated_at = ? WHERE id = ?`).run(reasonText(reason), wordsColumn(saidOf(reason)), at, at, id);
    return this.tell(id);
  }

  needsAttention(id: number, kind: AttentionKind, reason: Reason): QueueItem {
    this.sql(`UPDATE queue_items SET state = 'attention', attention = ?, reason = ?, reason_words = ?, started_at = NULL, updated_at = ? WHERE id = ?`)
      .run(kind, reasonText(reason), wordsColumn(saidOf(reason)), this.now(), id);
    return this.tell(id);
  }

  /**
   * Ends an attempt of a running item: back to waiting, failed, needing attention or cancelled. Nothing happens
   * when the item is no longer running (a person cancelled it meanwhile); returns null then.
   * When the item goes back to waiting (or attention) while a newer change of the same file already waits, the
   * newer one takes its place: this one is cancelled and hands over what it sent, if that is still in doubt.
   */
  settle(id: number, to: Settlement): QueueItem | null {
    const touched = this.db.transaction(() => this.settleRows(this.get(id), to, this.now()))();
    for (const other of touched.slice(1)) this.tell(other);
    return touched.length > 0 ? this.tell(id) : null;
  }

  /** settle's writes, in its transaction; the ids changed, the item's first (none when it was no longer running). */
  private settleRows(item: QueueItem | null, to: Settlement, at: number): number[] {
    if (!item || item.state !== 'running') return [];
    const { id } = item;
    if ((to.state === 'waiting' || to.state === 'attention') && item.path !== null) {
      const newer = this.sql(`SELECT id, sent_at FROM queue_items WHERE path = ? AND id != ? AND state IN ('waiting', 'attention')`).get(item.path, id) as { id: number; sent_at: number | null } | undefined;
      if (newer) {
        const keep = to.state === 'waiting' && to.sent === 'keep' && item.sent !== null && newer.sent_at === null;
        if (keep) {
          this.sql(
            `UPDATE queue_items SET sent_at = @at, sent_name = @name, sent_sha1 = @sha1, sent_size = @size, sent_mtime_ms = @mtimeMs, sent_inode = @inode WHERE id = @id`,
          ).run({ ...item.sent!, id: newer.id });
        }
        const replaced = said('queue.reason.replacedByNewerChange');
        this.sql(`UPDATE queue_items SET state = 'cancelled', reason = ?, reason_words = ?, ${CLEAR_SENT}, finished_at = ?, updated_at = ? WHERE id = ?`)
          .run(replaced.text, wordsColumn(replaced), at, at, id);
        return [id, newer.id];
      }
    }
    const reason = to.reason === null ? null : saidOf(to.reason);
    const text = reason?.text ?? null;
    const words = wordsColumn(reason);
    switch (to.state) {
      case 'waiting':
        this.sql(
          `UPDATE queue_items SET state = 'waiting', next_attempt_at = ?, reason = ?, reason_words = ?, attention = NULL, started_at = NULL,
             attempts = attempts - ?, updated_at = ?${to.sent === 'clear' ? `, ${CLEAR_SENT}` : ''} WHERE id = ?`,
        ).run(to.at, text, words, to.countAttempt ? 0 : 1, at, id);
        break;
      case 'failed':
        this.sql(`UPDATE queue_items SET state = 'failed', reason = ?, reason_words = ?, started_at = NULL, ${CLEAR_SENT}, finished_at = ?, updated_at = ? WHERE id = ?`).run(text, words, at, at, id);
        break;
      case 'attention':
        this.sql(`UPDATE queue_items SET state = 'attention', attention = ?, reason = ?, reason_words = ?, started_at = NULL, ${CLEAR_SENT}, updated_at = ? WHERE id = ?`)
          .run(to.attention, text, words, at, id);
        break;
      case 'cancelled':
        this.sql(`UPDATE queue_items SET state = 'cancelled', reason = ?, reason_words = ?, started_at = NULL, ${CLEAR_SENT}, finished_at = ?, updated_at = ? WHERE id = ?`).run(text, words, at, at, id);
        break;
    }
    return [id];
  }

  /**
   * Marks an item done, running `record` (the last synced state: BaseFiles, DesignFolders; the activity line saying
   * so) first, in the same transaction, so the two never disagree after a crash. A newer upload of the same path that
   * waits becomes a replace of the record just made (it would otherwise add the file a second time).
   */
  complete(id: number, record: () => void = () => {}): QueueItem {
    const write = this.db.transaction(() => this.completeRows(id, record, this.now()));
    // Light while another item runs: that item's next durable commit (the hash before its body's last bytes, or its
    // own ending) flushes this one, as every commit after it; the last item to end commits durably.
    const followers = this.anotherRunning(id) ? commitLightly(this.db, write) : write();
    for (const other of followers) this.tell(other);
    return this.tell(id);
  }

  /** complete's writes, in its transaction; the uploads that became replaces. */
  private completeRows(id: number, record: () => void, at: number): number[] {
    record();
    this.sql(`UPDATE queue_items SET state = 'done', attention = NULL, reason = NULL, reason_words = NULL, ${CLEAR_SENT}, finished_at = ?, updated_at = ? WHERE id = ?`).run(at, at, id);
    const item = this.sql('SELECT path FROM queue_items WHERE id = ?').get(id) as { path: string | null } | undefined;
    if (!item?.path) return [];
    const base = this.sql('SELECT remote_id, design_id FROM base_files WHERE path = ?').get(item.path) as { remote_id: number; design_id: number } | undefined;
    if (!base) return [];
    const uploads = this.sql(`SELECT id FROM queue_items WHERE path = ? AND id != ? AND kind = 'upload' AND state IN ('waiting', 'attention')`).all(item.path, id) as { id: number }[];
    for (const upload of uploads) {
      this.sql(`UPDATE queue_items SET kind = 'replace', remote_id = ?, design_id = ?, updated_at = ? WHERE id = ?`).run(base.remote_id, base.design_id, at, upload.id);
    }
    return uploads.map((u) => u.id);
  }

  // What a person (or the folder side) decides

  /** An answer to an attention item (confirm a delete, a new design…): it goes back in line, payload merged. */
  confirm(id: number, payload: Partial<CreateDesignPayload> = {}): QueueItem {
    const item = this.get(id);
    if (!item) throw new Error(`No queue item ${id}`);
    if (item.state !== 'attention') throw new Error(`Queue item ${id} is ${item.state}, not waiting for a confirmation`);
    this.sql(`UPDATE queue_items SET state = 'waiting', attention = NULL, reason = NULL, reason_words = NULL, next_attempt_at = 0, payload = ?, updated_at = ? WHERE id = ?`)
      .run(JSON.stringify({ ...item.payload, ...payload, confirmed: true }), this.now(), id);
    return this.tell(id);
  }

  /** Tries a failed or waiting item again now, with a fresh count of attempts. */
  retry(id: number): QueueItem {
    this.sql(`UPDATE queue_items SET state = 'waiting', next_attempt_at = 0, reason = NULL, reason_words = NULL, attempts = 0, finished_at = NULL, updated_at = ? WHERE id = ? AND state IN ('failed', 'waiting')`)
      .run(this.now(), id);
    return this.tell(id);
  }

  /** Every failed item, and every waiting one held back by a backoff, tried again now. Returns how many. */
  retryAll(): number {
    const ids = (this.sql(`SELECT id FROM queue_items WHERE state IN ('failed', 'waiting') ORDER BY id`).all() as { id: number }[]).map((r) => r.id);
    for (const id of ids) this.retry(id);
    return ids.length;
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
    return this.tell(id);
  }

  /** Cancels every item not done yet (waiting, running, failed, needing attention). Returns how many. */
  cancelAll(): number {
    const ids = (this.sql(`SELECT id FROM queue_items WHERE state IN ('waiting', 'running', 'failed', 'attention') ORDER BY id`).all() as { id: number }[]).map((r) => r.id);
    for (const id of ids) this.cancel(id);
    return ids.length;
  }

  setPaused(id: number, paused: boolean): QueueItem {
    this.sql(`UPDATE queue_items SET paused = ?, updated_at = ? WHERE id = ?`).run(paused ? 1 : 0, this.now(), id);
    return this.tell(id);
  }

  /** Reads an item again after a write and tells of it. */
  private tell(id: number): QueueItem {
    const item = this.get(id)!;
    this.changed(item);
    return item;
  }
}

/** The row an item added with these values is, the table's defaults for the rest (a test holds the two to the same). */
function newQueueRow(id: number, values: NewQueueRowValues): QueueRow {
  return {
    id, kind: values.kind, state: values.state, paused: 0, attention: values.attention, reason: values.reason, reason_words: values.reason_words,
    folder: values.folder, path: values.path, design_id: values.design_id, file_kind: values.file_kind, remote_id: values.remote_id,
    payload: values.payload, bytes_sent: 0, bytes_total: null, attempts: 0, next_attempt_at: 0, started_at: null,
    file_size: values.file_size, file_mtime_ms: values.file_mtime_ms, file_sha1: values.file_sha1,
    created_at: values.at, updated_at: values.at, finished_at: null,
    sent_at: null, sent_name: null, sent_sha1: null, sent_size: null, sent_mtime_ms: null, sent_inode: null,
  };
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
