import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QueueStore } from '../../../electron/engine/queue/queue-store';
import { migrateSync, openSyncDatabase } from '../../../electron/engine/sync-state/sync-database';
import { startTestService, type TestService } from '../../../harness/local-service';
import { queueWorld, type QueueWorld } from './queue-fixtures';

let service: TestService;
let token: string;
let world: QueueWorld;
let designId: number;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function fault(rule: Record<string, unknown>): Promise<void> {
  expect((await service.request('POST', '/__admin/faults', { json: rule })).status).toBe(201);
}

function files(names: string[]): number[] {
  return names.map((name) => {
    world.write(`Controls/${name}`, `solid ${name}\nendsolid ${name}\n`);
    return world.enqueueUpload(`Controls/${name}`, 'document', designId);
  });
}

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  token = service.addUser('controller').token;
});
afterAll(() => service.stop());
beforeEach(async () => {
  await service.request('DELETE', '/__admin/faults');
  world = await queueWorld(service.url, token);
  designId = (await world.api.createDesign({ name: 'Controls', excerpt: 'x' })).id;
  world.folders.link('Controls', designId);
});
afterEach(() => world.dispose());

describe('pause, resume, retry and cancel', () => {
  it('a paused queue sends nothing; resuming it sends everything', async () => {
    world.store.setQueuePaused(true);
    const items = files(['a.stl', 'b.stl']);
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 5_000 });
    await pause(200);
    expect(items.map((id) => world.store.get(id)!.state)).toEqual(['waiting', 'waiting']);
    expect(await world.api.listDocuments(designId)).toEqual([]);

    world.store.setQueuePaused(false);
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(items.map((id) => world.store.get(id)!.state)).toEqual(['done', 'done']);
  });

  it('a paused item waits while the others go, and goes once resumed', async () => {
    const [held, free] = files(['held.stl', 'free.stl']);
    world.store.setPaused(held!, true);
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(held!)).toMatchObject({ state: 'waiting', paused: true });
    expect(world.store.get(free!)!.state).toBe('done');
    world.store.setPaused(held!, false);
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(held!)!.state).toBe('done');
    expect(await world.api.listDocuments(designId)).toHaveLength(2);
  });

  it('pausing an upload in progress stops it; resumed, it is on the service exactly once', async () => {
    const [item] = files(['slow.stl']);
    await fault({ kind: 'latency', ms: 500, method: 'POST', path: '/documents$', count: 1 });
    world.runner.start();
    await world.runner.waitUntil(() => world.store.get(item!)!.state === 'running', { timeoutMs: 5_000 });
    world.store.setPaused(item!, true);
    await world.runner.waitUntil(() => world.store.get(item!)!.state === 'waiting', { timeoutMs: 5_000 });
    await pause(700);
    world.store.setPaused(item!, false);
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(item!)!.state).toBe('done');
    expect(await world.api.listDocuments(designId)).toHaveLength(1);
  });

  it('cancelling never touches the local file; a cancelled upload in progress is either stopped or kept as done, never lost or doubled', async () => {
    const [waiting, running] = files(['keep.stl', 'busy.stl']);
    world.store.cancel(waiting!);
    await fault({ kind: 'latency', ms: 400, method: 'POST', path: '/documents$', count: 1 });
    world.runner.start();
    await world.runner.waitUntil(() => world.store.get(running!)!.state === 'running', { timeoutMs: 5_000 });
    world.store.cancel(running!);
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    await pause(600);
    expect(world.store.get(waiting!)!.state).toBe('cancelled');
    expect(existsSync(join(world.root, 'Controls/keep.stl'))).toBe(true);
    expect(existsSync(join(world.root, 'Controls/busy.stl'))).toBe(true);
    const documents = await world.api.listDocuments(designId);
    const state = world.store.get(running!)!.state;
    expect(['cancelled', 'done']).toContain(state);
    expect(documents.map((d) => d.name)).toEqual(state === 'done' ? ['busy.stl'] : []);
    expect(world.baseFiles.get('Controls/busy.stl') !== null).toBe(state === 'done');
  });

  it('retry all and cancel all act on every item that is not done', async () => {
    const [a, b, c] = files(['x.stl', 'y.stl', 'z.stl']);
    await fault({ kind: 'status', status: 500, method: 'POST', path: '/documents$', count: 2 });
    const runner = world.newRunner({ maxAttempts: 1, concurrency: 1 });
    runner.start();
    await runner.waitForIdle({ timeoutMs: 10_000 });
    expect([a, b, c].map((id) => world.store.get(id!)!.state)).toEqual(['failed', 'failed', 'done']);
    expect(world.store.retryAll()).toBe(2);
    await runner.waitForIdle({ timeoutMs: 10_000 });
    expect([a, b, c].map((id) => world.store.get(id!)!.state)).toEqual(['done', 'done', 'done']);

    world.store.setQueuePaused(true);
    const later = files(['p.stl', 'q.stl']);
    expect(world.store.cancelAll()).toBe(2);
    expect(later.map((id) => world.store.get(id)!.state)).toEqual(['cancelled', 'cancelled']);
  });

  it('follows what another process does to the queue: a resume or a retry there wakes the runner here', async () => {
    const other = new QueueStore(openSyncDatabase(join(world.dir, 'sync.sqlite')));
    try {
      other.setQueuePaused(true);
      world.runner.start();
      world.write('Controls/elsewhere.stl', 'solid e\nendsolid e\n');
      const item = world.enqueueUpload('Controls/elsewhere.stl', 'document', designId);
      await pause(200);
      expect(world.store.get(item)!.state).toBe('waiting');
      other.setQueuePaused(false);
      await world.runner.waitUntil(() => world.store.get(item)!.state === 'done', { timeoutMs: 5_000 });
    } finally {
      other.db.close();
    }
  });

  it('an idle runner uses no CPU worth measuring', async () => {
    files(['idle.stl']);
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    await pause(100);
    const before = process.cpuUsage();
    await pause(1_000);
    const used = process.cpuUsage(before);
    expect((used.user + used.system) / 1000).toBeLessThan(50);
  });
});

describe('sync migration 0002', () => {
  it('adds what an attempt sent to the queue items, leaving the items there as they were', () => {
    const db = new Database(':memory:');
    migrateSync(db, ':memory:', 1);
    db.prepare(`INSERT INTO queue_items (kind, state, path, payload, created_at, updated_at) VALUES ('upload', 'running', 'A/a.stl', '{}', 1, 1)`).run();
    migrateSync(db, ':memory:', 2);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    // The store of this version writes the columns of the migrations after 0002 too.
    migrateSync(db, ':memory:');
    const store = new QueueStore(db);
    expect(store.get(1)).toMatchObject({ state: 'running', path: 'A/a.stl', sent: null });
    expect(store.markSending(1, { at: 5, name: 'a.stl', sha1: 'ab', size: 3, mtimeMs: 4, inode: '1:2' })).toBe(true);
    expect(store.recoverInterrupted().map((item) => item.id)).toEqual([1]);
    expect(store.get(1)).toMatchObject({ state: 'waiting', sent: { at: 5, name: 'a.stl', sha1: 'ab', size: 3, mtimeMs: 4, inode: '1:2' } });
  });
});
