import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { startTestService, type TestService } from '../../../harness/local-service';

/**
 * An error the local service is told to answer (a fault) comes after the request's body was read, as a real service
 * answers: an upload still being sent then gets the answer, never a reset connection (which the queue would take
 * for the service being away, not for the error it was asked to show).
 */
let service: TestService;
let token: string;
const dir = mkdtempSync(join(tmpdir(), 'design-sync-fault-body-'));

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  token = service.addUser('uploader').token;
});
afterAll(async () => {
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('an injected error answered to an upload', () => {
  it('reaches the client as the error, also for a 20 MB body, each of 5 times', async () => {
    const client = new ServiceClient({ baseUrl: service.url, token: () => token, retry: { retries: 0 } });
    const design = await client.createDesign({ name: 'Big', excerpt: 'x' });
    const path = join(dir, 'big.stl');
    writeFileSync(path, Buffer.alloc(20 * 1024 * 1024, 7));
    expect((await service.request('POST', '/__admin/faults', { json: { kind: 'status', status: 500, method: 'POST', path: '/documents$', count: 5 } })).status).toBe(201);
    for (let attempt = 0; attempt < 5; attempt++) {
      const failure = await client.uploadDocument(design.id, { path }, { name: 'big.stl' }).then(() => null, (error: unknown) => error);
      expect(failure).toMatchObject({ problem: { kind: 'server-error', status: 500 } });
    }
    expect(await client.listDocuments(design.id)).toEqual([]);
  }, 60_000);
});
