import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QueueItemView } from '../../../shared';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { Session } from '../../../electron/engine/authorization/session';
import { QueueRunner, queueClient, type QueueRunnerOptions } from '../../../electron/engine/queue/queue-runner';
import type { QueueEvent } from '../../../electron/engine/queue/queue-item';
import type { SyncEvent } from '../../../electron/engine/sync/sync-context';
import { openSyncDatabase, type SyncDatabase } from '../../../electron/engine/sync-state/sync-database';
import { SyncEngine, type SyncEngineOptions } from '../../../electron/engine/sync/sync-engine';
import { tempDir } from '../cache/cache-fixtures';

/**
 * One "computer": a profile directory with its sync database, a sync root, the sync engine on them, and the real
 * queue runner of that profile (its own session holding the user's token), as the app and `design-sync sync` run them.
 */
export interface Computer {
  profile: string;
  rootPath: string;
  db: SyncDatabase;
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

export type ComputerOptions = Partial<SyncEngineOptions> & { root?: string; runner?: Partial<QueueRunnerOptions> };

export async function makeComputer(url: string, token: string, options: ComputerOptions = {}): Promise<Computer> {
  const { root, runner: runnerOptions, ...engineOptions } = options;
  const profile = tempDir('sync-profile');
  const rootParent = root ? null : tempDir('sync-root');
  const rootPath = root ?? join(rootParent!, 'Designs');
  mkdirSync(rootPath, { recursive: true });
  const db = openSyncDatabase(join(profile, 'sync.sqlite'));
  const session = new Session(new MemoryTokenStore(token));
  await session.load();
  const client = engineOptions.client ?? clientFor(url, token);
  const settleMs = engineOptions.settleMs ?? 120;
  const engine = new SyncEngine({ db, client, session, maxSettleWaitMs: 10_000, trash: 'folder', ...engineOptions, settleMs });
  engine.root.choose(rootPath, { profileDir: profile });
  // The runner shares the engine's store, so each sees the other's writes as events (as in the app).
  const runner = new QueueRunner({ store: engine.queue, session, client: queueClient(session, url, 'design-sync-test'), settleMs, random: () => 0.5, ...runnerOptions });
  const events: SyncEvent[] = [];
  engine.on('event', (event) => events.push(event));
  return {
    profile, rootPath: engine.root.current()!.path, db, client, session, engine, runner, events,
    async dispose() {
      await runner.stop();
      await engine.stop();
      db.close();
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
