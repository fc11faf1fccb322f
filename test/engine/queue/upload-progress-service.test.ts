import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UploadProgressView } from '../../../shared';
import { UploadProgress } from '../../../electron/engine/queue/upload-progress';
import type { QueueEvent } from '../../../electron/engine/queue/queue-item';
import { startTestService, type TestService } from '../../../harness/local-service';
import { queueWorld, type QueueWorld } from './queue-fixtures';

const MB = 1024 * 1024;
/** What a multipart body adds to a file (boundaries, the form's fields): a few hundred bytes. */
const ENVELOPE = 2_048;

let service: TestService;
let token: string;
let world: QueueWorld;
let designId: number;

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  token = service.addUser('uploader').token;
});
afterAll(() => service.stop());
beforeEach(async () => {
  await service.request('DELETE', '/__admin/faults');
  world = await queueWorld(service.url, token, { concurrency: 1 });
  designId = (await world.api.createDesign({ name: 'Gearbox', excerpt: 'Gears' })).id;
  world.folders.link('Gearbox', designId);
});
afterEach(async () => {
  await world.dispose();
  await service.request('DELETE', '/__admin/faults');
});

describe('upload progress of a burst sent to the service', () => {
  it('counts the files and bytes of the burst while its second file is being sent, and ends with the burst', async () => {
    // Each upload is held a moment by the service, so that the queue is seen mid-way.
    expect((await service.request('POST', '/__admin/faults', { json: { kind: 'latency', ms: 300, method: 'POST', path: '/documents$' } })).status).toBe(201);
    const sizes = [2 * MB, 3 * MB, 1 * MB];
    sizes.forEach((size, index) => {
      world.write(`Gearbox/part-${index}.stl`, randomBytes(size));
      world.enqueueUpload(`Gearbox/part-${index}.stl`, 'document', designId);
    });
    const progress = new UploadProgress(world.store);
    const atStart = progress.facts();
    expect(atStart).toMatchObject({ filesDone: 0, filesSending: 0, filesTotal: 3, bytesSent: 0, bytesTotal: 6 * MB });

    // The facts as the second file reports its first bytes sent.
    let midway: UploadProgressView | null = null;
    const second = world.store.list().find((item) => item.path === 'Gearbox/part-1.stl')!.id;
    const onChange = (event: QueueEvent) => {
      if (!midway && event.type === 'item' && event.item.id === second && event.item.state === 'running' && event.item.bytesSent > 0) midway = progress.facts();
    };
    world.store.on('change', onChange);
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 30_000 });
    world.store.off('change', onChange);

    expect(midway).toMatchObject({ filesDone: 1, filesSending: 1, filesTotal: 3 });
    const { bytesSent, bytesTotal } = midway!;
    expect(bytesTotal).toBeGreaterThanOrEqual(6 * MB);
    expect(bytesTotal).toBeLessThan(6 * MB + 3 * ENVELOPE);
    expect(bytesSent).toBeGreaterThan(2 * MB);
    expect(bytesSent).toBeLessThan(5 * MB + 2 * ENVELOPE);
    // A file no longer being sent has no rate of its own.
    expect(progress.fileRate(second)).toBeNull();

    // Done: the queue is idle, no burst is under way, and every file is on the service.
    expect(progress.facts()).toBeNull();
    expect((await world.api.listDocuments(designId)).map((document) => document.name).sort()).toEqual(['part-0.stl', 'part-1.stl', 'part-2.stl']);
    progress.close();
  });
});
