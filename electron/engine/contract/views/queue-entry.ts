import type { ActivityView, QueueEntry, QueueItemView } from '../../../../shared';
import type { ActivityEntry } from '../../queue/queue-store';
import { iso } from './iso';

/** An edit of a design names it (the queue's items carry their payload, though the view type does not say so). */
function titleOf(item: QueueItemView): string | null {
  const payload = (item as { payload?: { designName?: unknown } }).payload;
  return item.kind === 'update-design' && typeof payload?.designName === 'string' ? `“${payload.designName}”` : null;
}

export function queueEntry(item: QueueItemView): QueueEntry {
  const { id, kind, state, paused, attention, reason, folder, path, designId, fileKind, bytesSent, bytesTotal, attempts } = item;
  return {
    id, kind, state, paused, attention, reason, folder, path, designId, fileKind, bytesSent, bytesTotal, attempts, title: titleOf(item),
    nextAttemptAt: iso(item.nextAttemptAt),
    createdAt: iso(item.createdAt) ?? new Date(0).toISOString(),
    updatedAt: iso(item.updatedAt) ?? new Date(0).toISOString(),
  };
}

export function activityView(entry: ActivityEntry): ActivityView {
  return { id: entry.id, at: iso(entry.at) ?? new Date(0).toISOString(), level: entry.level, message: entry.message, path: entry.path };
}
