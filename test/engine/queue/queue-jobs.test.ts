import { createHash } from 'node:crypto';
import { existsSync, renameSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { QueueEvent } from '../../../electron/engine/queue/queue-item';
import { startTestService, type TestService } from '../../../harness/local-service';
import { queueWorld, readFixture, type QueueWorld } from './queue-fixtures';

let service: TestService;
let token: string;
let world: QueueWorld;
let designId: number;

const sha1 = (data: Buffer | string) => createHash('sha1').update(data).digest('hex');

function activity(): string {
  return world.store.recentActivity(100).map((a) => a.message).join('\n');
}

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  token = service.addUser('queue-maker').token;
});
afterAll(() => service.stop());

beforeEach(async () => {
  world = await queueWorld(service.url, token);
  designId = (await world.api.createDesign({ name: 'Gearbox', excerpt: 'Gears' })).id;
  world.folders.link('Gearbox', designId);
});
afterEach(() => world.dispose());

describe('the queue runner, one job kind at a time, against the local service', () => {
  it('uploads images and documents, records each as synced with its remote id and hash, and reports bytes sent', async () => {
    world.copy('Gearbox/front.jpg', 'images/jpg-large.jpg');
    world.copy('Gearbox/gear.stl', 'models/cube.stl');
    const image = world.enqueueUpload('Gearbox/front.jpg', 'image', designId);
    const document = world.enqueueUpload('Gearbox/gear.stl', 'document', designId);
    const progress: { id: number; sent: number; total: number | null }[] = [];
    world.store.on('change', (event: QueueEvent) => {
      if (event.type === 'item' && event.item.state === 'running' && event.item.bytesSent > 0) progress.push({ id: event.item.id, sent: event.item.bytesSent, total: event.item.bytesTotal });
    });

    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 20_000 });

    expect(world.store.get(image)).toMatchObject({ state: 'done', attempts: 1 });
    expect(world.store.get(document)).toMatchObject({ state: 'done' });
    const images = await world.api.listImages(designId);
    const documents = await world.api.listDocuments(designId);
    expect(images.map((i) => i.name)).toEqual(['front.jpg']);
    expect(documents.map((d) => d.name)).toEqual(['gear.stl']);
    expect(world.baseFiles.get('Gearbox/gear.stl')).toMatchObject({
      folder: 'Gearbox', designId, kind: 'document', remoteId: documents[0]!.id, remoteName: 'gear.stl',
      sha1: sha1(readFixture('models/cube.stl')), size: readFixture('models/cube.stl').length,
    });
    expect(documents[0]!.modelhash).toBe(world.baseFiles.get('Gearbox/gear.stl')!.sha1);
    expect(world.baseFiles.get('Gearbox/front.jpg')).toMatchObject({ kind: 'image', remoteId: images[0]!.id, inode: expect.stringMatching(/^\d+:\d+$/) });
    const last = progress.filter((p) => p.id === image).at(-1)!;
    expect(last.sent).toBe(last.total);
    expect(last.total).toBeGreaterThan(readFixture('images/jpg-large.jpg').length);
    expect(activity()).toMatch(/Uploaded Gearbox\/front\.jpg/);
    expect(world.store.status().state).toBe('idle');
  });

  it('refuses a GIF image and a Windows program before sending anything, and says why', async () => {
    world.copy('Gearbox/anim.gif', 'images/gif-sample.gif');
    const exe = Buffer.alloc(256);
    exe.write('MZ', 0, 'latin1');
    exe.writeUInt32LE(128, 60);
    exe.write('PE\0\0', 128, 'latin1');
    world.write('Gearbox/setup.bin', exe);
    world.write('Gearbox/tool.exe', 'not even a program');
    const gif = world.enqueueUpload('Gearbox/anim.gif', 'image', designId);
    const pe = world.enqueueUpload('Gearbox/setup.bin', 'document', designId);
    const named = world.enqueueUpload('Gearbox/tool.exe', 'document', designId);

    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });

    expect(world.store.get(gif)).toMatchObject({ state: 'attention', attention: 'refused', reason: expect.stringMatching(/\.gif is not an accepted image type/) });
    expect(world.store.get(pe)).toMatchObject({ state: 'attention', attention: 'refused', reason: expect.stringMatching(/Windows program/) });
    expect(world.store.get(named)).toMatchObject({ state: 'attention', attention: 'refused', reason: expect.stringMatching(/executable/) });
    expect(await world.api.listImages(designId)).toEqual([]);
    expect(await world.api.listDocuments(designId)).toEqual([]);
  });

  it('replaces a changed file in place: same record, new content, the name kept', async () => {
    world.copy('Gearbox/part.obj', 'models/box.obj');
    world.enqueueUpload('Gearbox/part.obj', 'document', designId);
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    const base = world.baseFiles.get('Gearbox/part.obj')!;

    const version = world.copy('Gearbox/part.obj', 'models/teapot.obj');
    const replace = world.store.enqueue({ kind: 'replace', path: 'Gearbox/part.obj', folder: 'Gearbox', designId, fileKind: 'document', remoteId: base.remoteId, file: version }).id;
    await world.runner.waitForIdle({ timeoutMs: 10_000 });

    expect(world.store.get(replace)!.state).toBe('done');
    const documents = await world.api.listDocuments(designId);
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject({ id: base.remoteId, name: 'part.obj', modelhash: sha1(readFixture('models/teapot.obj')) });
    expect(world.baseFiles.get('Gearbox/part.obj')).toMatchObject({ remoteId: base.remoteId, sha1: sha1(readFixture('models/teapot.obj')), size: version.size });
  });

  it('renames on the service without sending the file again, and moves the synced state', async () => {
    world.copy('Gearbox/old.png', 'images/png-sample.png');
    world.enqueueUpload('Gearbox/old.png', 'image', designId);
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    const base = world.baseFiles.get('Gearbox/old.png')!;

    renameSync(join(world.root, 'Gearbox/old.png'), join(world.root, 'Gearbox/new.png'));
    const rename = world.store.enqueue({ kind: 'rename', path: 'Gearbox/new.png', folder: 'Gearbox', designId, fileKind: 'image', remoteId: base.remoteId, payload: { fromPath: 'Gearbox/old.png', newName: 'new.png' } }).id;
    await world.runner.waitForIdle({ timeoutMs: 10_000 });

    expect(world.store.get(rename)!.state).toBe('done');
    const images = await world.api.listImages(designId);
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ id: base.remoteId, name: 'new.png' });
    expect(world.baseFiles.get('Gearbox/old.png')).toBeNull();
    expect(world.baseFiles.get('Gearbox/new.png')).toMatchObject({ remoteId: base.remoteId, remoteName: 'new.png', sha1: base.sha1 });
  });

  it('deletes on the service only once confirmed, and forgets the synced file', async () => {
    world.copy('Gearbox/gone.stl', 'models/cube.stl');
    world.enqueueUpload('Gearbox/gone.stl', 'document', designId);
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    const base = world.baseFiles.get('Gearbox/gone.stl')!;
    rmSync(join(world.root, 'Gearbox/gone.stl'));

    const remove = world.store.enqueue({ kind: 'delete-remote', path: 'Gearbox/gone.stl', folder: 'Gearbox', designId, fileKind: 'document', remoteId: base.remoteId }).id;
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(remove)).toMatchObject({ state: 'attention', attention: 'confirm-delete', reason: expect.stringMatching(/confirm to delete it on the service/) });
    expect(await world.api.listDocuments(designId)).toHaveLength(1);

    world.store.confirm(remove);
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(remove)!.state).toBe('done');
    expect(await world.api.listDocuments(designId)).toEqual([]);
    expect(world.baseFiles.get('Gearbox/gone.stl')).toBeNull();
  });

  it('creates a design for a new folder only once confirmed, publishes it when asked, and links the folder', async () => {
    world.folders.setState('Clamp', 'proposed');
    const create = world.store.enqueue({ kind: 'create-design', folder: 'Clamp', payload: {} }).id;
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(create)).toMatchObject({ state: 'attention', attention: 'confirm-design' });

    world.store.confirm(create, { name: 'Bench clamp', excerpt: 'Holds things', license: 'cc0', publish: true });
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(create)!.state).toBe('done');
    const linked = world.folders.get('Clamp')!;
    expect(linked.state).toBe('linked');
    const design = await world.api.getDesign(linked.designId!);
    expect(design).toMatchObject({ name: 'Bench clamp', excerpt: 'Holds things', license: 'cc0', state: 'published' });
    expect(activity()).toMatch(/Created the design "Bench clamp" for the folder "Clamp", published/);
  });

  it('asks again when the confirmed design is not valid, without creating anything', async () => {
    const create = world.store.enqueue({ kind: 'create-design', folder: 'Blank', payload: {}, attention: { kind: 'confirm-design', reason: 'new folder' } }).id;
    world.store.confirm(create, { name: '', excerpt: 'x' });
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(create)).toMatchObject({ state: 'attention', attention: 'confirm-design', reason: expect.stringMatching(/Name can't be blank/) });
    expect(world.folders.get('Blank')).toBeNull();
  });

  it('cancels the upload of a file removed before it was sent, with a line in the activity', async () => {
    world.copy('Gearbox/brief.stl', 'models/cube.stl');
    const item = world.enqueueUpload('Gearbox/brief.stl', 'document', designId);
    rmSync(join(world.root, 'Gearbox/brief.stl'));
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(item)).toMatchObject({ state: 'cancelled' });
    expect(activity()).toMatch(/Gearbox\/brief\.stl was removed from the folder before it was sent/);
    expect(await world.api.listDocuments(designId)).toEqual([]);
  });

  it('waits while a file is still changing, then sends the version that settled', async () => {
    world.copy('Gearbox/busy.stl', 'models/cube.stl');
    const item = world.enqueueUpload('Gearbox/busy.stl', 'document', designId);
    world.copy('Gearbox/busy.stl', 'models/box.obj');
    world.runner.start();
    await world.runner.waitUntil(() => world.store.get(item)!.reason?.includes('still changing') ?? false, { timeoutMs: 5_000 });
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(item)!.state).toBe('done');
    const documents = await world.api.listDocuments(designId);
    expect(documents.map((d) => d.modelhash)).toEqual([sha1(readFixture('models/box.obj'))]);
    expect(world.baseFiles.get('Gearbox/busy.stl')!.sha1).toBe(sha1(readFixture('models/box.obj')));
  });

  it('records the version that was sent when the file changes after its upload went out, so the newer one follows', async () => {
    world.copy('Gearbox/live.stl', 'models/cube.stl');
    const item = world.enqueueUpload('Gearbox/live.stl', 'document', designId);
    const sent = sha1(readFixture('models/cube.stl'));
    await service.request('POST', '/__admin/faults', { json: { kind: 'latency', ms: 500, method: 'POST', path: '/documents$', count: 1 } });
    world.runner.start();
    await world.runner.waitUntil(() => {
      const row = world.store.get(item)!;
      return row.state === 'running' && row.bytesTotal !== null && row.bytesSent === row.bytesTotal;
    }, { timeoutMs: 5_000 });
    const later = Date.now() / 1000 + 5;
    world.write('Gearbox/live.stl', 'a newer version');
    utimesSync(join(world.root, 'Gearbox/live.stl'), later, later);
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(item)!.state).toBe('done');
    const base = world.baseFiles.get('Gearbox/live.stl')!;
    expect(base.sha1).toBe(sent);
    expect(base.size).toBe(readFixture('models/cube.stl').length);
    expect((await world.api.listDocuments(designId)).map((d) => d.modelhash)).toEqual([sent]);
    expect(activity()).toMatch(/changed while it was uploading: the newer version will follow/);
  });

  it('sends the newer version when the file changes while it is being read, and does not take it for the service being away', async () => {
    const big = Buffer.alloc(24 * 1024 * 1024, 1);
    world.write('Gearbox/big.bin', big);
    const item = world.enqueueUpload('Gearbox/big.bin', 'document', designId);
    await service.request('POST', '/__admin/faults', { json: { kind: 'latency', ms: 300, method: 'POST', path: '/documents$', count: 1 } });
    world.runner.start();
    await world.runner.waitUntil(() => world.store.get(item)!.bytesSent > 0, { timeoutMs: 5_000 });
    const newer = Buffer.alloc(1024, 2);
    world.write('Gearbox/big.bin', newer);
    utimesSync(join(world.root, 'Gearbox/big.bin'), Date.now() / 1000 - 10, Date.now() / 1000 - 10);
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(item)!.state).toBe('done');
    const documents = await world.api.listDocuments(designId);
    expect(documents.map((d) => d.modelhash)).toEqual([sha1(newer)]);
    expect(world.baseFiles.get('Gearbox/big.bin')!.sha1).toBe(sha1(newer));
    expect(activity()).not.toMatch(/Cannot reach the service/);
  });

  it('a change queued while the same file uploads becomes a replace of the new record, never a second upload', async () => {
    world.copy('Gearbox/twice.stl', 'models/cube.stl');
    const first = world.enqueueUpload('Gearbox/twice.stl', 'document', designId);
    world.runner.start();
    await world.runner.waitUntil(() => world.store.get(first)!.state !== 'waiting', { timeoutMs: 5_000 });
    // Too quick to be a running upload every time; either way the second must not add a record.
    const version = world.copy('Gearbox/twice.stl', 'models/box.obj');
    const second = world.store.enqueue({ kind: 'upload', path: 'Gearbox/twice.stl', folder: 'Gearbox', designId, fileKind: 'document', file: version }).id;
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    const documents = await world.api.listDocuments(designId);
    expect(documents).toHaveLength(1);
    expect(documents[0]!.modelhash).toBe(sha1(readFixture('models/box.obj')));
    expect(world.store.get(second)!.state).toBe('done');
    expect(existsSync(join(world.root, 'Gearbox/twice.stl'))).toBe(true);
  });
});
