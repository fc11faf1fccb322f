import type { ActivityView, ConflictView, QueueEntry, QueueItemView } from '../../../../shared';
import type { ActivityEntry } from '../../queue/queue-item';
import type { QueueService } from '../../queue/queue-service';
import { iso } from './iso';

/** An edit of a design names it (the queue's items carry their payload, though the view type does not say so). */
function titleOf(item: QueueItemView): string | null {
  const payload = (item as { payload?: { designName?: unknown } }).payload;
  return item.kind === 'update-design' && typeof payload?.designName === 'string' ? `“${payload.designName}”` : null;
}

/** A conflict's two versions, from what the remote pass recorded when it kept the person's copy. */
function conflictOf(item: QueueItemView): ConflictView | null {
  const payload = (item as { payload?: { conflictOf?: unknown; localChangedAt?: unknown; remoteChangedAt?: unknown } }).payload;
  if (item.attention !== 'conflict' || typeof payload?.conflictOf !== 'string' || !item.path) return null;
  const time = (value: unknown) => {
    const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
    return Number.isFinite(ms) ? iso(ms) : null;
  };
  return { servicePath: payload.conflictOf, copyPath: item.path, serviceChangedAt: time(payload.remoteChangedAt), copyChangedAt: time(payload.localChangedAt) };
}

/** An item as it changes, for the window: a file being sent with its smoothed rate (upload-progress.ts measures it). */
export function liveQueueEntry(queue: Pick<QueueService, 'withRate'>, item: QueueItemView): QueueEntry {
  return queueEntry(queue.withRate(item));
}

export function queueEntry(item: QueueItemView): QueueEntry {
  const { id, kind, state, paused, attention, reason, reasonWords, folder, path, designId, fileKind, bytesSent, bytesTotal, attempts } = item;
  const rate = (item as { bytesPerSecond?: unknown }).bytesPerSecond;
  return {
    id, kind, state, paused, attention, reason, reasonWords: reasonWords ?? null, folder, path, designId, fileKind, bytesSent, bytesTotal, attempts, title: titleOf(item), conflict: conflictOf(item),
    bytesPerSecond: state === 'running' && typeof rate === 'number' ? rate : null,
    nextAttemptAt: iso(item.nextAttemptAt),
    createdAt: iso(item.createdAt) ?? new Date(0).toISOString(),
    updatedAt: iso(item.updatedAt) ?? new Date(0).toISOString(),
  };
}

export function activityView(entry: ActivityEntry): ActivityView {
  return { id: entry.id, at: iso(entry.at) ?? new Date(0).toISOString(), level: entry.level, message: entry.message, words: entry.words, path: entry.path };
}
