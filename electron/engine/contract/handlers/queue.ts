import { queueServiceOf } from '../../runtime/queue-actions';
import type { Handlers } from '../handler-types';
import { activityView, queueEntry } from '../views/queue-entry';

/** The queue's requests: each parses nothing more than the contract did, asks the queue service, and makes the view. */
export const QUEUE_HANDLERS: Handlers<'queue.list' | 'queue.retry' | 'queue.cancel' | 'queue.pause' | 'queue.resume' | 'queue.confirmDelete' | 'queue.sendReady' | 'queue.confirmDesign' | 'queue.resolveConflict'> = {
  'queue.list': (engine, { states, limit }) => {
    const queue = queueServiceOf(engine);
    return { items: queue.list({ ...(states ? { states } : {}), limit }).map(queueEntry), activity: queue.recentActivity(50).map(activityView) };
  },
  'queue.retry': (engine, { target }) => ({ changed: target === 'all' ? queueServiceOf(engine).retryAll() : (queueServiceOf(engine).retry(target), 1) }),
  'queue.cancel': (engine, { target }) => ({ changed: target === 'all' ? queueServiceOf(engine).cancelAll().count : (queueServiceOf(engine).cancel(target), 1) }),
  'queue.pause': (engine, { target, for: length }) => ({
    changed: target === 'all' ? queueServiceOf(engine).pauseAll(length ?? null).waiting : (queueServiceOf(engine).pause(target), 1),
  }),
  'queue.resume': (engine, { target }) => ({ changed: target === 'all' ? queueServiceOf(engine).resumeAll().waiting : (queueServiceOf(engine).resume(target), 1) }),
  'queue.confirmDelete': (engine, { id }) => queueEntry(queueServiceOf(engine).confirmDeletion(id)),
  'queue.sendReady': (engine, { target }) => ({ changed: target === 'all' ? queueServiceOf(engine).sendAllReady() : (queueServiceOf(engine).sendReady(target), 1) }),
  'queue.confirmDesign': (engine, { id, name, excerpt, license, publish }) => queueEntry(queueServiceOf(engine).confirmNewDesign(id, { name, excerpt, license }, publish)),
  'queue.resolveConflict': async (engine, { id, keep }) => queueEntry(await queueServiceOf(engine).resolveConflict(id, keep)),
};
