import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { Session } from '../../../electron/engine/authorization/session';
import { QueueRunner, queueClient, type QueueRunnerOptions } from '../../../electron/engine/queue/queue-runner';
import { QueueStore } from '../../../electron/engine/queue/queue-store';
import { systemClock } from '../../../electron/engine/queue/clock';
import { BaseFiles } from '../../../electron/engine/sync-state/base-files';
import { DesignFolders } from '../../../electron/engine/sync-state/design-folders';
import { openSyncDatabase, type SyncDatabase } from '../../../electron/engine/sync-state/sync-database';
import { MARKER_FILE } from '../../../electron/engine/sync-state/sync-root';

export const FIXTURES = join(import.meta.dirname, '../../fixtures');

/** Puts the sync root into a sync database, and its marker into the folder (when it exists), as the folder side does when a folder is chosen. */
export function setSyncRoot(db: SyncDatabase, root: string): void {
  const at = Date.now();
  db.prepare(`INSERT INTO sync_root (id, path, marker, created_at) VALUES (1, ?, 'test-marker', ?)
              ON CONFLICT (id) DO UPDATE SET path = excluded.path`).run(root, at);
  if (existsSync(root)) writeFileSync(join(root, MARKER_FILE), JSON.stringify({ rootId: 'test-marker', createdAt: at }));
}

/** A profile with a sync folder, a signed-in session and a runner against a service; files written for real. */
export interface QueueWorld {
  dir: string;
  root: string;
  db: SyncDatabase;
  store: QueueStore;
  baseFiles: BaseFiles;
  folders: DesignFolders;
  session: Session;
  api: ServiceClient;
  runner: QueueRunner;
  /** Writes a file under the sync root; returns its version as the folder side would queue it. */
  write(path: string, content: Buffer | string): { size: number; mtimeMs: number };
  copy(path: string, fixture: string): { size: number; mtimeMs: number };
  enqueueUpload(path: string, fileKind: 'image' | 'document', designId: number): number;
  newRunner(options?: Partial<QueueRunnerOptions>): QueueRunner;
  dispose(): Promise<void>;
}

export async function queueWorld(serviceUrl: string, token: string, options: Partial<QueueRunnerOptions> = {}): Promise<QueueWorld> {
  const clock = options.clock ?? systemClock;
  const dir = mkdtempSync(join(tmpdir(), 'design-sync-queue-'));
  const root = join(dir, 'Sync');
  mkdirSync(root);
  const db = openSyncDatabase(join(dir, 'sync.sqlite'));
  setSyncRoot(db, root);
  const store = new QueueStore(db, () => clock.now(), clock);
  const session = new Session(new MemoryTokenStore());
  await session.signInWithToken(serviceUrl, token);
  const api = new ServiceClient({ baseUrl: serviceUrl, token: () => token, retry: { retries: 0 } });
  const runners: QueueRunner[] = [];
  const world: QueueWorld = {
    dir, root, db, store, session, api,
    baseFiles: new BaseFiles(db),
    folders: new DesignFolders(db),
    runner: undefined as unknown as QueueRunner,
    write(path, content) {
      const full = join(root, ...path.split('/'));
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
      const stat = statSync(full);
      return { size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs) };
    },
    copy(path, fixture) {
      return world.write(path, readFixture(fixture));
    },
    enqueueUpload(path, fileKind, designId) {
      const full = join(root, ...path.split('/'));
      const stat = statSync(full);
      return store.enqueue({
        kind: 'upload', path, folder: path.split('/')[0], designId, fileKind, file: { size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs) },
      }).id;
    },
    newRunner(more = {}) {
      const runner = new QueueRunner({ store, session, client: queueClient(session, serviceUrl), settleMs: 200, random: () => 0.5, ...options, ...more });
      runners.push(runner);
      return runner;
    },
    async dispose() {
      for (const runner of runners) await runner.stop();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  world.runner = world.newRunner();
  return world;
}


export function readFixture(name: string): Buffer {
  return readFileSync(join(FIXTURES, name));
}

/** The deterministic generator of the demo seed (mulberry32), for seeded tests. */
export { seededRandom } from '../../../service/seed/seeded-random';
