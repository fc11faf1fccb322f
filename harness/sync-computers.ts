import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QueueItemView } from '../shared';
import { ServiceClient } from '../electron/engine/api/service-client';
import { MemoryTokenStore } from '../electron/engine/authorization/memory-token-store';
import { Session } from '../electron/engine/authorization/session';
import { openDesignCache, type DesignCache } from '../electron/engine/cache/design-cache';
import type { QueueRunner } from '../electron/engine/queue/queue-runner';
import type { QueueEvent } from '../electron/engine/queue/queue-item';
import { QueueStore } from '../electron/engine/queue/queue-store';
import { makeSyncParts, type SyncPartsOptions } from '../electron/engine/runtime/sync-parts';
import type { SyncEvent } from '../electron/engine/sync/sync-context';
import { openSyncDatabase, type SyncDatabase } from '../electron/engine/sync-state/sync-database';
import type { SyncEngine } from '../electron/engine/sync/sync-engine';
import { tempDir } from './temp-dir';

/**
 * One "computer": a profile directory with its sync database, cache and queue, a sync root, and the sync engine and
 * queue runner on them, made by the app's own assembly (runtime/sync-parts.ts: the own designs pulled into the cache,
 * one queue shared by both) with a session holding the user's token, as the app and `design-sync sync` run them.
 */
export interface Computer {
  profile: string;
  rootPath: string;
  db: SyncDatabase;
  cache: DesignCache;
  client: ServiceClient;
  session: Session;
  engine: SyncEngine;
  runner: QueueRunner;
  events: SyncEvent[];
  dispose(): Promise<void>;
}

export function clientFor(url: string, token: string): ServiceClient {
  return new ServiceClient({ baseUrl: url, token: () => token, retry: { retries: 1, minDelayMs: 5, maxDelayMs: 10 } });
}

export interface ComputerOptions {
  root?: string;
  settleMs?: number;
  rescanIntervalMs?: number;
  remotePollMs?: number;
  tuning?: SyncPartsOptions['tuning'];
  reviewBeforePublishing?: () => boolean;
}

/**
 * The sync engine and queue runner on a profile's databases, made as the app makes them (makeSyncParts), with the
 * tests' shorter timings.
 */
export function assemble(options: Omit<ComputerOptions, 'root'> & { url: string; db: SyncDatabase; cache: DesignCache; session: Session }) {
  return makeSyncParts({
    baseUrl: options.url, userAgent: 'design-sync-test', session: options.session, cache: options.cache, db: options.db,
    queue: new QueueStore(options.db), transportHooks: {},
    settleMs: options.settleMs ?? 120, rescanIntervalMs: options.rescanIntervalMs ?? 10 * 60_000, trash: 'folder', contentPolicyAccepted: () => true,
    ...(options.remotePollMs !== undefined ? { remotePollMs: options.remotePollMs } : {}),
    ...(options.reviewBeforePublishing ? { reviewBeforePublishing: options.reviewBeforePublishing } : {}),
    tuning: { maxSettleWaitMs: 10_000, emptySettleMs: 300, random: () => 0.5, ...options.tuning },
  });
}

export async function makeComputer(url: string, token: string, options: ComputerOptions = {}): Promise<Computer> {
  const profile = tempDir('sync-profile');
  const rootParent = options.root ? null : tempDir('sync-root');
  const rootPath = options.root ?? join(rootParent!, 'Designs');
  mkdirSync(rootPath, { recursive: true });
  const db = openSyncDatabase(join(profile, 'sync.sqlite'));
  const cache = openDesignCache({ cacheDatabase: join(profile, 'cache.sqlite'), fileCache: join(profile, 'files') });
  const session = new Session(new MemoryTokenStore(token));
  await session.load();
  // The tests' own client (quick retries); sync makes its own, as the app does.
  const client = clientFor(url, token);
  const settleMs = options.settleMs ?? 120;
  const { sync: engine, runner } = assemble({ url, db, cache, session, ...options, settleMs });
  engine.root.choose(rootPath, { profileDir: profile });
  const events: SyncEvent[] = [];
  engine.on('event', (event) => events.push(event));
  return {
    profile, rootPath: engine.root.current()!.path, db, cache, client, session, engine, runner, events,
    async dispose() {
      await runner.stop();
      await engine.stop();
      db.close();
      cache.close();
      rmSync(profile, { recursive: true, force: true });
      rmSync(rootParent ?? rootPath, { recursive: true, force: true });
    },
  };
}

/**
 * Lets the computer's queue runner send what waits, until it has nothing left to send now (runner.waitForIdle),
 * then stops it, so the test sees the queue as the next scan leaves it. Returns the items that were completed.
 */
export async function send(computer: Computer, options: { keepRunning?: boolean; timeoutMs?: number } = {}): Promise<QueueItemView[]> {
  const { engine, runner } = computer;
  const done = new Map<number, QueueItemView>();
  const onChange = (event: QueueEvent) => {
    if (event.type === 'item' && event.item.state === 'done') done.set(event.item.id, event.item);
  };
  engine.queue.on('change', onChange);
  try {
    runner.start();
    await runner.waitForIdle({ timeoutMs: options.timeoutMs ?? 20_000 });
  } finally {
    engine.queue.off('change', onChange);
    if (!options.keepRunning) await runner.stop();
  }
  return [...done.values()].sort((a, b) => a.id - b.id);
}

export const pending = (computer: Computer) => computer.engine.queue.list({ states: ['waiting', 'attention', 'running'] });

/**
 * A new user with one design ("Bracket") synced on a new computer, its folder holding `files` files part-<i>.stl, all
 * sent. The computer is added to `computers` (for the test file to dispose of).
 */
export async function syncedFolder(
  service: { url: string; addUser(screenName: string): { token: string } }, screenName: string, files: number, computers: Computer[],
  options: ComputerOptions = {},
) {
  const { token } = service.addUser(screenName);
  const api = clientFor(service.url, token);
  const design = await api.createDesign({ name: 'Bracket', excerpt: 'A bracket', license: 'cc0' });
  const computer = await makeComputer(service.url, token, options);
  computers.push(computer);
  await computer.engine.syncOnce({ settle: 'wait' });
  const folder = computer.engine.folders.ofDesign(design.id)!.folder;
  const dir = join(computer.rootPath, folder);
  for (let i = 0; i < files; i++) writeFileSync(join(dir, `part-${i}.stl`), `part ${i}`);
  await computer.engine.syncOnce({ settle: 'wait' });
  await send(computer);
  return { computer, api, design, folder, dir, token };
}
