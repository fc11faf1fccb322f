import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { findApplication, grantAuthorization, liveAuthorization, REGISTERED_APPLICATION, revokeAuthorization } from '../../../service/authorization/integrations';
import { startService } from '../../../service/server/start-service';
import { startTestService, type TestService } from '../../../harness/local-service';
import { until } from '../../../harness/until';
import { ManualClock } from './manual-clock';
import { queueWorld, readFixture, type QueueWorld } from './queue-fixtures';

let service: TestService;
let token: string;
let userId: number;
let world: QueueWorld;
let designId: number;
let clock: ManualClock;

const sha1 = (data: Buffer | string) => createHash('sha1').update(data).digest('hex');

async function fault(rule: Record<string, unknown>): Promise<void> {
  expect((await service.request('POST', '/__admin/faults', { json: rule })).status).toBe(201);
}

function activity(): string {
  return world.store.recentActivity(100).map((a) => a.message).join('\n');
}

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  const added = service.addUser('troubled');
  token = added.token;
  userId = added.user.id;
});
afterAll(() => service.stop());

beforeEach(async () => {
  await service.request('DELETE', '/__admin/faults');
  clock = new ManualClock();
  world = await queueWorld(service.url, token, { clock });
  designId = (await world.api.createDesign({ name: 'Troubled', excerpt: 'x' })).id;
  world.folders.link('Troubled', designId);
});
afterEach(async () => {
  await world.dispose();
  await service.request('DELETE', '/__admin/faults');
});

/**
 * Lets each backoff of an item pass at once (the queue's clock moved on to its next attempt), until the item is no
 * longer waiting for one. Returns how many backoffs it went through.
 */
async function throughBackoffs(runner: QueueWorld['runner'], id: number): Promise<number> {
  let backoffs = 0;
  for (;;) {
    await runner.waitUntil(() => {
      const row = world.store.get(id)!;
      return (row.state !== 'waiting' && row.state !== 'running') || (row.state === 'waiting' && (row.nextAttemptAt > clock.now() || runner.blockedBy?.kind === 'offline'));
    }, { timeoutMs: 10_000 });
    const row = world.store.get(id)!;
    if (row.state !== 'waiting') return backoffs;
    // An injected error answered while the upload's body was still being sent can reach the client as a reset
    // connection: then the queue waits for the service (not an attempt, no backoff) and its probe comes next.
    if (runner.blockedBy?.kind === 'offline') {
      await until('the queue back from its wait for the service', () => {
        if (runner.blockedBy?.kind !== 'offline') return true;
        clock.advanceToNext();
        return false;
      }, 10_000);
      continue;
    }
    clock.advance(row.nextAttemptAt - clock.now());
    backoffs++;
  }
}

describe('problems of the service, as states of the queue', () => {
  it('honours Retry-After: the queue waits, says so, then sends by itself', async () => {
    world.copy('Troubled/a.stl', 'models/cube.stl');
    const item = world.enqueueUpload('Troubled/a.stl', 'document', designId);
    await fault({ kind: 'rate_limit', retryAfter: 120, method: 'POST', path: '/documents$', count: 1 });
    const started = clock.now();
    world.runner.start();
    await world.runner.waitUntil(() => world.runner.blockedBy?.kind === 'rate-limited', { timeoutMs: 5_000 });
    expect(activity()).toMatch(/asked to slow down: uploads resume in 120 s/);
    expect(world.store.get(item)!.state).toBe('waiting');
    expect(world.store.get(item)!.nextAttemptAt).toBeGreaterThanOrEqual(started + 120_000);

    clock.advance(119_000);
    expect(world.runner.blockedBy?.kind).toBe('rate-limited');
    expect(world.store.get(item)!.state).toBe('waiting');
    clock.advance(1_000);
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(clock.now() - started).toBeGreaterThanOrEqual(120_000);
    expect(world.store.get(item)).toMatchObject({ state: 'done', attempts: 1 });
    expect(world.runner.blockedBy).toBeNull();
    expect(world.store.status().state).toBe('idle');
  });

  it('retries a server error with backoff and gets there', async () => {
    world.copy('Troubled/b.stl', 'models/cube.stl');
    const item = world.enqueueUpload('Troubled/b.stl', 'document', designId);
    await fault({ kind: 'status', status: 503, method: 'POST', path: '/documents$', count: 2 });
    world.runner.start();
    expect(await throughBackoffs(world.runner, item)).toBe(2);
    expect(world.store.get(item)).toMatchObject({ state: 'done', attempts: 3 });
    expect(await world.api.listDocuments(designId)).toHaveLength(1);
    expect(activity()).toMatch(/The service failed: Injected fault: HTTP 503\. Trying again in/);
  });

  it('gives up after the most attempts allowed, with the reason, and a retry starts afresh', async () => {
    world.copy('Troubled/c.stl', 'models/cube.stl');
    const item = world.enqueueUpload('Troubled/c.stl', 'document', designId);
    // Every upload fails until the faults are lifted (an attempt met as a reset connection is not counted).
    await fault({ kind: 'status', status: 500, method: 'POST', path: '/documents$' });
    const runner = world.newRunner({ maxAttempts: 3 });
    runner.start();
    expect(await throughBackoffs(runner, item)).toBe(2);
    expect(world.store.get(item)).toMatchObject({ state: 'failed', attempts: 3, reason: expect.stringMatching(/Gave up after 3 attempts: The service failed: Injected fault: HTTP 500/) });
    await service.request('DELETE', '/__admin/faults');
    world.store.retry(item);
    await runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(item)).toMatchObject({ state: 'done', attempts: 1 });
  });

  it('asks a person about an image the service cannot read, in words, without the image library\'s text', async () => {
    world.copy('Troubled/broken.png', 'images/invalid-truncated.png');
    const item = world.enqueueUpload('Troubled/broken.png', 'image', designId);
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    const reason = 'The service could not read broken.png as an image: is it a complete PNG or JPEG file? Save it again and it is sent again, or cancel to leave it out.';
    expect(world.store.get(item)).toMatchObject({ state: 'attention', attention: 'invalid-file', reason });
    const lines = world.store.recentActivity(100).filter((a) => a.path === 'Troubled/broken.png').map((a) => a.message);
    expect(lines).toEqual([reason]);
  });

  it('fails an upload into a design that is not yours, saying so', async () => {
    const other = service.addUser('someone-else');
    const client = new ServiceClient({ baseUrl: service.url, token: () => other.token });
    const theirs = await client.createDesign({ name: 'Theirs', excerpt: 'x' });
    await client.publishDesign(theirs.id);
    world.copy('Troubled/d.stl', 'models/cube.stl');
    const item = world.enqueueUpload('Troubled/d.stl', 'document', theirs.id);
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(item)).toMatchObject({ state: 'failed', reason: 'You are not allowed to change the design of Troubled/d.stl: it is not yours, or no longer.' });
  });

  it('asks a person when the design was deleted on the service', async () => {
    await world.api.deleteDesign(designId);
    world.copy('Troubled/e.stl', 'models/cube.stl');
    const item = world.enqueueUpload('Troubled/e.stl', 'document', designId);
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(item)).toMatchObject({ state: 'attention', attention: 'missing-design', reason: expect.stringMatching(/no longer on the service/) });
  });

  it('fails a file larger than the service takes (413), with the reason', async () => {
    const small = await startTestService({ maxUploadBytes: 1024 });
    const { token: smallToken } = small.addUser('tiny');
    const tiny = await queueWorld(small.url, smallToken);
    try {
      const design = await tiny.api.createDesign({ name: 'Tiny', excerpt: 'x' });
      tiny.write('Tiny/big.bin', Buffer.alloc(64 * 1024, 3));
      const item = tiny.enqueueUpload('Tiny/big.bin', 'document', design.id);
      tiny.runner.start();
      await tiny.runner.waitForIdle({ timeoutMs: 10_000 });
      expect(tiny.store.get(item)).toMatchObject({ state: 'failed', reason: 'Tiny/big.bin is larger than the service accepts: make it smaller, or cancel to leave it out.' });
    } finally {
      await tiny.dispose();
      await small.stop();
    }
  });

  it('reconciles an upload whose answer was lost: the file is on the service exactly once', async () => {
    world.copy('Troubled/lost.obj', 'models/teapot.obj');
    world.copy('Troubled/lost.png', 'images/png-sample.png');
    const document = world.enqueueUpload('Troubled/lost.obj', 'document', designId);
    const image = world.enqueueUpload('Troubled/lost.png', 'image', designId);
    await fault({ kind: 'drop_after_write', method: 'POST', path: '/documents$', count: 1 });
    await fault({ kind: 'drop_after_write', method: 'POST', path: '/images$', count: 1 });
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 15_000 });
    expect(world.store.get(document)!.state).toBe('done');
    expect(world.store.get(image)!.state).toBe('done');
    const documents = await world.api.listDocuments(designId);
    const images = await world.api.listImages(designId);
    expect(documents.map((d) => d.modelhash)).toEqual([sha1(readFixture('models/teapot.obj'))]);
    expect(images.map((i) => i.name)).toEqual(['lost.png']);
    expect(world.baseFiles.get('Troubled/lost.obj')!.remoteId).toBe(documents[0]!.id);
    expect(world.baseFiles.get('Troubled/lost.png')!.remoteId).toBe(images[0]!.id);
    expect(activity()).toMatch(/Already on the service: Troubled\/lost\.obj/);
    expect(activity()).toMatch(/Already on the service: Troubled\/lost\.png/);
  });

  it('a runner stopped mid-upload leaves the item waiting; the next one reconciles it and nothing is made twice', async () => {
    world.copy('Troubled/stopped.obj', 'models/airboat.obj');
    const item = world.enqueueUpload('Troubled/stopped.obj', 'document', designId);
    await fault({ kind: 'latency', ms: 600, method: 'POST', path: '/documents$', count: 1 });
    world.runner.start();
    await world.runner.waitUntil(() => {
      const row = world.store.get(item)!;
      return row.bytesTotal !== null && row.bytesSent === row.bytesTotal;
    }, { timeoutMs: 5_000 });
    await world.runner.stop();
    expect(world.store.get(item)).toMatchObject({ state: 'waiting', sent: expect.objectContaining({ name: 'stopped.obj' }) });
    await new Promise((resolve) => setTimeout(resolve, 800));
    const next = world.newRunner();
    next.start();
    await next.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(item)!.state).toBe('done');
    expect(await world.api.listDocuments(designId)).toHaveLength(1);
  });
});

describe('waiting for the service and for sign-in', () => {
  it('waits while the service is unreachable, loses nothing, and resumes by itself when it is back', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'design-sync-offline-'));
    let local = await startService({ dataDir, port: 0 });
    const app = findApplication(local.db, REGISTERED_APPLICATION)!;
    const { createUser } = await import('../../../service/users/user-accounts');
    const user = createUser(local.db, { screenName: 'roamer', password: 'secret', now: Date.now() });
    const roamerToken = grantAuthorization(local.db, user.id, app.id, Date.now()).token;
    const offlineClock = new ManualClock();
    const offline = await queueWorld(local.url, roamerToken, { clock: offlineClock });
    try {
      const design = await offline.api.createDesign({ name: 'Roaming', excerpt: 'x' });
      const port = local.port;
      await local.close();
      const items = ['a', 'b', 'c'].map((name) => {
        offline.copy(`Roaming/${name}.stl`, 'models/cube.stl');
        offline.write(`Roaming/${name}.stl`, `solid ${name}\nendsolid ${name}\n`);
        return offline.enqueueUpload(`Roaming/${name}.stl`, 'document', design.id);
      });
      offline.runner.start();
      await offline.runner.waitUntil(() => offline.runner.blockedBy?.kind === 'offline', { timeoutMs: 5_000 });
      expect(offline.store.recentActivity(50).map((a) => a.message).join('\n')).toMatch(/cannot be reached: uploads wait and resume by themselves/);
      // Two probes fail (each sets the next, further off): nothing is lost meanwhile.
      for (let probe = 0; probe < 2; probe++) {
        const set = offlineClock.timersSet;
        expect(offlineClock.advanceToNext()).toBe(true);
        await until('the next probe', () => offlineClock.timersSet > set, 5_000);
      }
      expect(offline.runner.blockedBy?.kind).toBe('offline');
      expect(items.map((id) => offline.store.get(id)!.state)).toEqual(['waiting', 'waiting', 'waiting']);

      local = await startService({ dataDir, port });
      offlineClock.advanceToNext();
      await offline.runner.waitForIdle({ timeoutMs: 15_000 });
      expect(items.map((id) => offline.store.get(id)!.state)).toEqual(['done', 'done', 'done']);
      expect((await offline.api.listDocuments(design.id)).map((d) => d.name).sort()).toEqual(['a.stl', 'b.stl', 'c.stl']);
      expect(offline.store.status()).toMatchObject({ state: 'idle', reason: null });
      expect(offline.store.recentActivity(50).map((a) => a.message).join('\n')).toMatch(/reachable again/);
    } finally {
      await offline.dispose();
      await local.close().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('waits with "Sign in again" when the token is revoked mid-queue, and resumes after a new sign-in', async () => {
    const names = ['one', 'two', 'three'];
    for (const name of names) world.write(`Troubled/${name}.stl`, `solid ${name}\nendsolid ${name}\n`);
    const first = world.enqueueUpload('Troubled/one.stl', 'document', designId);
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(first)!.state).toBe('done');

    const app = findApplication(service.db, REGISTERED_APPLICATION)!;
    const authorization = liveAuthorization(service.db, userId, app.id)!;
    expect(revokeAuthorization(service.db, userId, authorization.id, Date.now())).toBe(true);
    const rest = names.slice(1).map((name) => world.enqueueUpload(`Troubled/${name}.stl`, 'document', designId));
    // Both may have gone out at once: the second one's refusal settles it back in line too.
    await world.runner.waitUntil(() => world.runner.blockedBy?.kind === 'sign-in' && rest.every((id) => world.store.get(id)!.state !== 'running'), { timeoutMs: 5_000 });
    expect(activity()).toMatch(/Sign in again/);
    expect(world.session.state.status).toBe('needs-sign-in');
    // Blocked: nothing more is claimed until the sign-in.
    expect(rest.map((id) => world.store.get(id)!.state)).toEqual(['waiting', 'waiting']);

    const fresh = grantAuthorization(service.db, userId, app.id, Date.now()).token;
    token = fresh;
    await world.session.signInWithToken(service.url, fresh);
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(rest.map((id) => world.store.get(id)!.state)).toEqual(['done', 'done']);
    const api = new ServiceClient({ baseUrl: service.url, token: () => fresh });
    expect((await api.listDocuments(designId)).map((d) => d.name).sort()).toEqual(['one.stl', 'three.stl', 'two.stl']);
    expect(world.store.status().state).toBe('idle');
  });

  it('does not send anything while signed out, and starts once signed in', async () => {
    world.copy('Troubled/later.stl', 'models/cube.stl');
    const item = world.enqueueUpload('Troubled/later.stl', 'document', designId);
    await world.session.signOut();
    world.runner.start();
    await world.runner.waitUntil(() => world.runner.blockedBy?.kind === 'sign-in', { timeoutMs: 5_000 });
    expect(activity()).toMatch(/Sign in to send your changes/);
    expect(world.store.get(item)!.state).toBe('waiting');
    await world.session.signInWithToken(service.url, token);
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(item)!.state).toBe('done');
  });
});
