import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Design } from '../../shared';
import { expectEmpty, json } from '../support/conformance';
import { startTestService, type TestService } from '../../harness/local-service';

/**
 * The spec's update has no `state`; real clients publish with `PUT /v1/designs/:id/mark_as/publish`
 * (YouMagine/YM-php-sdk, youmagine.php) or an empty `PUT /v1/designs/:id` (daid/LegacyCura, Cura/util/youmagine.py).
 * The local service accepts those and its own `design[state]=published`.
 */

let service: TestService;
let owner: string;
let other: string;

async function createDraft(name: string): Promise<Design> {
  return json<Design>(await service.request('POST', '/v1/designs', { token: owner, json: { design: { name, excerpt: 'x' } } }), 201);
}

const read = async (id: number) => json<Design>(await service.request('GET', `/v1/designs/${id}`, { token: owner }), 200);
const listedIds = async () => (await json<Design[]>(await service.request('GET', '/v1/designs?limit=100'), 200)).map((design) => design.id);

beforeAll(async () => {
  service = await startTestService();
  owner = service.addUser('owner').token;
  other = service.addUser('other').token;
});
afterAll(() => service.stop());

describe('publishing a design, in each form real clients use', () => {
  const forms: [string, (id: number) => [string, string, { json?: unknown; body?: string; headers?: Record<string, string> }]][] = [
    ['PATCH with design[state]=published (the local form)', (id) => ['PATCH', `/v1/designs/${id}`, { json: { design: { state: 'published' } } }]],
    ['PUT with design[state]=published', (id) => ['PUT', `/v1/designs/${id}`, { json: { design: { state: 'published' } } }]],
    ['PUT …/mark_as/publish without a body (the PHP SDK)', (id) => ['PUT', `/v1/designs/${id}/mark_as/publish`, {}]],
    ['PUT …/mark_as/publish with a form body', (id) => ['PUT', `/v1/designs/${id}/mark_as/publish`, { body: 'ignore=me', headers: { 'content-type': 'application/x-www-form-urlencoded' } }]],
    ['an empty PUT (Cura)', (id) => ['PUT', `/v1/designs/${id}`, {}]],
    ['a PUT with an empty JSON object', (id) => ['PUT', `/v1/designs/${id}`, { json: {} }]],
  ];

  it.each(forms)('%s publishes the draft, which is then listed', async (label, request) => {
    const draft = await createDraft(`Published by ${label}`);
    expect(await listedIds()).not.toContain(draft.id);
    const [method, path, options] = request(draft.id);
    await expectEmpty(await service.request(method, path, { token: owner, ...options }), 204);
    const after = await read(draft.id);
    expect(after.state).toBe('published');
    expect(after).toMatchObject({ name: draft.name, excerpt: 'x', license: draft.license });
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(draft.updated_at));
    expect(await listedIds()).toContain(draft.id);
  });

  it('publishing a published design again changes nothing', async () => {
    const draft = await createDraft('Twice');
    await expectEmpty(await service.request('PUT', `/v1/designs/${draft.id}/mark_as/publish`, { token: owner }), 204);
    const first = await read(draft.id);
    await expectEmpty(await service.request('PUT', `/v1/designs/${draft.id}/mark_as/publish`, { token: owner }), 204);
    await expectEmpty(await service.request('PUT', `/v1/designs/${draft.id}`, { token: owner }), 204);
    expect(await read(draft.id)).toEqual(first);
  });

  it('a PUT with fields updates them and leaves a draft a draft', async () => {
    const draft = await createDraft('Edited only');
    await expectEmpty(await service.request('PUT', `/v1/designs/${draft.id}`, { token: owner, json: { design: { excerpt: 'changed' } } }), 204);
    expect(await read(draft.id)).toMatchObject({ state: 'draft', excerpt: 'changed' });
    expect(await listedIds()).not.toContain(draft.id);
  });

  it.each([
    ['mark_as/publish', (id: number) => `/v1/designs/${id}/mark_as/publish`],
    ['the empty PUT', (id: number) => `/v1/designs/${id}`],
  ])('%s publishes only the owner\'s design: 401 without a sign-in, 404 for someone else\'s draft or none, 403 for someone else\'s published design', async (label, pathOf) => {
    const draft = await createDraft(`Guarded ${label}`);
    expect((await service.request('PUT', pathOf(draft.id))).status).toBe(401);
    expect((await service.request('PUT', pathOf(draft.id), { token: other })).status).toBe(404);
    expect((await service.request('PUT', pathOf(987654), { token: owner })).status).toBe(404);
    expect((await read(draft.id)).state).toBe('draft');
    const published = await createDraft(`Public ${label}`);
    await expectEmpty(await service.request('PUT', pathOf(published.id), { token: owner }), 204);
    expect((await service.request('PUT', pathOf(published.id), { token: other })).status).toBe(403);
  });
});
