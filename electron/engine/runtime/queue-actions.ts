import { QueueService, type PauseLength } from '../queue/queue-service';
import type { QueueItem } from '../queue/queue-item';
import type { QueueStore } from '../queue/queue-store';
import type { Engine } from './engine';

export { PAUSE_LENGTHS, pauseEndsAt, type PauseLength } from '../queue/queue-service';

/** The engine's one QueueService (made with the engine: runtime/engine.ts), for callers that hold the engine (tests). */
export function queueServiceOf(engine: Engine): QueueService {
  return engine.queueService;
}

// The same decisions on a queue alone (no engine around it: nothing else is told), as scripts and tests take them.

/** Pauses all uploads, until the person resumes them or, given a length, until it ends. Returns when it ends (or null). */
export function pauseUploads(queue: QueueStore, length: PauseLength | null = null, now = Date.now()): number | null {
  return new QueueService({ store: queue, now: () => now }).pauseAll(length).until;
}

/** Sends one file that waits as ready to publish, or all of them. Returns how many were sent on their way. */
export function sendReady(queue: QueueStore, target: number | 'all'): number {
  const service = new QueueService({ store: queue });
  return target === 'all' ? service.sendAllReady() : (service.sendReady(target), 1);
}

/** Confirms deleting a file on the service (it was deleted from the folder). */
export function confirmDeletion(queue: QueueStore, id: number): QueueItem {
  return new QueueService({ store: queue }).confirmDeletion(id);
}

/** Confirms the design proposed for a new folder, with its required fields; a draft unless `publish`. */
export function confirmNewDesign(queue: QueueStore, id: number, fields: { name?: string; excerpt?: string; license?: string }, publish: boolean): QueueItem {
  return new QueueService({ store: queue }).confirmNewDesign(id, fields, publish);
}

