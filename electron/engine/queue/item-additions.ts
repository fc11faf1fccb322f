import type { Statement } from 'better-sqlite3';
import { toItem, type QueueItem, type QueueRow } from './queue-item';

/** How the queue store adds an item (run inside a transaction: the caller's, or one the store begins). */

type Sql = (text: string) => Statement;

/** The values an item is added with: the columns it sets, and when. */
export type NewQueueRowValues = Pick<QueueRow,
  'kind' | 'state' | 'attention' | 'reason' | 'folder' | 'path' | 'design_id' | 'file_kind' | 'remote_id' | 'payload'
  | 'file_size' | 'file_mtime_ms' | 'file_sha1'> & { at: number };

/**
 * Adds an item, or updates the one of the same file not yet started (the partial unique index
 * queue_items_pending_path) to this newer change: one read, then one write. A new item is made from the values
 * written rather than read back: a scan queues thousands of items, and reading each row back (RETURNING *) cost more
 * than writing it.
 */
export function addOrMergeItem(sql: Sql, values: NewQueueRowValues): QueueItem {
  const pending = values.path === null ? undefined : sql(
    `SELECT id FROM queue_items WHERE path = ? AND state IN ('waiting', 'attention')`,
  ).get(values.path) as { id: number } | undefined;
  if (!pending) {
    const { lastInsertRowid } = sql(
      `INSERT INTO queue_items (kind, state, attention, reason, folder, path, design_id, file_kind, remote_id, payload,
         file_size, file_mtime_ms, file_sha1, created_at, updated_at)
       VALUES (@kind, @state, @attention, @reason, @folder, @path, @design_id, @file_kind, @remote_id, @payload,
         @file_size, @file_mtime_ms, @file_sha1, @at, @at)`,
    ).run(values);
    return toItem(newQueueRow(Number(lastInsertRowid), values));
  }
  sql(
    `UPDATE queue_items SET kind = @kind, state = @state, attention = @attention, reason = @reason, folder = @folder,
       design_id = @design_id, file_kind = @file_kind, remote_id = @remote_id, payload = @payload, file_size = @file_size,
       file_mtime_ms = @file_mtime_ms, file_sha1 = @file_sha1, bytes_sent = 0, bytes_total = NULL, updated_at = @at
     WHERE id = @id`,
  ).run({ ...values, id: pending.id });
  return toItem(sql('SELECT * FROM queue_items WHERE id = ?').get(pending.id) as QueueRow);
}

/** The row an item added with these values is, the table's defaults for the rest (a test holds the two to the same). */
function newQueueRow(id: number, values: NewQueueRowValues): QueueRow {
  return {
    id, kind: values.kind, state: values.state, paused: 0, attention: values.attention, reason: values.reason,
    folder: values.folder, path: values.path, design_id: values.design_id, file_kind: values.file_kind, remote_id: values.remote_id,
    payload: values.payload, bytes_sent: 0, bytes_total: null, attempts: 0, next_attempt_at: 0, started_at: null,
    file_size: values.file_size, file_mtime_ms: values.file_mtime_ms, file_sha1: values.file_sha1,
    created_at: values.at, updated_at: values.at, finished_at: null,
    sent_at: null, sent_name: null, sent_sha1: null, sent_size: null, sent_mtime_ms: null, sent_inode: null,
  };
}
