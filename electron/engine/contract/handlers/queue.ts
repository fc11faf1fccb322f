import type { QueueState } from '../../../../shared';
import { cancelItem, confirmDeletion, confirmNewDesign, pauseItem, pauseUploads, resolveConflict, retryItem, sendReady } from '../../runtime/queue-actions';
import { decisionTaken } from '../../runtime/sync-actions';
import type { Handlers } from '../handler-types';
import { activityView, queueEntry } from '../views/queue-entry';

const NOT_DONE: QueueState[] = ['running', 'waiting', 'attention', 'failed'];

export const QUEUE_HANDLERS: Handlers<'queue.list' | 'queue.retry' | 'queue.cancel' | 'queue.pause' | 'queue.resume' | 'queue.confirmDelete' | 'queue.sendReady' | 'queue.confirmDesign' | 'queue.resolveConflict'> = {
  'queue.list': (engine, { states, limit }) => ({
    items: engine.queue.list({ states: states ?? NOT_DONE, limit }).map(queueEntry),
    activity: engine.queue.recentActivity(50).map(activityView),
  }),
  'queue.retry': (engine, { target }) => ({ changed: target === 'all' ? engine.queue.retryAll() : (retryItem(engine.queue, target), 1) }),
  // A decision takes effect at once: the designs it touched are looked at on the service now (a kept file comes back).
  'queue.cancel': (engine, { target }) => {
    if (target !== 'all') {
      decisionTaken(engine, [cancelItem(engine.queue, target).designId]);
      return { changed: 1 };
    }
    const designs = engine.queue.list({ states: NOT_DONE, limit: 100_000 }).map((item) => item.designId);
    const changed = engine.queue.cancelAll();
    decisionTaken(engine, designs);
    return { changed };
  },
  'queue.pause': (engine, { target, for: length }) => {
    if (target !== 'all') return { changed: (pauseItem(engine.queue, target, true), 1) };
    pauseUploads(engine.queue, length ?? null);
    return { changed: engine.queue.status().counts.waiting };
  },
  'queue.resume': (engine, { target }) => {
    if (target !== 'all') return { changed: (pauseItem(engine.queue, target, false), 1) };
    engine.queue.setQueuePaused(false);
    return { changed: engine.queue.status().counts.waiting };
  },
  'queue.confirmDelete': (engine, { id }) => queueEntry(confirmDeletion(engine.queue, id)),
  'queue.sendReady': (engine, { target }) => ({ changed: sendReady(engine.queue, target) }),
  'queue.confirmDesign': (engine, { id, name, excerpt, license, publish }) => queueEntry(confirmNewDesign(engine.queue, id, { name, excerpt, license }, publish)),
  'queue.resolveConflict': async (engine, { id, keep }) => {
    const item = await resolveConflict(engine.queue, id, keep, (path) => engine.syncParts().sync.discardConflictCopy(path));
    decisionTaken(engine, [item.designId]);
    return queueEntry(item);
  },
};
