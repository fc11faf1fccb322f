import { statementsOf, type SyncDatabase } from '../sync-state/sync-database';

/** The files of the current burst, as the durable queue holds them (so any process reading the profile sees the same). */
export interface UploadBurst {
  filesDone: number;
  filesSending: number;
  filesWaiting: number;
  bytesSent: number;
  bytesTotal: number;
}

/** File uploads (a new file, or a changed one sent over its record). */
const FILE_KINDS = `kind IN ('upload', 'replace')`;
const PENDING = `((state = 'waiting' AND paused = 0) OR state = 'running')`;
/** An item's size: what its upload reported, else the size of the file when it was queued. */
const SIZE = 'coalesce(bytes_total, file_size, 0)';
/** Enough for any real chain of overlapping items; a bound keeps a strange history from costing much. */
const MAX_STEPS = 50;

/**
 * The uploads since the queue was last idle: those waiting or being sent now, and those done since. The queue was last
 * idle just before the oldest item of the chain of items whose time in the queue (queued to finished) overlaps what is
 * pending now; an item that finished before the pending ones were queued still belongs to the burst if another item
 * was in the queue meanwhile. `idleAt`: when the queue was last seen idle, if known (nothing before it belongs to the
 * burst). 'idle' when nothing is pending; null when what is pending sends no files.
 */
export function currentUploadBurst(db: SyncDatabase, idleAt: number | null = null): UploadBurst | 'idle' | null {
  const sql = statementsOf(db);
  const pending = sql(
    `SELECT min(created_at) AS since FROM queue_items WHERE ${PENDING}`,
  ).get() as { since: number | null };
  if (pending.since === null) return 'idle';
  // An item retried after it failed keeps the time it was first queued: the queue seen idle since then bounds it
  // (what finished by the moment it was seen idle belongs to an earlier burst).
  const floor = idleAt === null ? -Infinity : idleAt + 1;
  let since = Math.max(pending.since, floor);
  const earlier = sql(`SELECT min(created_at) AS since FROM queue_items INDEXED BY queue_items_by_finished WHERE finished_at IS NOT NULL AND finished_at >= ? AND created_at < ?`);
  for (let step = 0; step < MAX_STEPS; step++) {
    const found = (earlier.get(since, since) as { since: number | null }).since;
    if (found === null) break;
    since = Math.max(found, floor);
    if (since === floor) break;
  }
  const row = sql(
    `SELECT
       coalesce(sum(state = 'done'), 0) AS done,
       coalesce(sum(state = 'running'), 0) AS sending,
       coalesce(sum(state = 'waiting'), 0) AS waiting,
       coalesce(sum(CASE WHEN state = 'done' THEN ${SIZE} WHEN state = 'running' THEN min(bytes_sent, ${SIZE}) ELSE 0 END), 0) AS sent,
       coalesce(sum(${SIZE}), 0) AS total
     FROM (
       SELECT state, bytes_sent, bytes_total, file_size FROM queue_items WHERE ${FILE_KINDS} AND ${PENDING}
       UNION ALL
       SELECT state, bytes_sent, bytes_total, file_size FROM queue_items INDEXED BY queue_items_by_finished
       WHERE ${FILE_KINDS} AND state = 'done' AND finished_at IS NOT NULL AND finished_at >= ?
     )`,
  ).get(since) as { done: number; sending: number; waiting: number; sent: number; total: number };
  if (row.done + row.sending + row.waiting === 0) return null;
  return { filesDone: row.done, filesSending: row.sending, filesWaiting: row.waiting, bytesSent: row.sent, bytesTotal: row.total };
}
