import type { Handlers } from '../handler-types';
import { activityView, queueEntry } from '../views/queue-entry';

/** The queue's requests: each parses nothing more than the contract did, asks the queue service, and makes the view. */
export const QUEUE_HANDLERS: Handlers<'queue.list' | 'queue.retry' | 'queue.cancel' | 'queue.pause' | 'queue.resume' | 'queue.confirmDelete' | 'queue.sendReady' | 'queue.confirmDesign' | 'queue.resolveConflict'> = {
  'queue.list': ({ queue }, { states, limit }) => {
    return { items: queue.list({ ...(states ? { states } : {}), limit }).map(queueEntry), activity: queue.recentActivity(50).map(activityView) };
  },
  'queue.retry': ({ queue }, { target }) => ({ changed: target === 'all' ? queue.retryAll() : (queue.retry(target), 1) }),
  'queue.cancel': ({ queue }, { target }) => ({ changed: target === 'all' ? queue.cancelAll().count : (queue.cancel(target), 1) }),
  'queue.pause': ({ queue }, { target, for: length }) => ({
    changed: target === 'all' ? queue.pauseAll(length ?? null).waiting : (queue.pause(target), 1),
  }),
  'queue.resume': ({ queue }, { target }) => ({ changed: target === 'all' ? queue.resumeAll().waiting : (queue.resume(target), 1) }),
  'queue.confirmDelete': ({ queue }, { id }) => queueEntry(queue.confirmDeletion(id)),
  'queue.sendReady': ({ queue }, { target }) => ({ changed: target === 'all' ? queue.sendAllReady() : (queue.sendReady(target), 1) }),
  'queue.confirmDesign': ({ queue }, { id, name, excerpt, license, publish }) => queueEntry(queue.confirmNewDesign(id, { name, excerpt, license }, publish)),
  'queue.resolveConflict': async ({ queue }, { id, keep }) => queueEntry(await queue.resolveConflict(id, keep)),
};
