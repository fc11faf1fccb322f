import { ServiceClient } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import type { Session } from '../authorization/session';
import type { DesignCache } from '../cache/design-cache';
import { ownDesignRefs, readSyncState, summariesByIds } from '../cache/design-reads';
import { pullOwnDesigns } from '../cache/pull';
import { QueueRunner, type QueueRunnerOptions } from '../queue/queue-runner';
import type { ConnectivitySource } from '../queue/connectivity-source';
import type { QueueStore } from '../queue/queue-store';
import type { TrashMode } from '../sync/local-files';
import { neverSentNow } from '../sync/ignore/ignore-files';
import { SyncEngine, type SyncEngineOptions } from '../sync/sync-engine';
import type { SyncDatabase } from '../sync-state/sync-database';

export interface SyncParts {
  sync: SyncEngine;
  runner: QueueRunner;
  /** Sync's reads of the service (own designs, the remote pass): never made without the sign-in. */
  client: ServiceClient;
}

export interface SyncPartsOptions {
  baseUrl: string;
  userAgent: string;
  session: Session;
  cache: DesignCache;
  db: SyncDatabase;
  queue: QueueStore;
  /** The engine's connectivity hooks, for the clients of sync and of the queue. */
  transportHooks: Pick<ConstructorParameters<typeof ServiceClient>[0], 'onAnswer' | 'onProblem' | 'bandwidth'>;
  settleMs: number;
  rescanIntervalMs: number;
  trash: TrashMode;
  contentPolicyAccepted: () => boolean;
  /** Between two polls of the own designs' list while watching (default 30 s). */
  remotePollMs?: number;
  /** Whether the service is reachable as far as the engine knows (no poll while it is not). */
  online?: () => boolean;
  /** The engine's one connectivity source: the queue waits on it while the service is away. */
  connectivity?: ConnectivitySource;
  /** Whether files added to a published design wait for the person before they are sent (a setting, off by default). */
  reviewBeforePublishing?: () => boolean;
  /** Timings the engine's defaults fix (tests shorten them; the assembly is the same). */
  tuning?: Pick<SyncEngineOptions, 'debounceMs' | 'maxSettleWaitMs' | 'emptySettleMs' | 'rootPollMs' | 'watchTimers'> & Pick<QueueRunnerOptions, 'random'>;
}

/**
 * The sync folder and the upload queue for one service: a sync pass brings only the signed-in user's own designs
 * (GET /v1/users/:me/designs) and their files, never the public catalogue, so its cost does not grow with it.
 */
export function makeSyncParts(options: SyncPartsOptions): SyncParts {
  const { cache, session, baseUrl, userAgent } = options;
  // Never anonymous: a public answer (no drafts) read after the sign-in was refused would look like deletions.
  const client = new ServiceClient(session.transportOptions({ baseUrl, userAgent, signedInOnly: true, ...options.transportHooks }));
  const { random, ...engineTuning } = options.tuning ?? {};
  const sync = new SyncEngine({
    ...engineTuning,
    db: options.db,
    queue: options.queue,
    client,
    session: options.session,
    settleMs: options.settleMs,
    rescanIntervalMs: options.rescanIntervalMs,
    trash: options.trash,
    ...(options.remotePollMs !== undefined ? { remotePollMs: options.remotePollMs } : {}),
    ...(options.online ? { online: options.online } : {}),
    reviewBeforePublishing: (designId) => {
      if (!options.reviewBeforePublishing?.()) return null;
      const [design] = summariesByIds(cache.reader, [designId]);
      return design?.state === 'published' ? design.name : null;
    },
    // Written to the cache on the way: My designs shows what the folder gets (drafts included).
    ownDesigns: async (signal) => {
      try {
        await pullOwnDesigns(client, cache.db, cache.files, { signal });
      } catch (error) {
        // Offline: the own designs the cache knows still get their folders; the service part of the pass waits.
        if (!isServiceError(error, 'offline') || ownDesignRefs(cache.reader).length === 0) throw error;
      }
      return { userId: readSyncState(cache.reader).ownUserId, designs: ownDesignRefs(cache.reader) };
    },
  });
  const runner = new QueueRunner({
    store: options.queue,
    session: options.session,
    // For the queue's writes: no retries of their own (the queue retries, and shows it).
    client: new ServiceClient(session.transportOptions({ baseUrl, userAgent, retry: { retries: 0 }, signedInOnly: true, ...options.transportHooks })),
    settleMs: options.settleMs,
    contentPolicyAccepted: options.contentPolicyAccepted,
    // Asked of the ignore files as they are when a change leaves, not only when the scan queued it.
    neverSent: async (path) => {
      const root = sync.root.current();
      return root ? neverSentNow(root.path, path) : null;
    },
    ...(random ? { random } : {}),
    ...(options.connectivity ? { connectivity: options.connectivity } : {}),
  });
  return { sync, runner, client };
}
