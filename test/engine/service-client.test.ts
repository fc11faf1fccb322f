import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../electron/engine/api/service-client';
import { ServiceError } from '../../electron/engine/api/service-error';
import type { Design } from '../../shared';
import { closedPort } from '../support/free-port';
import { problemOf } from '../support/problems';
import { startTestService, type TestService } from '../../harness/local-service';

let service: TestService;
let token: string;
let otherToken: string;

const fastRetry = { retries: 3, minDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2_000 };

function client(tokenValue: string | null = token, retry = fastRetry) {
  return new ServiceClient({ baseUrl: service.url, token: () => tokenValue, retry, timeoutMs: 2_000 });
}

async function fault(rule: Record<string, unknown>) {
  const response = await service.request('POST', '/__admin/faults', { json: rule });
  expect(response.status).toBe(201);
}


function hits(): Promise<{ hits: number }[]> {
  return service.request('GET', '/__admin/faults').then((r) => r.json() as Promise<{ hits: number }[]>);
}

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  token = service.addUser('client-user').token;
  otherToken = service.addUser('someone-else').token;
  const api = client();
  for (let i = 0; i < 23; i++) {
    const design = await api.createDesign({ name: `Client design ${i}`, excerpt: 'For paging' });
    await api.publishDesign(design.id);
  }
});
afterAll(() => service.stop());
beforeEach(async () => {
  await service.request('DELETE', '/__admin/faults');
});

describe('reading', () => {
  it('follows every page of a listing to the end using the paging headers', async () => {
    const ids: number[] = [];
    for await (const page of client().allPages<Design>('/v1/designs', { limit: 5 })) ids.push(...page.items.map((d) => d.id));
    expect(ids).toHaveLength(23);
    expect(new Set(ids).size).toBe(23);
  });

  it('sends the token as auth_token and reads the own user', async () => {
    expect((await client().whoami()).screen_name).toBe('client-user');
  });

  it('answers a conditional GET with not-modified when the validators still hold', async () => {
    const api = client();
    const first = await api.getConditional<Design>('/v1/designs/client-design-0');
    expect(first.notModified).toBe(false);
    if (first.notModified) return;
    // A single read carries Last-Modified and no ETag, as the live service's recorded answer did.
    expect(first.etag).toBeNull();
    expect(await api.getConditional('/v1/designs/client-design-0', { lastModified: first.lastModified })).toEqual({ notModified: true });
    await api.updateDesign('client-design-0', { excerpt: 'Changed' });
    // Last-Modified counts whole seconds: the edit is dated two seconds later, as if made then.
    service.db.prepare('UPDATE designs SET updated_at = updated_at + 2000 WHERE slug = ?').run('client-design-0');
    const after = await api.getConditional<Design>('/v1/designs/client-design-0', { lastModified: first.lastModified });
    expect(after.notModified).toBe(false);
  });
});

describe('typed problems', () => {
  it('a rejected token is token-rejected', async () => {
    const problem = await problemOf(client('revoked-or-wrong').whoami());
    expect(problem.kind).toBe('token-rejected');
  });

  it('another user\'s design is forbidden with the service\'s message', async () => {
    const problem = await problemOf(client(otherToken).updateDesign('client-design-1', { name: 'Taken' }));
    expect(problem).toEqual({ kind: 'forbidden', message: 'You are not authorized to access this page.' });
  });

  it('an unknown design is not-found', async () => {
    expect((await problemOf(client().getDesign('no-such-design'))).kind).toBe('not-found');
  });

  it('refused input is validation, with the field messages', async () => {
    const problem = await problemOf(client().createDesign({ name: '', excerpt: 'x'.repeat(301) }));
    expect(problem).toMatchObject({
      kind: 'validation',
      fieldErrors: { name: ["can't be blank"], excerpt: ['is too long (maximum is 300 characters)'] },
      message: "name can't be blank; excerpt is too long (maximum is 300 characters)",
    });
  });

  it('a service that is not there is offline, and a write to it was certainly not applied', async () => {
    const gone = new ServiceClient({ baseUrl: `http://127.0.0.1:${await closedPort()}`, token: () => token, retry: { ...fastRetry, retries: 1 } });
    expect(await problemOf(gone.createDesign({ name: 'x', excerpt: 'x' }))).toMatchObject({ kind: 'offline', maybeApplied: false });
  });

  it('a server error is retried for reads and succeeds when the service recovers', async () => {
    await fault({ kind: 'status', status: 503, path: '^/v1/designs$', count: 2 });
    const page = await client().listDesigns({ limit: 2 });
    expect(page.items).toHaveLength(2);
    expect((await hits())[0]!.hits).toBe(2);
  });

  it('a server error that lasts becomes server-error after the retries', async () => {
    await fault({ kind: 'status', status: 500, path: '^/v1/designs$' });
    expect(await problemOf(client().listDesigns())).toMatchObject({ kind: 'server-error', status: 500 });
    expect((await hits())[0]!.hits).toBe(1 + fastRetry.retries);
  });

  it('rate limiting waits for Retry-After and then succeeds', async () => {
    await fault({ kind: 'rate_limit', retryAfter: 1, path: '^/v1/users$', count: 1 });
    const started = performance.now();
    await client().listUsers();
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('a Retry-After longer than the client waits for is handed back as rate-limited with the wait', async () => {
    await fault({ kind: 'rate_limit', retryAfter: 120, path: '^/v1/users$', count: 1 });
    expect(await problemOf(client().listUsers())).toMatchObject({ kind: 'rate-limited', retryAfterMs: 120_000 });
  });

  it('a dropped connection is retried for reads', async () => {
    await fault({ kind: 'drop', path: '^/v1/users$', count: 1 });
    expect((await client().listUsers()).items.length).toBeGreaterThan(0);
  });

  it('a create whose answer is lost is never sent twice, and says it may have been applied', async () => {
    await fault({ kind: 'drop_after_write', method: 'POST', path: '^/v1/designs$', count: 1 });
    const problem = await problemOf(client().createDesign({ name: 'Lost answer', excerpt: 'x' }));
    expect(problem).toMatchObject({ kind: 'offline', maybeApplied: true });
    const created = service.db.prepare("SELECT count(*) AS n FROM designs WHERE name = 'Lost answer'").get() as { n: number };
    expect(created.n).toBe(1);
  });

  it('a create answered 500 is not repeated', async () => {
    await fault({ kind: 'status', status: 500, method: 'POST', path: '^/v1/designs$' });
    expect((await problemOf(client().createDesign({ name: 'Once', excerpt: 'x' }))).kind).toBe('server-error');
    expect((await hits())[0]!.hits).toBe(1);
  });

  it('a create refused with 429 is sent again after the wait, once', async () => {
    await fault({ kind: 'rate_limit', retryAfter: 0, method: 'POST', path: '^/v1/designs$', count: 1 });
    const design = await client().createDesign({ name: 'After the limit', excerpt: 'x' });
    expect(design.name).toBe('After the limit');
    const created = service.db.prepare("SELECT count(*) AS n FROM designs WHERE name = 'After the limit'").get() as { n: number };
    expect(created.n).toBe(1);
  });

  it('a delete whose answer was lost is retried, and the 404 of the retry counts as done', async () => {
    const api = client();
    const design = await api.createDesign({ name: 'Delete me twice', excerpt: 'x' });
    await fault({ kind: 'drop_after_write', method: 'DELETE', count: 1 });
    await api.deleteDesign(design.id);
    expect(service.db.prepare('SELECT 1 FROM designs WHERE id = ?').get(design.id)).toBeUndefined();
  });

  it('a slow answer times out as offline', async () => {
    await fault({ kind: 'latency', ms: 1_500, path: '^/v1/users$' });
    const impatient = new ServiceClient({ baseUrl: service.url, token: () => token, retry: { ...fastRetry, retries: 0 }, timeoutMs: 300 });
    expect(await problemOf(impatient.listUsers())).toMatchObject({ kind: 'offline', message: expect.stringMatching(/^The service did not answer in time/) });
  });

  it('cancelling stops the request and its retries', async () => {
    await fault({ kind: 'status', status: 503, path: '^/v1/users$' });
    const controller = new AbortController();
    const slow = new ServiceClient({ baseUrl: service.url, token: () => token, retry: { retries: 10, minDelayMs: 200, maxDelayMs: 200, maxRetryAfterMs: 0 } });
    setTimeout(() => controller.abort(), 100);
    expect((await problemOf(slow.listUsers({}, controller.signal))).kind).toBe('cancelled');
  });

  it('never puts the token in an error message', async () => {
    await fault({ kind: 'status', status: 500, path: '^/v1/user/whoami$' });
    try {
      await client().whoami();
      expect.fail('should have failed');
    } catch (error) {
      expect(error).toBeInstanceOf(ServiceError);
      expect(String((error as Error).message)).not.toContain(token);
      expect(JSON.stringify(error)).not.toContain(token);
    }
  });
});
