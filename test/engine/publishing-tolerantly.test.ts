import { rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ContractProblem, OwnDesignView, QueueView, RequestName } from '../../shared';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { tempDir } from './cache/cache-fixtures';
import { startTestService, type TestService } from '../../harness/local-service';
import { sendJson, startMisbehavingService, type MisbehavingService, type SeenRequest } from '../support/misbehaving-service';

/**
 * The engine publishes the way the service accepts: the local service's `design[state]=published` first, then
 * `PUT …/mark_as/publish` (YouMagine/YM-php-sdk), then an empty `PUT` (daid/LegacyCura), each time reading the design
 * back. Services that know only some forms are a proxy in front of the local service that answers the others itself.
 */

/** What the proxy does with one publishing form instead of passing it on; undefined passes it on. */
type Refusal = 'unknown-field' | 'no-such-route' | 'method-not-allowed' | 'ignored';
interface Forms { stateField?: Refusal; markAs?: Refusal; emptyPut?: Refusal }

let service: TestService;
let token: string;
let proxy: MisbehavingService;
let forms: Forms = {};

function formOf(seen: SeenRequest, body: string): keyof Forms | null {
  if (seen.method === 'PUT' && seen.path.endsWith('/mark_as/publish')) return 'markAs';
  if (!/^\/v1\/designs\/\d+$/.test(seen.path)) return null;
  if ((seen.method === 'PATCH' || seen.method === 'PUT') && body.includes('"state"')) return 'stateField';
  if (seen.method === 'PUT' && body === '') return 'emptyPut';
  return null;
}

function answerRefusal(response: ServerResponse, refusal: Refusal): void {
  if (refusal === 'unknown-field') return sendJson(response, { errors: { state: ['is not a known field'] } }, 422);
  if (refusal === 'no-such-route') return sendJson(response, { error: 'Not found' }, 404);
  if (refusal === 'method-not-allowed') return sendJson(response, { error: 'Method not allowed' }, 405);
  response.writeHead(204).end();
}

async function forward(request: IncomingMessage, response: ServerResponse, seen: SeenRequest): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const form = formOf(seen, body.toString('utf8'));
  const refusal = form ? forms[form] : undefined;
  if (refusal) return answerRefusal(response, refusal);
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
  const answer = await fetch(new URL(seen.url, service.url), { method: seen.method, headers, body: body.length > 0 ? body : undefined, redirect: 'manual' });
  const bytes = Buffer.from(await answer.arrayBuffer());
  const passed: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!['content-encoding', 'transfer-encoding', 'connection', 'content-length'].includes(name)) passed[name] = value;
  });
  response.writeHead(answer.status, { ...passed, 'content-length': bytes.length }).end(bytes);
}

async function openApp() {
  const profile = tempDir('publishing-tolerantly');
  const engine = await openEngine({
    profileDir: profile, serviceUrl: proxy.url, userAgent: 'design-sync-test', settleMs: 100, trash: 'folder',
    tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore(),
  });
  const endpoint = createContractEndpoint(engine);
  const handle = (name: RequestName, input: unknown) => endpoint.handle(name, input);
  return {
    async ok<T>(name: RequestName, input: unknown): Promise<T> {
      const outcome = await handle(name, input);
      if (!outcome.ok) throw new Error(`${name}: ${JSON.stringify(outcome.problem)}`);
      return outcome.value as T;
    },
    async problem(name: RequestName, input: unknown): Promise<ContractProblem> {
      const outcome = await handle(name, input);
      if (outcome.ok) throw new Error(`${name}: expected a problem`);
      return outcome.problem;
    },
    async close() {
      await endpoint.close();
      await engine.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
type App = Awaited<ReturnType<typeof openApp>>;

let app: App;
const onService = (id: number) => service.db.prepare('SELECT name, excerpt, license, state FROM designs WHERE id = ?').get(id) as { state: string };
/** The requests about design `id` the proxy saw from `from` on, as "METHOD path" (query left out). */
const seenSince = (from: number, id: number) => proxy.requests.slice(from)
  .filter((seen) => seen.path === `/v1/designs/${id}` || seen.path.startsWith(`/v1/designs/${id}/`))
  .map((seen) => `${seen.method} ${seen.path}`);
const activity = async () => (await app.ok<QueueView>('queue.list', {})).activity.map((line) => line.message);

async function createDraft(name: string): Promise<number> {
  const created = await app.ok<OwnDesignView>('own.create', { name, excerpt: 'A test part', license: 'cc0' });
  expect(created.published).toBe(false);
  return created.card.id;
}

beforeAll(async () => {
  service = await startTestService();
  token = service.addUser('maker').token;
  proxy = await startMisbehavingService(forward);
}, 30_000);

afterEach(async () => {
  forms = {};
  await app?.close();
});

afterAll(async () => {
  await proxy?.stop();
  await service?.stop();
});

describe('publishing a draft the way the service accepts', () => {
  it('against the local service, publishes with its own form, read back once, and only when asked (rule 4)', async () => {
    app = await openApp();
    const from = proxy.requests.length;
    const id = await createDraft('Hinge');
    expect(proxy.requests.slice(from).filter((seen) => seen.method === 'PUT' || seen.method === 'PATCH')).toEqual([]);
    expect(onService(id).state).toBe('draft');

    const asked = proxy.requests.length;
    const published = await app.ok<OwnDesignView>('own.publish', { id });
    expect(published).toMatchObject({ published: true, card: { state: 'published' } });
    expect(onService(id).state).toBe('published');
    expect(seenSince(asked, id)).toEqual([`PATCH /v1/designs/${id}`, `GET /v1/designs/${id}`]);
    expect(await activity()).toContain('You published the design “Hinge”.');
  });

  it.each<[string, Forms, string[]]>([
    ['refuses design[state] (422): mark_as/publish publishes', { stateField: 'unknown-field' }, ['PATCH', 'GET', 'PUT mark_as/publish', 'GET']],
    ['ignores design[state] (204, still a draft) and has no mark_as route (404): the empty PUT publishes',
      { stateField: 'ignored', markAs: 'no-such-route' }, ['PATCH', 'GET', 'PUT mark_as/publish', 'GET', 'PUT', 'GET']],
    ['answers 405 to both the first forms: the empty PUT publishes',
      { stateField: 'method-not-allowed', markAs: 'method-not-allowed' }, ['PATCH', 'GET', 'PUT mark_as/publish', 'GET', 'PUT', 'GET']],
  ])('a service that %s, confirmed by reading the design back', async (_label, refused, expected) => {
    app = await openApp();
    const id = await createDraft(`Clip ${Object.keys(refused).join(' ')}`);
    forms = refused;
    const asked = proxy.requests.length;
    const published = await app.ok<OwnDesignView>('own.publish', { id });
    expect(published).toMatchObject({ published: true, card: { state: 'published' } });
    expect(onService(id).state).toBe('published');
    const short = (line: string) => line.replace(` /v1/designs/${id}/mark_as/publish`, ' mark_as/publish').replace(` /v1/designs/${id}`, '');
    expect(seenSince(asked, id).map(short)).toEqual(expected);
    expect(await activity()).toContain(`You published the design “Clip ${Object.keys(refused).join(' ')}”.`);
  });

  it('a service that accepts every form but publishes with none: said in plain words, and the design stays a draft', async () => {
    app = await openApp();
    const id = await createDraft('Bracket');
    const before = onService(id);
    forms = { stateField: 'ignored', markAs: 'ignored', emptyPut: 'ignored' };
    const asked = proxy.requests.length;
    const problem = await app.problem('own.publish', { id });
    const words = 'The service would not publish the design “Bracket”: none of the ways of asking it to publish worked. The design is still a draft; nothing else changed.';
    expect(problem).toEqual({ kind: 'conflict', message: words, words: { id: 'activity.own.notPublished', values: { name: 'Bracket' } } });
    expect(seenSince(asked, id).filter((line) => !line.startsWith('GET'))).toEqual([`PATCH /v1/designs/${id}`, `PUT /v1/designs/${id}/mark_as/publish`, `PUT /v1/designs/${id}`]);
    expect(onService(id)).toEqual(before);
    const [mine] = (await app.ok<OwnDesignView[]>('own.list', {})).filter((view) => view.card.id === id);
    expect(mine).toMatchObject({ published: false, card: { state: 'draft', name: 'Bracket' } });
    const lines = await activity();
    expect(lines).toContain(words);
    expect(lines.some((line) => line.startsWith('You published'))).toBe(false);
  });
});
