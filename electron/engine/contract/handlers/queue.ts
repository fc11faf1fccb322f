import type { QueueState } from '../../../../shared';
import { cancelItem, confirmDeletion, confirmNewDesign, pauseItem, resolveConflict, retryItem } from '../../runtime/queue-actions';
import type { Handlers } from '../handler-types';
import { activityView, queueEntry } from '../views/queue-entry';

const NOT_DONE: QueueState[] = ['running', 'waiting', 'attention', 'failed'];

export const QUEUE_HANDLERS: Handlers<'queue.list' | 'queue.retry' | 'queue.cancel' | 'queue.pause' | 'queue.resume' | 'queue.confirmDelete' | 'queue.confirmDesign' | 'queue.resolveConflict'> = {
  'queue.list': (engine, { states, limit }) => ({
    items: engine.queue.list({ states: states ?? NOT_DONE, limit }).map(queueEntry),
    activity: engine.queue.recentActivity(50).map(activityView),
  }),
  'queue.retry': (engine, { target }) => ({ changed: target === 'all' ? engine.queue.retryAll() : (retryItem(engine.queue, target), 1) }),
  'queue.cancel': (engine, { target }) => ({ changed: target === 'all' ? engine.queue.cancelAll() : (cancelItem(engine.queue, target), 1) }),
  'queue.pause': (engine, { target }) => {
    if (target !== 'all') return { changed: (pauseItem(engine.queue, target, true), 1) };
    engine.queue.setQueuePaused(true);
    return { changed: engine.queue.status().counts.waiting };
  },
  'queue.resume': (engine, { target }) => {
    if (target !== 'all') return { changed: (pauseItem(engine.queue, target, false), 1) };
    engine.queue.setQueuePaused(false);
    return { changed: engine.queue.status().counts.waiting };
  },
  'queue.confirmDelete': (engine, { id }) => queueEntry(confirmDeletion(engine.queue, id)),
  'queue.confirmDesign': (engine, { id, name, excerpt, license, publish }) => queueEntry(confirmNewDesign(engine.queue, id, { name, excerpt, license }, publish)),
  'queue.resolveConflict': async (engine, { id, keep }) =>
    queueEntry(await resolveConflict(engine.queue, id, keep, (path) => engine.syncParts().sync.discardConflictCopy(path))),
};
