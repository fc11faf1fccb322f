import { isServiceError } from '../api/service-error';
import type { ServiceClient } from '../api/service-client';
import type { Session } from '../authorization/session';
import type { DesignCache } from '../cache/design-cache';
import type { DesignsStore } from '../cache/designs-store';
import type { QueueStore } from '../queue/queue-store';
import type { QueueEvent } from '../queue/queue-item';
import { engineLog } from '../log/engine-log';
import type { DesignChanges } from './design-changes';

export interface DesignEditsOptions {
  queue: QueueStore;
  cache: DesignCache;
  session: Session;
  /** Follows the cache's designs store, so that every write of an own design here (and elsewhere) is told. */
  changes: DesignChanges;
  /** The client to read a design back with, or null when no service is chosen. */
  client: () => ServiceClient | null;
}

const ownScreenName = (session: Session) => (session.state.status !== 'signed-out' ? session.state.user?.screen_name : undefined);

/** Stores a design as one of the signed-in user's own. */
function storeOwn(options: DesignEditsOptions, design: unknown): void {
  const screenName = ownScreenName(options.session);
  options.cache.designs.storeDesign(design, screenName ? { ownScreenName: screenName } : {});
}

/**
 * An edit made here while the service was away: the cache shows the edited values at once, until the service's own
 * answer replaces them (see DesignsStore.showLocalEdit).
 */
export function showEditInCache(designs: DesignsStore, designId: number, fields: Record<string, unknown>): void {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  designs.showLocalEdit(designId, { name: text(fields.name), excerpt: text(fields.excerpt), license: text(fields.license), description: text(fields.description) });
}

/**
 * Follows the queue's design jobs to their end. An edit sent: the cache takes the design as the service answered it;
 * refused (failed, or held for the person): the cache is read again from the service, so it never shows values the
 * service does not hold as if they were there. A design created for a new folder: read from the service and stored
 * as own, so My designs shows it at once. Each write goes through the cache's designs store, which `changes` follows
 * from here on (the own designs compared again after each). Returns the function that stops following.
 */
export function followDesignEdits(options: DesignEditsOptions): () => void {
  const unfollowStore = options.changes.follow(options.cache.designs);
  const files = new FileChangeRefresher(options);
  const onChange = (event: QueueEvent) => {
    if (event.type !== 'item') return;
    const { item } = event;
    if (FILE_KINDS.has(item.kind) && item.state === 'done' && item.designId !== null) {
      files.designChanged(item.designId);
      return;
    }
    if (item.kind === 'create-design' && item.state === 'done') {
      const created = options.queue.get(item.id)?.payload.createdDesignId;
      if (typeof created === 'number') void readBack(options, created, 'after it was created for a new folder');
      return;
    }
    if (item.kind !== 'update-design' || item.designId === null) return;
    const designId = item.designId;
    if (item.state === 'done') {
      const answer = options.queue.get(item.id)?.payload.answer;
      if (answer) storeOwn(options, answer);
    } else if ((item.state === 'failed' || item.state === 'cancelled') && options.queue.pendingDesignEdits(designId).length === 0) {
      void readBack(options, designId, 'after its edit was refused');
    }
  };
  options.queue.on('change', onChange);
  return () => {
    options.queue.off('change', onChange);
    files.stop();
    unfollowStore();
  };
}

/** Queue kinds that change a design's files on the service. */
const FILE_KINDS: ReadonlySet<string> = new Set(['upload', 'replace', 'rename', 'delete-remote']);
/** Files of one design sent in a burst are read back once, this long after the last of them. */
const FILE_REFRESH_DELAY_MS = 400;

/**
 * A design whose files the queue changed on the service is read back (the design, then its images and documents
 * through conditional GETs), so that My designs and the design's page show the new files and the cover at once, not
 * at the next pull.
 */
class FileChangeRefresher {
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();

  constructor(private readonly options: DesignEditsOptions) {}

  designChanged(designId: number): void {
    clearTimeout(this.timers.get(designId));
    const timer = setTimeout(() => {
      this.timers.delete(designId);
      void readBack(this.options, designId, 'after its files changed', { files: true });
    }, FILE_REFRESH_DELAY_MS);
    timer.unref();
    this.timers.set(designId, timer);
  }

  stop(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}

/**
 * Reads a design again from the service and stores it as own (with `files`, its image and document lists too). A
 * design the service no longer has is forgotten here, but for after a file change: a design gone then is sync's to
 * handle (design-gone.ts), and the next pull reads it anyway.
 */
async function readBack(options: DesignEditsOptions, designId: number, when: string, { files = false } = {}): Promise<void> {
  const client = options.client();
  if (!client) return;
  try {
    storeOwn(options, await client.getDesign(designId));
    if (files) await options.cache.designs.refreshFiles(client, designId, undefined, true);
  } catch (error) {
    if (isServiceError(error, 'not-found') && !files) options.cache.designs.remove([designId], true);
    else engineLog.warn('design-edits', `the design ${designId} could not be read again ${when}`, error);
  }
}
