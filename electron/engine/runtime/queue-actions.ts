import { describeFieldErrors, validateDesignInput, type DesignInput } from '../../../shared';
import { PAUSE_MORNING_HOUR } from '../../../shared/sync/sync-state-words';
import type { QueueStore } from '../queue/queue-store';
import type { QueueItem } from '../queue/queue-item';
import { EngineError } from './engine-error';

/** What the person acts on in the queue: each checks the item's state first and says plainly why it cannot. */

export function subjectOf(item: QueueItem): string {
  return item.path ?? (item.folder ? `the folder "${item.folder}"` : `item ${item.id}`);
}

export function existingItem(queue: QueueStore, id: number): QueueItem {
  const item = queue.get(id);
  if (!item) throw new EngineError({ kind: 'not-found', message: `There is no queue item ${id}.` });
  return item;
}

export function retryItem(queue: QueueStore, id: number): QueueItem {
  const item = existingItem(queue, id);
  if (item.state !== 'failed' && item.state !== 'waiting') throw new EngineError({ kind: 'conflict', message: `Item ${item.id} (${subjectOf(item)}) is ${item.state}: only failed or waiting items can be retried.` });
  return queue.retry(item.id);
}

export function cancelItem(queue: QueueStore, id: number): QueueItem {
  const item = existingItem(queue, id);
  if (item.state === 'done' || item.state === 'cancelled') throw new EngineError({ kind: 'conflict', message: `Item ${item.id} (${subjectOf(item)}) is already ${item.state}.` });
  return queue.cancel(item.id);
}

export function pauseItem(queue: QueueStore, id: number, paused: boolean): QueueItem {
  return queue.setPaused(existingItem(queue, id).id, paused);
}

/** How long a pause of all uploads lasts by itself: an hour, or until the next 08:00 (PAUSE_MORNING_HOUR, local time). */
export type PauseLength = 'hour' | 'tomorrow';
export const PAUSE_LENGTHS: readonly PauseLength[] = ['hour', 'tomorrow'];


/** When a pause of `length` begun at `now` ends (epoch ms). */
export function pauseEndsAt(length: PauseLength, now: number): number {
  if (length === 'hour') return now + 60 * 60_000;
  const morning = new Date(now);
  morning.setHours(PAUSE_MORNING_HOUR, 0, 0, 0);
  if (morning.getTime() <= now) morning.setDate(morning.getDate() + 1);
  return morning.getTime();
}

/** Pauses all uploads, until the person resumes them or, given a length, until it ends (then they resume by themselves). */
export function pauseUploads(queue: QueueStore, length: PauseLength | null = null, now = Date.now()): number | null {
  const until = length === null ? null : pauseEndsAt(length, now);
  queue.setQueuePaused(true, until);
  return until;
}

function needsConfirming(queue: QueueStore, id: number, attention: 'confirm-delete' | 'confirm-design' | 'conflict' | 'ready-to-publish'): QueueItem {
  const item = existingItem(queue, id);
  if (item.state !== 'attention' || item.attention !== attention) {
    const what = attention === 'confirm-delete' ? 'a deletion' : attention === 'conflict' ? 'a conflict' : attention === 'ready-to-publish' ? 'file ready to publish' : 'a new design';
    throw new EngineError({ kind: 'conflict', message: `Item ${id} (${subjectOf(item)}) is ${item.state}${item.attention ? ` [${item.attention}]` : ''}: there is no ${what} to confirm.` });
  }
  return item;
}

/**
 * The person sends files that wait as ready to publish (added to a published design while review before publishing
 * is on): one, or all of them. Returns how many were sent on their way.
 */
export function sendReady(queue: QueueStore, target: number | 'all'): number {
  if (target !== 'all') return (queue.confirm(needsConfirming(queue, target, 'ready-to-publish').id), 1);
  const ready = queue.list({ states: ['attention'], limit: 100_000 }).filter((item) => item.attention === 'ready-to-publish');
  for (const item of ready) queue.confirm(item.id);
  return ready.length;
}

/** The person confirms deleting a file on the service (it was deleted from the folder). */
export function confirmDeletion(queue: QueueStore, id: number): QueueItem {
  return queue.confirm(needsConfirming(queue, id, 'confirm-delete').id);
}

/** The person confirms the design proposed for a new folder, with its required fields; a draft unless `publish`. */
export function confirmNewDesign(queue: QueueStore, id: number, fields: { name?: string; excerpt?: string; license?: string }, publish: boolean): QueueItem {
  needsConfirming(queue, id, 'confirm-design');
  const checked = validateDesignInput(fields, 'create');
  if (!checked.ok) throw new EngineError({ kind: 'validation', message: `The new design cannot be created: ${describeFieldErrors(checked.errors)}.`, fieldErrors: checked.errors });
  return queue.confirm(id, { ...(checked.value as DesignInput), publish });
}

/**
 * The person settles a conflict: 'both' sends their copy as a new file; 'service' keeps only the service's version,
 * their copy moved to the trash by `discard` before the item leaves the queue.
 */
export async function resolveConflict(queue: QueueStore, id: number, keep: 'both' | 'service', discard: (path: string) => Promise<string>): Promise<QueueItem> {
  const item = needsConfirming(queue, id, 'conflict');
  if (keep === 'both') return queue.confirm(item.id);
  if (item.path) await discard(item.path);
  return queue.cancel(item.id);
}
