import type { Statement } from 'better-sqlite3';
import { CLEAR_SENT, type QueueItem, type Settlement } from './queue-item';

/** How the queue store ends an attempt or an item (run inside its transactions; they return the ids they changed). */

type Sql = (text: string) => Statement;

/**
 * Ends an attempt of a running item: back to waiting, failed, needing attention or cancelled. Nothing happens
 * when the item is no longer running (a person cancelled it meanwhile): no ids then.
 * When the item goes back to waiting (or attention) while a newer change of the same file already waits, the
 * newer one takes its place: this one is cancelled and hands over what it sent, if that is still in doubt.
 */
export function settleItem(sql: Sql, item: QueueItem | null, to: Settlement, at: number): number[] {
  if (!item || item.state !== 'running') return [];
  const { id } = item;
  if ((to.state === 'waiting' || to.state === 'attention') && item.path !== null) {
    const newer = sql(`SELECT id, sent_at FROM queue_items WHERE path = ? AND id != ? AND state IN ('waiting', 'attention')`).get(item.path, id) as { id: number; sent_at: number | null } | undefined;
    if (newer) {
      const keep = to.state === 'waiting' && to.sent === 'keep' && item.sent !== null && newer.sent_at === null;
      if (keep) {
        sql(
          `UPDATE queue_items SET sent_at = @at, sent_name = @name, sent_sha1 = @sha1, sent_size = @size, sent_mtime_ms = @mtimeMs, sent_inode = @inode WHERE id = @id`,
        ).run({ ...item.sent!, id: newer.id });
      }
      sql(`UPDATE queue_items SET state = 'cancelled', reason = ?, ${CLEAR_SENT}, finished_at = ?, updated_at = ? WHERE id = ?`)
        .run('Replaced by a newer change of the same file.', at, at, id);
      return [id, newer.id];
    }
  }
  switch (to.state) {
    case 'waiting':
      sql(
        `UPDATE queue_items SET state = 'waiting', next_attempt_at = ?, reason = ?, attention = NULL, started_at = NULL,
           attempts = attempts - ?, updated_at = ?${to.sent === 'clear' ? `, ${CLEAR_SENT}` : ''} WHERE id = ?`,
      ).run(to.at, to.reason, to.countAttempt ? 0 : 1, at, id);
      break;
    case 'failed':
      sql(`UPDATE queue_items SET state = 'failed', reason = ?, started_at = NULL, ${CLEAR_SENT}, finished_at = ?, updated_at = ? WHERE id = ?`).run(to.reason, at, at, id);
      break;
    case 'attention':
      sql(`UPDATE queue_items SET state = 'attention', attention = ?, reason = ?, started_at = NULL, ${CLEAR_SENT}, updated_at = ? WHERE id = ?`)
        .run(to.attention, to.reason, at, id);
      break;
    case 'cancelled':
      sql(`UPDATE queue_items SET state = 'cancelled', reason = ?, started_at = NULL, ${CLEAR_SENT}, finished_at = ?, updated_at = ? WHERE id = ?`).run(to.reason, at, at, id);
      break;
  }
  return [id];
}

/**
 * Marks an item done, running `record` (the last synced state: BaseFiles, DesignFolders) first, in the caller's
 * transaction, so the two never disagree after a crash. A newer upload of the same path that waits becomes a
 * replace of the record just made (it would otherwise add the file a second time). Returns those uploads.
 */
export function completeItem(sql: Sql, id: number, record: () => void, at: number): number[] {
  record();
  sql(`UPDATE queue_items SET state = 'done', attention = NULL, reason = NULL, ${CLEAR_SENT}, finished_at = ?, updated_at = ? WHERE id = ?`).run(at, at, id);
  const item = sql('SELECT path FROM queue_items WHERE id = ?').get(id) as { path: string | null } | undefined;
  if (!item?.path) return [];
  const base = sql('SELECT remote_id, design_id FROM base_files WHERE path = ?').get(item.path) as { remote_id: number; design_id: number } | undefined;
  if (!base) return [];
  const uploads = sql(`SELECT id FROM queue_items WHERE path = ? AND id != ? AND kind = 'upload' AND state IN ('waiting', 'attention')`).all(item.path, id) as { id: number }[];
  for (const upload of uploads) {
    sql(`UPDATE queue_items SET kind = 'replace', remote_id = ?, design_id = ?, updated_at = ? WHERE id = ?`).run(base.remote_id, base.design_id, at, upload.id);
  }
  return uploads.map((u) => u.id);
}
