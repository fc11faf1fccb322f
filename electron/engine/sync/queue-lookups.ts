import type { AttentionKind, QueueKind, QueueState } from '../../../shared';
import type { QueueItem, QueueStore } from '../queue/queue-store';
import { statementsOf } from './sync-database';

/** The newest queue item of a path, whatever its state (to tell a proposal the person already turned down). */
export function latestItemForPath(queue: QueueStore, path: string): { id: number; kind: QueueKind; state: QueueState; attention: AttentionKind | null; fileSize: number | null; fileMtimeMs: number | null; fileSha1: string | null } | null {
  const row = statementsOf(queue.db)(
    'SELECT id, kind, state, attention, file_size, file_mtime_ms, file_sha1 FROM queue_items WHERE path = ? ORDER BY id DESC LIMIT 1',
  ).get(path) as { id: number; kind: QueueKind; state: QueueState; attention: AttentionKind | null; file_size: number | null; file_mtime_ms: number | null; file_sha1: string | null } | undefined;
  return row ? { id: row.id, kind: row.kind, state: row.state, attention: row.attention, fileSize: row.file_size, fileMtimeMs: row.file_mtime_ms, fileSha1: row.file_sha1 } : null;
}

/** Open items (running, waiting, attention) of a path, split by whether one is being sent now. */
export function openItems(queue: QueueStore, path: string): { running: QueueItem | null; pending: QueueItem | null } {
  const items = queue.openItemsForPath(path);
  return { running: items.find((item) => item.state === 'running') ?? null, pending: items.find((item) => item.state !== 'running') ?? null };
}

/** Waiting or attention items of the given folders (to withdraw those whose file is gone). */
export function pendingItemsIn(queue: QueueStore, folders: readonly string[]): QueueItem[] {
  const wanted = new Set(folders);
  return queue.list({ states: ['waiting', 'attention'] }).filter((item) => item.folder !== null && wanted.has(item.folder));
}

export function markScanned(queue: QueueStore, at: number): void {
  statementsOf(queue.db)('UPDATE sync_status SET last_scan_at = ? WHERE id = 1').run(at);
}
