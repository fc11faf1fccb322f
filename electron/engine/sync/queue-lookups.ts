import type { QueueStore } from '../queue/queue-store';
import type { QueueItem } from '../queue/queue-item';

/** Open items (running, waiting, attention) of a path, split by whether one is being sent now. */
export function openItems(queue: QueueStore, path: string): { running: QueueItem | null; pending: QueueItem | null } {
  const items = queue.openItemsForPath(path);
  return { running: items.find((item) => item.state === 'running') ?? null, pending: items.find((item) => item.state !== 'running') ?? null };
}
