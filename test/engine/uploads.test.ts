import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../electron/engine/api/service-client';
import type { UploadProgress } from '../../electron/engine/api/multipart-upload';
import { problemOf } from '../support/problems';
import { startTestService, type TestService } from '../../harness/local-service';
import { prepareUsers, startServiceProcess } from '../../harness/service-process';

const fixture = (name: string) => join(import.meta.dirname, '../fixtures', name);

let service: TestService;
let api: ServiceClient;
let designId: number;
let workDir: string;


async function fault(rule: Record<string, unknown>) {
  expect((await service.request('POST', '/__admin/faults', { json: rule })).status).toBe(201);
}

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  const { token } = service.addUser('uploader');
  api = new ServiceClient({ baseUrl: service.url, token: () => token, retry: { retries: 2, minDelayMs: 5, maxDelayMs: 10 } });
  designId = (await api.createDesign({ name: 'Upload target', excerpt: 'x' })).id;
  workDir = mkdtempSync(join(tmpdir(), 'design-sync-uploads-'));
});
afterAll(async () => {
  await service.stop();
  rmSync(workDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await service.request('DELETE', '/__admin/faults');
});

describe('uploads through the client', () => {
  it('uploads an image from disk and reports progress up to the whole body', async () => {
    const progress: UploadProgress[] = [];
    const image = await api.uploadImage(designId, { path: fixture('images/jpg-large.jpg') }, { name: 'Large' }, { onProgress: (p) => progress.push(p) });
    expect(image).toMatchObject({ name: 'Large', imagable_id: designId });
    const last = progress.at(-1)!;
    expect(last.sentBytes).toBe(last.totalBytes);
    expect(last.totalBytes).toBeGreaterThan(statSync(fixture('images/jpg-large.jpg')).size);
  });

  it('uploads a document under another name and changes it with a new file', async () => {
    const created = await api.uploadDocument(designId, { path: fixture('models/cube.stl'), fileName: 'würfel.stl' });
    expect(created.name).toBe('würfel.stl');
    expect(created.stl_file.url).toBeTruthy();
    await api.updateDocument(designId, created.id, { name: 'Renamed cube' }, { path: fixture('models/box.obj') });
    const read = await api.getDocument(designId, created.id);
    expect(read.name).toBe('Renamed cube');
    expect(read.file_contains_3d_model).toBe(true);
  });

  it('reports a refused file as a validation problem naming the file', async () => {
    const problem = await problemOf(api.uploadImage(designId, { path: fixture('images/gif-sample.gif') }));
    expect(problem.kind).toBe('validation');
    expect(problem.message).toMatch(/gif-sample\.gif/);
  });

  it('never repeats an upload whose answer was lost, and says it may have been applied', async () => {
    await fault({ kind: 'drop_after_write', method: 'POST', path: '/documents$', count: 1 });
    const problem = await problemOf(api.uploadDocument(designId, { path: fixture('models/teapot.obj') }));
    expect(problem).toMatchObject({ kind: 'offline', maybeApplied: true });
    const rows = service.db.prepare("SELECT count(*) AS n FROM documents WHERE file_name = 'teapot.obj'").get() as { n: number };
    expect(rows.n).toBe(1);
  });

  it('sends an upload again after a 429, streaming the file anew', async () => {
    await fault({ kind: 'rate_limit', retryAfter: 0, method: 'POST', path: '/images$', count: 1 });
    const image = await api.uploadImage(designId, { path: fixture('images/png-sample.png') });
    expect(image.name).toBe('png-sample.png');
  });

  it('stops an upload the service stops taking, as offline', async () => {
    await fault({ kind: 'latency', ms: 5_000, method: 'POST', path: '/documents$', count: 1 });
    const path = join(workDir, 'stalled.bin');
    writeFileSync(path, Buffer.alloc(32 * 1024 * 1024, 7));
    const problem = await problemOf(api.uploadDocument(designId, { path }, {}, { stallTimeoutMs: 300 }));
    expect(problem.kind).toBe('offline');
  });

  it('can be cancelled', async () => {
    await fault({ kind: 'latency', ms: 2_000, method: 'POST', path: '/documents$', count: 1 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const problem = await problemOf(api.uploadDocument(designId, { path: fixture('models/airboat.obj') }, {}, { signal: controller.signal }));
    expect(problem.kind).toBe('cancelled');
  });
});

describe('a 1 GB upload', () => {
  it('streams from disk with flat memory in the client', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'design-sync-big-'));
    const { big } = prepareUsers(dataDir, ['big']);
    const remote = await startServiceProcess({ dataDir });
    try {
      const client = new ServiceClient({ baseUrl: remote.url, token: () => big!, retry: { retries: 0 } });
      const design = await client.createDesign({ name: 'Huge', excerpt: 'A sparse gigabyte' });
      const path = join(workDir, 'huge.bin');
      const fd = openSync(path, 'w');
      ftruncateSync(fd, 1024 ** 3);
      closeSync(fd);
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const created = await client.uploadDocument(design.id, { path }, {}, {
        onProgress: () => (peak = Math.max(peak, process.memoryUsage().rss)),
      });
      expect(created.name).toBe('huge.bin');
      const stored = await client.getDocument(design.id, created.id);
      expect(stored.modelhash).toMatch(/^[0-9a-f]{40}$/);
      expect(peak - before).toBeLessThan(150 * 1024 * 1024);
      rmSync(path);
    } finally {
      await remote.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
