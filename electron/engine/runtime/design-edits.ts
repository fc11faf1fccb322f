import { isServiceError } from '../api/service-error';
import type { ServiceClient } from '../api/service-client';
import type { Session } from '../authorization/session';
import type { DesignCache } from '../cache/design-cache';
import { deleteDesigns, upsertDesign } from '../cache/design-writes';
import { applyLocalDesignEdit } from '../cache/local-design-edit';
import type { QueueStore } from '../queue/queue-store';
import type { QueueEvent } from '../queue/queue-item';
import { engineLog } from '../log/engine-log';
import type { DesignChanges } from './design-changes';

export interface DesignEditsOptions {
  queue: QueueStore;
  cache: DesignCache;
  session: Session;
  /** Told after every write of an own design here. */
  changes: DesignChanges;
  /** The client to read a design back with, or null when no service is chosen. */
  client: () => ServiceClient | null;
}

const ownScreenName = (session: Session) => (session.state.status !== 'signed-out' ? session.state.user?.screen_name : undefined);

/** Stores a design as one of the signed-in user's own. */
function storeOwn(options: DesignEditsOptions, design: unknown): void {
  const screenName = ownScreenName(options.session);
  upsertDesign(options.cache.db, design, 'list', Date.now(), { own: true, ...(screenName ? { ownScreenName: screenName } : {}) });
}

/**
 * An edit made here while the service was away: the cache shows the edited values at once, until the service's own
 * answer replaces them (see applyLocalDesignEdit).
 */
export function showEditInCache(cache: DesignCache, designId: number, fields: Record<string, unknown>): void {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  applyLocalDesignEdit(cache.db, designId, { name: text(fields.name), excerpt: text(fields.excerpt), license: text(fields.license), description: text(fields.description) });
}

/**
 * Follows the queue's design jobs to their end. An edit sent: the cache takes the design as the service answered it;
 * refused (failed, or held for the person): the cache is read again from the service, so it never shows values the
 * service does not hold as if they were there. A design created for a new folder: read from the service and stored
 * as own, so My designs shows it at once. Each write is told through `changes`. Returns the function that stops
 * following.
 */
export function followDesignEdits(options: DesignEditsOptions): () => void {
  const onChange = (event: QueueEvent) => {
    if (event.type !== 'item') return;
    const { item } = event;
    if (item.kind === 'create-design' && item.state === 'done') {
      const created = options.queue.get(item.id)?.payload.createdDesignId;
      if (typeof created === 'number') void refresh(options, created, 'after it was created for a new folder');
      return;
    }
    if (item.kind !== 'update-design' || item.designId === null) return;
    const designId = item.designId;
    if (item.state === 'done') {
      const answer = options.queue.get(item.id)?.payload.answer;
      if (answer) {
        storeOwn(options, answer);
        options.changes.checkOwn();
      }
    } else if ((item.state === 'failed' || item.state === 'cancelled') && options.queue.pendingDesignEdits(designId).length === 0) {
      void refresh(options, designId, 'after its edit was refused');
    }
  };
  options.queue.on('change', onChange);
  return () => options.queue.off('change', onChange);
}

async function refresh(options: DesignEditsOptions, designId: number, when: string): Promise<void> {
  const client = options.client();
  if (!client) return;
  try {
    storeOwn(options, await client.getDesign(designId));
  } catch (error) {
    if (isServiceError(error, 'not-found')) deleteDesigns(options.cache.db, [designId]);
    else {
      engineLog.warn('design-edits', `the design ${designId} could not be read again ${when}`, error);
      return;
    }
  }
  options.changes.checkOwn();
}
