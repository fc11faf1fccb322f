import { join } from 'node:path';
import { ServiceClient } from '../../electron/engine/api/service-client';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { Session } from '../../electron/engine/authorization/session';
import { openDesignCache } from '../../electron/engine/cache/design-cache';
import { QueueStore } from '../../electron/engine/queue/queue-store';
import { makeSyncParts, type SyncPartsOptions } from '../../electron/engine/runtime/sync-parts';
import { openSyncDatabase } from '../../electron/engine/sync-state/sync-database';

/**
 * The sync engine and queue runner on a profile folder `dir` (sync database, cache), made as the app makes them
 * (runtime/sync-parts.ts). `token` null: signed out (a local-only benchmark that never asks the service).
 */
export async function benchSyncParts(dir: string, url: string, token: string | null, options: Partial<Pick<SyncPartsOptions, 'settleMs' | 'rescanIntervalMs' | 'remotePollMs' | 'tuning'>> = {}) {
  const db = openSyncDatabase(join(dir, 'sync.sqlite'));
  const cache = openDesignCache({ cacheDatabase: join(dir, 'cache.sqlite'), fileCache: join(dir, 'files') });
  const session = new Session(new MemoryTokenStore(token));
  await session.load();
  const client = new ServiceClient(session.transportOptions({ baseUrl: url, userAgent: 'design-sync-bench' }));
  const parts = makeSyncParts({
    baseUrl: url, userAgent: 'design-sync-bench', session, cache, db, queue: new QueueStore(db), transportHooks: {},
    settleMs: options.settleMs ?? 2_000, rescanIntervalMs: options.rescanIntervalMs ?? 10 * 60_000, trash: 'folder',
    contentPolicyAccepted: () => true,
    ...(options.remotePollMs !== undefined ? { remotePollMs: options.remotePollMs } : {}),
    ...(options.tuning ? { tuning: options.tuning } : {}),
  });
  return {
    ...parts, db, cache, session, client,
    async close() {
      await parts.runner.stop();
      await parts.sync.stop();
      db.close();
      cache.close();
    },
  };
}
