import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../harness/local-service';

let service: TestService;
let token: string;

async function addFault(rule: Record<string, unknown>) {
  const response = await service.request('POST', '/__admin/faults', { json: rule });
  expect(response.status).toBe(201);
  return response.json() as Promise<{ id: number; hits: number }>;
}

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  token = service.addUser('faulty').token;
});
afterAll(() => service.stop());
beforeEach(async () => {
  await service.request('DELETE', '/__admin/faults');
});

describe('fault injection', () => {
  it('is not mounted unless the service is started with it', async () => {
    const plain = await startTestService();
    try {
      const response = await plain.request('POST', '/__admin/faults', { json: { kind: 'drop' } });
      expect(response.status).toBe(404);
    } finally {
      await plain.stop();
    }
  });

  it('answers a configured server error for the matching requests only, then stops after count', async () => {
    await addFault({ kind: 'status', status: 503, retryAfter: 2, path: '^/v1/designs$', count: 2 });
    const first = await service.request('GET', '/v1/designs');
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(await first.json()).toEqual({ error: 'Injected fault: HTTP 503' });
    expect((await service.request('GET', '/v1/users')).status).toBe(200);
    expect((await service.request('GET', '/v1/designs')).status).toBe(503);
    expect((await service.request('GET', '/v1/designs')).status).toBe(200);
  });

  it('rate limits with 429 and Retry-After', async () => {
    await addFault({ kind: 'rate_limit', retryAfter: 7, count: 1 });
    const response = await service.request('GET', '/v1/designs');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(((await response.json()) as { error: string }).error).toMatch(/Retry after 7 seconds/);
  });

  it('adds latency before handling', async () => {
    await addFault({ kind: 'latency', ms: 300, count: 1 });
    const started = performance.now();
    const response = await service.request('GET', '/v1/designs');
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('holds an answer read before a write until after it (a stale snapshot delivered late)', async () => {
    const design = (await (await service.request('POST', '/v1/designs', { token, json: { design: { name: 'Snapshot', excerpt: 'x' } } })).json()) as { id: number };
    await addFault({ kind: 'slow_answer', ms: 400, path: `^/v1/designs/${design.id}/documents$`, method: 'GET', count: 1 });
    const listing = service.request('GET', `/v1/designs/${design.id}/documents`, { token });
    // The write lands while the listing's answer, already read, is held.
    const form = new FormData();
    form.append('document[file]', new Blob(['late']), 'late.txt');
    const upload = await service.request('POST', `/v1/designs/${design.id}/documents`, { token, body: form });
    expect(upload.status).toBe(201);
    expect(await (await listing).json()).toEqual([]);
    expect(((await (await service.request('GET', `/v1/designs/${design.id}/documents`, { token })).json()) as unknown[]).length).toBe(1);
  });

  it('drops the connection without an answer', async () => {
    await addFault({ kind: 'drop', method: 'GET', count: 1 });
    await expect(service.request('GET', '/v1/designs')).rejects.toThrow();
    expect((await service.request('GET', '/v1/designs')).status).toBe(200);
  });

  it('drops an upload part-way through once the given number of bytes arrived', async () => {
    const { id } = await (await service.request('POST', '/v1/designs', { token, json: { design: { name: 'Dropped upload', excerpt: 'x' } } })).json() as { id: number };
    await addFault({ kind: 'drop', method: 'POST', path: '/documents$', afterBytes: 256 * 1024, count: 1 });
    const form = new FormData();
    form.set('document[file]', new Blob([new Uint8Array(8 * 1024 * 1024)]), 'big.bin');
    await expect(service.request('POST', `/v1/designs/${id}/documents`, { token, body: form })).rejects.toThrow();
    const count = service.db.prepare('SELECT count(*) AS n FROM documents WHERE design_id = ?').get(id) as { n: number };
    expect(count.n).toBe(0);
  });

  it('carries a write out and then drops the connection before answering', async () => {
    await addFault({ kind: 'drop_after_write', method: 'POST', path: '^/v1/designs$', count: 1 });
    await expect(service.request('POST', '/v1/designs', { token, json: { design: { name: 'Written but unanswered', excerpt: 'x' } } })).rejects.toThrow();
    const row = service.db.prepare("SELECT count(*) AS n FROM designs WHERE name = 'Written but unanswered'").get() as { n: number };
    expect(row.n).toBe(1);
  });

  it('affects about the configured share of matching requests', async () => {
    await addFault({ kind: 'status', status: 500, share: 0.5, path: '^/v1/users$' });
    let failures = 0;
    for (let i = 0; i < 200; i++) if ((await service.request('GET', '/v1/users')).status === 500) failures++;
    expect(failures).toBeGreaterThan(60);
    expect(failures).toBeLessThan(140);
  });

  it('lists rules with their hits and removes one by id', async () => {
    const rule = await addFault({ kind: 'status', status: 500, path: '^/v1/users$' });
    await service.request('GET', '/v1/users');
    const listed = await (await service.request('GET', '/__admin/faults')).json() as { id: number; hits: number }[];
    expect(listed).toEqual([expect.objectContaining({ id: rule.id, hits: 1 })]);
    expect((await service.request('DELETE', `/__admin/faults/${rule.id}`)).status).toBe(204);
    expect((await service.request('GET', '/v1/users')).status).toBe(200);
  });

  it('refuses a malformed rule with a message naming the problem', async () => {
    const response = await service.request('POST', '/__admin/faults', { json: { kind: 'latency' } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/ms: latency needs ms/);
    const unknown = await service.request('POST', '/__admin/faults', { json: { kind: 'explode' } });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toMatch(/kind/);
  });
});
