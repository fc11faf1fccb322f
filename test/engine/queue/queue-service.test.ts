import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QueueRefusal } from '../../../electron/engine/queue/queue-refusal';
import { QueueService, type QueueDecision, type QueueServiceDeps } from '../../../electron/engine/queue/queue-service';
import { QueueStore } from '../../../electron/engine/queue/queue-store';
import { openSyncDatabase, type SyncDatabase } from '../../../electron/engine/sync-state/sync-database';
import { startTestService, type TestService } from '../../../harness/local-service';
import { queueWorld, setSyncRoot, type QueueWorld } from './queue-fixtures';

/** What the service's decisions asked of the engine around it: the runner woken, designs looked at, copies discarded. */
interface Told {
  workAdded: number;
  lookedAt: number[][];
  discarded: string[];
  decisions: QueueDecision[];
}

function serviceOver(store: QueueStore, more: Partial<QueueServiceDeps> = {}): { queue: QueueService; told: Told } {
  const told: Told = { workAdded: 0, lookedAt: [], discarded: [], decisions: [] };
  const queue = new QueueService({
    store,
    workAdded: () => { told.workAdded += 1; },
    decisionTaken: (designIds) => { told.lookedAt.push(designIds); },
    discardConflictCopy: async (path) => { told.discarded.push(path); return `/trash/${path}`; },
    ...more,
  });
  queue.on('decided', (decision) => told.decisions.push(decision));
  return { queue, told };
}

/** The refusal `work` ends with (a QueueRefusal; anything else fails the test). */
function refusalOf(work: () => unknown): QueueRefusal {
  try {
    work();
  } catch (error) {
    if (error instanceof QueueRefusal) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the queue service: what a person decides about the queue', () => {
  let dir: string;
  let db: SyncDatabase;
  let store: QueueStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'design-sync-queue-service-'));
    db = openSyncDatabase(join(dir, 'sync.sqlite'));
    setSyncRoot(db, join(dir, 'Sync'));
    store = new QueueStore(db);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const upload = (path: string, designId = 7) => store.enqueue({ kind: 'upload', path, folder: path.split('/')[0], designId, fileKind: 'document' });
  const deletion = (path: string, designId = 7) => store.enqueue({
    kind: 'delete-remote', path, folder: path.split('/')[0], designId, fileKind: 'document', remoteId: 3,
    attention: { kind: 'confirm-delete', reason: `${path} was deleted from the folder.` },
  });
  const cancelLines = () => store.recentActivity(50).filter((entry) => /cancelled/.test(entry.message));

  it('turning down a deletion keeps the file on the service, says so in one activity line and has the design looked at at once', () => {
    const { queue, told } = serviceOver(store);
    const item = deletion('Gear/old.stl');
    const cancelled = queue.cancel(item.id);
    expect(cancelled.state).toBe('cancelled');
    expect(cancelLines().map((entry) => [entry.message, entry.path])).toEqual([['The deletion of Gear/old.stl was cancelled: the file stays on the service.', 'Gear/old.stl']]);
    expect(told.lookedAt).toEqual([[7]]);
    expect(told.decisions).toEqual([{ kind: 'cancel', items: [item.id], designIds: [7] }]);
  });

  it('a cancel whose caller looks at the service itself (the CLI, awaited) asks nothing more of the engine', () => {
    const { queue, told } = serviceOver(store);
    queue.cancel(upload('Gear/a.stl').id, { lookAtService: false });
    expect(told.lookedAt).toEqual([]);
    expect(cancelLines()).toHaveLength(1);
  });

  it('cancelling an item already done or cancelled is refused in words naming it, and changes nothing', () => {
    const { queue, told } = serviceOver(store);
    const item = upload('Gear/a.stl');
    store.done(item.id);
    const refusal = refusalOf(() => queue.cancel(item.id));
    expect(refusal.problem).toMatchObject({ kind: 'conflict', message: `Item ${item.id} (Gear/a.stl) is already done.` });
    expect(refusalOf(() => queue.cancel(999)).problem).toMatchObject({ kind: 'not-found', message: 'There is no queue item 999.' });
    expect(store.get(item.id)!.state).toBe('done');
    expect(store.recentActivity(50)).toEqual([]);
    expect(told).toEqual({ workAdded: 0, lookedAt: [], discarded: [], decisions: [] });
  });

  it('cancelling all says so in one line, and has every design they were about looked at once', () => {
    const { queue, told } = serviceOver(store);
    upload('Gear/a.stl', 7);
    upload('Gear/b.stl', 7);
    deletion('Clamp/c.stl', 9);
    store.done(upload('Clamp/done.stl', 9).id);
    expect(queue.cancelAll()).toEqual({ count: 3, designIds: [7, 9] });
    expect(store.status().counts).toMatchObject({ waiting: 0, attention: 0, cancelled: 3, done: 1 });
    expect(cancelLines().map((entry) => entry.message)).toEqual(['3 items were cancelled. Local files are untouched.']);
    expect(told.lookedAt).toEqual([[7, 9]]);
    expect(queue.cancelAll()).toEqual({ count: 0, designIds: [] });
    expect(cancelLines()).toHaveLength(1);
  });

  it('retrying a failed upload puts it back in line with a fresh count of attempts and wakes the runner; a done one is refused', () => {
    const { queue, told } = serviceOver(store);
    const failed = upload('Gear/a.stl');
    db.prepare(`UPDATE queue_items SET state = 'failed', attempts = 8, reason = 'Gave up.' WHERE id = ?`).run(failed.id);
    expect(queue.retry(failed.id)).toMatchObject({ state: 'waiting', attempts: 0, reason: null });
    expect(told.workAdded).toBe(1);
    const done = upload('Gear/b.stl');
    store.done(done.id);
    expect(refusalOf(() => queue.retry(done.id)).problem.message).toBe(`Item ${done.id} (Gear/b.stl) is done: only failed or waiting items can be retried.`);
    expect(told.workAdded).toBe(1);
  });

  it('confirming a new design checks its fields first: a license not in the list is refused field by field, and the folder keeps waiting for the person', () => {
    const { queue, told } = serviceOver(store);
    const proposal = store.enqueue({ kind: 'create-design', folder: 'Clamp', attention: { kind: 'confirm-design', reason: 'The folder "Clamp" is not linked to a design.' } });
    const refusal = refusalOf(() => queue.confirmNewDesign(proposal.id, { name: 'Clamp', excerpt: 'Holds', license: 'mine' }, false));
    expect(refusal.problem.kind).toBe('validation');
    expect(refusal.problem.kind === 'validation' && Object.keys(refusal.problem.fieldErrors)).toEqual(['license']);
    expect(store.get(proposal.id)).toMatchObject({ state: 'attention', attention: 'confirm-design' });
    expect(told.workAdded).toBe(0);

    const confirmed = queue.confirmNewDesign(proposal.id, { name: 'Clamp', excerpt: 'Holds', license: 'cc0' }, true);
    expect(confirmed).toMatchObject({ state: 'waiting', payload: { name: 'Clamp', excerpt: 'Holds', license: 'cc0', publish: true, confirmed: true } });
    expect(told.workAdded).toBe(1);
    expect(refusalOf(() => queue.confirmDeletion(proposal.id)).problem.message).toBe(`Item ${proposal.id} (the folder "Clamp") is waiting: there is no deletion to confirm.`);
  });

  it('sending what is ready to publish sends only those files: a deletion waiting for the person is left alone', () => {
    const { queue, told } = serviceOver(store);
    const ready = store.enqueue({ kind: 'upload', path: 'Gear/new.stl', folder: 'Gear', designId: 7, fileKind: 'document', attention: { kind: 'ready-to-publish', reason: 'Waits for review.' } });
    const waiting = deletion('Gear/old.stl');
    expect(queue.sendAllReady()).toBe(1);
    expect(store.get(ready.id)).toMatchObject({ state: 'waiting', payload: { confirmed: true } });
    expect(store.get(waiting.id)).toMatchObject({ state: 'attention', attention: 'confirm-delete' });
    expect(told.workAdded).toBe(1);
    expect(queue.sendAllReady()).toBe(0);
    expect(told.workAdded).toBe(1);
  });

  it('settling a conflict by keeping the service\'s version moves the person\'s copy to the trash before the item leaves the queue', async () => {
    const conflict = () => store.enqueue({
      kind: 'upload', path: 'Gear/gear (conflicted copy).stl', folder: 'Gear', designId: 7, fileKind: 'document',
      attention: { kind: 'conflict', reason: 'Changed here and on the service.' }, payload: { conflictOf: 'Gear/gear.stl' },
    });
    const { queue, told } = serviceOver(store);
    const first = conflict();
    expect((await queue.resolveConflict(first.id, 'service')).state).toBe('cancelled');
    expect(told.discarded).toEqual(['Gear/gear (conflicted copy).stl']);
    expect(told.lookedAt).toEqual([[7]]);

    const second = conflict();
    const failing = serviceOver(store, { discardConflictCopy: () => Promise.reject(new Error('The trash cannot be reached.')) }).queue;
    await expect(failing.resolveConflict(second.id, 'service')).rejects.toThrow('The trash cannot be reached.');
    expect(store.get(second.id)).toMatchObject({ state: 'attention', attention: 'conflict' });
    expect((await queue.resolveConflict(second.id, 'both')).state).toBe('waiting');
    expect(told.workAdded).toBe(1);
  });

  it('a pause of all uploads for an hour says when it ends; resuming wakes the runner', () => {
    const now = Date.now();
    const { queue, told } = serviceOver(store, { now: () => now });
    upload('Gear/a.stl');
    expect(queue.pauseAll('hour')).toEqual({ until: now + 60 * 60_000, waiting: 1 });
    expect(queue.status()).toMatchObject({ queuePaused: true, queuePausedUntil: now + 60 * 60_000 });
    expect(queue.resumeAll()).toEqual({ waiting: 1 });
    expect(queue.status().queuePaused).toBe(false);
    expect(told.workAdded).toBe(1);
    expect(told.decisions.map((decision) => [decision.kind, decision.items])).toEqual([['pause', 'all'], ['resume', 'all']]);
  });
});

describe('the queue service with a runner sending to the service', () => {
  let service: TestService;
  let token: string;
  let world: QueueWorld;
  let designId: number;

  beforeAll(async () => {
    service = await startTestService({ faultInjection: true });
    token = service.addUser('decider').token;
  });
  afterAll(() => service.stop());
  beforeEach(async () => {
    await service.request('DELETE', '/__admin/faults');
    world = await queueWorld(service.url, token);
    designId = (await world.api.createDesign({ name: 'Decisions', excerpt: 'x' })).id;
    world.folders.link('Decisions', designId);
  });
  afterEach(() => world.dispose());

  it('cancelling an upload that is being sent stops it and logs one activity line; the file is never lost nor sent twice', async () => {
    const { queue } = serviceOver(world.store);
    world.write('Decisions/busy.stl', 'solid busy\nendsolid busy\n');
    const id = world.enqueueUpload('Decisions/busy.stl', 'document', designId);
    // The service holds the request before handling it: the item is being sent when it is cancelled.
    expect((await service.request('POST', '/__admin/faults', { json: { kind: 'latency', ms: 1_500, method: 'POST', path: '/documents$', count: 1 } })).status).toBe(201);
    world.runner.start();
    await world.runner.waitUntil(() => world.store.get(id)!.state === 'running', { timeoutMs: 5_000 });
    queue.cancel(id);
    await world.runner.waitForIdle({ timeoutMs: 10_000 });

    const lines = world.store.recentActivity(50).filter((entry) => entry.path === 'Decisions/busy.stl');
    expect(lines.filter((entry) => / was cancelled/.test(entry.message)).map((entry) => entry.message)).toEqual(['The upload of Decisions/busy.stl was cancelled. Local files are untouched.']);
    expect(existsSync(join(world.root, 'Decisions/busy.stl'))).toBe(true);
    // Had the service taken it all the same, it is kept as synced (and a second line says so); never made twice.
    const state = world.store.get(id)!.state;
    expect(['cancelled', 'done']).toContain(state);
    expect((await world.api.listDocuments(designId)).map((document) => document.name)).toEqual(state === 'done' ? ['busy.stl'] : []);
    expect(lines.length).toBe(state === 'done' ? 2 : 1);
  });
});
