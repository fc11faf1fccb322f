import type { ActivityView, QueueEntry, QueueItemView } from '../../../../shared';
import type { ActivityEntry } from '../../queue/queue-store';
import { iso } from './iso';

export function queueEntry(item: QueueItemView): QueueEntry {
  return {
    id: item.id,
    kind: item.kind,
    state: item.state,
    paused: item.paused,
    attention: item.attention,
    reason: item.reason,
    folder: item.folder,
    path: item.path,
    designId: item.designId,
    fileKind: item.fileKind,
    bytesSent: item.bytesSent,
    bytesTotal: item.bytesTotal,
    attempts: item.attempts,
    nextAttemptAt: iso(item.nextAttemptAt),
    createdAt: iso(item.createdAt) ?? new Date(0).toISOString(),
    updatedAt: iso(item.updatedAt) ?? new Date(0).toISOString(),
  };
}

export function activityView(entry: ActivityEntry): ActivityView {
  return { id: entry.id, at: iso(entry.at) ?? new Date(0).toISOString(), level: entry.level, message: entry.message, path: entry.path };
}
