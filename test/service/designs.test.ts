import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { designShape, LICENSE_CODES, PAGINATION_HEADERS, userDesignShape, type Design } from '../../shared';
import { expectEmpty, expectExactShape, json } from '../support/conformance';
import { startTestService, type TestService } from '../../harness/local-service';

let service: TestService;
let owner: string;
let other: string;

async function createDesign(token: string, design: Record<string, unknown>): Promise<Design> {
  return json<Design>(await service.request('POST', '/v1/designs', { token, json: { design } }), 201);
}

async function publish(token: string, id: number | string): Promise<void> {
  await expectEmpty(await service.request('PUT', `/v1/designs/${id}`, { token, json: { design: { state: 'published' } } }), 204);
}

beforeAll(async () => {
  service = await startTestService();
  owner = service.addUser('owner').token;
  other = service.addUser('other').token;
});
afterAll(() => service.stop());

describe('POST /v1/designs', () => {
  it('creates a draft owned by the caller and answers 201 with the design in its read form and a Location', async () => {
    const response = await service.request('POST', '/v1/designs', {
      token: owner,
      json: { design: { name: 'Planetary gear set', excerpt: 'Three planets', license: 'ccbysa', description: '<p>Prints <b>without</b> supports.</p>' } },
    });
    const design = await json<Design>(response, 201);
    expectExactShape(designShape, design);
    expect(response.headers.get('location')).toBe(`/v1/designs/${design.id}`);
    expect(design).toMatchObject({
      name: 'Planetary gear set', slug: 'planetary-gear-set', excerpt: 'Three planets', license: 'ccbysa',
      description: '<p>Prints <b>without</b> supports.</p>', state: 'draft', primary_image_id: null,
      documents_zip: { url: null }, tags: [], user: { screen_name: 'owner' }, materials: '',
    });
    expect(design.created_at).toBe(design.updated_at);
  });

  it('accepts a Rails-style form body (design[name]=…)', async () => {
    const body = new URLSearchParams({ 'design[name]': 'Form made', 'design[excerpt]': 'From a form', 'design[license]': 'cc0' });
    const design = await json<Design>(await service.request('POST', '/v1/designs', { token: owner, body }), 201);
    expect(design).toMatchObject({ name: 'Form made', excerpt: 'From a form', license: 'cc0' });
  });

  it('gives every design a unique slug that is never all digits', async () => {
    const a = await createDesign(owner, { name: 'Same name', excerpt: 'a' });
    const b = await createDesign(owner, { name: 'Same name', excerpt: 'b' });
    const digits = await createDesign(owner, { name: '2024', excerpt: 'c' });
    expect(a.slug).toBe('same-name');
    expect(b.slug).toBe('same-name-2');
    expect(digits.slug).not.toMatch(/^\d+$/);
  });

  it('defaults the license to ccby', async () => {
    expect((await createDesign(owner, { name: 'No license given', excerpt: 'x' })).license).toBe('ccby');
  });

  it.each([
    [{ excerpt: 'x' }, { name: ["can't be blank"] }],
    [{ name: '   ', excerpt: 'x' }, { name: ["can't be blank"] }],
    [{ name: 'x' }, { excerpt: ["can't be blank"] }],
    [{ name: 'n'.repeat(256), excerpt: 'x' }, { name: ['is too long (maximum is 255 characters)'] }],
    [{ name: 'x', excerpt: 'e'.repeat(301) }, { excerpt: ['is too long (maximum is 300 characters)'] }],
    [{ name: 'x', excerpt: 'x', license: 'wtfpl' }, { license: [expect.stringMatching(/^is not included in the list/)] }],
    [{ name: 'x', excerpt: 'x', state: 'published' }, { state: ['can only be changed on an existing design'] }],
    [{ name: 'x', excerpt: 'x', colour: 'red' }, { colour: ['is not a known field'] }],
  ])('refuses %j with 422 and the field messages', async (design, errors) => {
    const body = await json(await service.request('POST', '/v1/designs', { token: owner, json: { design } }), 422);
    expect(body).toEqual({ errors });
  });

  it('accepts a name of exactly 255 characters and an excerpt of exactly 300, counted as characters', async () => {
    const name = '齿'.repeat(255);
    const design = await createDesign(owner, { name, excerpt: 'é'.repeat(300) });
    expect(design.name).toBe(name);
  });

  it('needs the design hash', async () => {
    const body = await json(await service.request('POST', '/v1/designs', { token: owner, json: { name: 'flat' } }), 422);
    expect(body).toEqual({ errors: { design: [expect.stringContaining('"design" hash')] } });
  });

  it('needs a signed-in user (401), and refuses a bad token on a write', async () => {
    const anonymous = await json<{ error: string }>(await service.request('POST', '/v1/designs', { json: { design: { name: 'x', excerpt: 'x' } } }), 401);
    expect(anonymous.error).toMatch(/sign in or authorize/);
    const refused = await json<{ error: string }>(await service.request('POST', '/v1/designs', { token: 'not-a-token', json: { design: { name: 'x', excerpt: 'x' } } }), 401);
    expect(refused.error).toMatch(/Invalid or revoked/);
  });

  it('says what is wrong with a body that is not JSON', async () => {
    const body = await json<{ error: string }>(await service.request('POST', '/v1/designs', {
      token: owner, body: '{"design":', headers: { 'content-type': 'application/json' },
    }), 400);
    expect(body.error).toMatch(/not valid JSON/);
  });
});

describe('GET /v1/designs and search', () => {
  let published: Design[];

  beforeAll(async () => {
    published = [];
    for (let i = 0; i < 5; i++) {
      const design = await createDesign(other, { name: `Listed cable clip ${i}`, excerpt: 'Clip', license: LICENSE_CODES[i] });
      await publish(other, design.id);
      published.push(design);
    }
    await createDesign(other, { name: 'Hidden draft cable clip', excerpt: 'Never listed' });
  });

  it('lists published designs only, newest first, each in the read form', async () => {
    const designs = await json<Design[]>(await service.request('GET', '/v1/designs?limit=100'), 200);
    expect(designs.every((design) => design.state === 'published')).toBe(true);
    expect(designs.some((design) => design.name === 'Hidden draft cable clip')).toBe(false);
    for (const design of designs) expectExactShape(designShape, design);
    const ids = designs.map((design) => design.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('pages with page and limit and describes the paging in X-Pagination headers', async () => {
    const total = Number((await service.request('GET', '/v1/designs')).headers.get(PAGINATION_HEADERS.totalCount));
    expect(total).toBeGreaterThanOrEqual(5);
    const response = await service.request('GET', '/v1/designs?page=2&limit=2');
    const page = await json<Design[]>(response, 200);
    expect(page).toHaveLength(2);
    expect(response.headers.get(PAGINATION_HEADERS.currentPage)).toBe('2');
    expect(response.headers.get(PAGINATION_HEADERS.perPage)).toBe('2');
    expect(response.headers.get(PAGINATION_HEADERS.previousPage)).toBe('1');
    expect(response.headers.get(PAGINATION_HEADERS.firstPage)).toBe('1');
    expect(response.headers.get(PAGINATION_HEADERS.lastPage)).toBe(String(Math.ceil(total / 2)));
    expect(response.headers.get('link')).toContain('rel="next"');

    const seen = new Set<number>();
    for (let n = 1; n <= Math.ceil(total / 2); n++) {
      const designs = await json<Design[]>(await service.request('GET', `/v1/designs?page=${n}&limit=2`), 200);
      designs.forEach((design) => seen.add(design.id));
    }
    expect(seen.size).toBe(total);
  });

  it('uses 18 as the default page size, lowers a limit over 100 to 100, and has no next page at the end', async () => {
    const response = await service.request('GET', '/v1/designs?limit=500');
    expect(response.headers.get(PAGINATION_HEADERS.perPage)).toBe('100');
    expect(response.headers.get(PAGINATION_HEADERS.nextPage)).toBeNull();
    expect((await service.request('GET', '/v1/designs')).headers.get(PAGINATION_HEADERS.perPage)).toBe('18');
    const past = await json<Design[]>(await service.request('GET', '/v1/designs?page=999'), 200);
    expect(past).toEqual([]);
  });

  it.each(['page=0', 'page=-1', 'limit=abc', 'page=1.5'])('refuses %s with 400 naming the parameter', async (query) => {
    const body = await json<{ error: string }>(await service.request('GET', `/v1/designs?${query}`), 400);
    expect(body.error).toMatch(new RegExp(`^${query.split('=')[0]} must be a positive integer`));
  });

  it('searches published designs by words of name, excerpt, description, tag and author, as a bare array', async () => {
    const found = await json<Design[]>(await service.request('GET', '/v1/designs/search?q=listed%20CABLE'), 200);
    expect(found.map((design) => design.name).sort()).toEqual(published.map((design) => design.name).sort());
    for (const design of found) expectExactShape(designShape, design);
    const byAuthor = await json<Design[]>(await service.request('GET', '/v1/designs/search?q=other&limit=100'), 200);
    expect(byAuthor.length).toBeGreaterThanOrEqual(5);
    expect(await json(await service.request('GET', '/v1/designs/search?q=zzzznothing'), 200)).toEqual([]);
    const literal = await json(await service.request('GET', '/v1/designs/search?q=%25'), 200);
    expect(literal).toEqual([]);
  });

  it('pages search results like lists', async () => {
    const response = await service.request('GET', '/v1/designs/search?q=listed&limit=2');
    expect(await json<Design[]>(response, 200)).toHaveLength(2);
    expect(response.headers.get(PAGINATION_HEADERS.totalCount)).toBe('5');
  });

  it('answers a repeated list read with 304 through its weak ETag; a list carries no Last-Modified, as recorded', async () => {
    const first = await service.request('GET', '/v1/designs');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[0-9a-f]+"$/);
    expect(first.headers.get('last-modified')).toBeNull();
    expect((await service.request('GET', '/v1/designs', { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await service.request('GET', '/v1/designs', { headers: { 'if-none-match': 'W/"another"' } })).status).toBe(200);
  });
});

describe('GET /v1/designs walked page after page', () => {
  const listedIds = async (page: number, limit: number) =>
    (await json<Design[]>(await service.request('GET', `/v1/designs?page=${page}&limit=${limit}`), 200)).map((design) => design.id);
  /** What the listing holds at that page, asked of the database without the service's bookmarks. */
  const heldIds = (page: number, limit: number) => service.db
    .prepare(`SELECT id FROM designs WHERE state = 'published' ORDER BY id DESC LIMIT ? OFFSET ?`).pluck().all(limit, (page - 1) * limit) as number[];

  it('answers every page as the listing holds it, also when designs are published, withdrawn or deleted between pages', async () => {
    const made: Design[] = [];
    for (let i = 0; i < 24; i++) {
      const design = await createDesign(owner, { name: `Walked ${i}`, excerpt: 'w' });
      await publish(owner, design.id);
      made.push(design);
    }
    const limit = 5;
    const changes = [
      async () => publish(owner, (await createDesign(owner, { name: 'Published mid-walk', excerpt: 'n' })).id),
      async () => expectEmpty(await service.request('PUT', `/v1/designs/${made[20]!.id}`, { token: owner, json: { design: { state: 'draft' } } }), 204),
      async () => expectEmpty(await service.request('DELETE', `/v1/designs/${made[3]!.id}`, { token: owner }), 204),
    ];
    for (let round = 0; round <= changes.length; round++) {
      // Forward, then back and forth (a page asked again, one skipped), each answer checked against the database.
      for (const page of [1, 2, 3, 4, 3, 5, 7, 6, 2]) expect(await listedIds(page, limit)).toEqual(heldIds(page, limit));
      await changes[round]?.();
    }
  });
});

describe('GET /v1/designs/:id', () => {
  it('reads a design by id or by slug', async () => {
    const created = await createDesign(owner, { name: 'Readable vase', excerpt: 'Spiral' });
    await publish(owner, created.id);
    const byId = await json<Design>(await service.request('GET', `/v1/designs/${created.id}`), 200);
    const bySlug = await json<Design>(await service.request('GET', `/v1/designs/${created.slug}`), 200);
    expectExactShape(designShape, byId);
    expect(bySlug).toEqual(byId);
  });

  it('shows a draft to its owner only; others get 404', async () => {
    const draft = await createDesign(owner, { name: 'Secret draft', excerpt: 'x' });
    await json(await service.request('GET', `/v1/designs/${draft.id}`, { token: owner }), 200);
    await json(await service.request('GET', `/v1/designs/${draft.id}`, { token: other }), 404);
    await json(await service.request('GET', `/v1/designs/${draft.id}`), 404);
  });

  it('answers 404 with a JSON error for an unknown id or slug', async () => {
    expect(await json(await service.request('GET', '/v1/designs/999999'), 404)).toEqual({ error: 'Design not found' });
    await json(await service.request('GET', '/v1/designs/no-such-slug'), 404);
  });
});

describe('PATCH/PUT /v1/designs/:id', () => {
  it.each(['PATCH', 'PUT'])('%s changes the sent fields, keeps the others, answers 204 and bumps updated_at', async (method) => {
    const design = await createDesign(owner, { name: `Bracket ${method}`, excerpt: 'L-shaped', license: 'gplv3' });
    await expectEmpty(await service.request(method, `/v1/designs/${design.slug}`, { token: owner, json: { design: { excerpt: 'Now T-shaped' } } }), 204);
    const after = await json<Design>(await service.request('GET', `/v1/designs/${design.id}`, { token: owner }), 200);
    expect(after).toMatchObject({ name: `Bracket ${method}`, excerpt: 'Now T-shaped', license: 'gplv3', slug: design.slug });
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(design.updated_at));
  });

  it('publishes a draft with design[state]=published, after which it is listed', async () => {
    const design = await createDesign(owner, { name: 'Soon public', excerpt: 'x' });
    await publish(owner, design.id);
    const listed = await json<Design[]>(await service.request('GET', '/v1/designs/search?q=soon%20public'), 200);
    expect(listed.map((d) => d.id)).toEqual([design.id]);
  });

  it('refuses a blank name, an unknown state and a primary image that is not the design\'s', async () => {
    const design = await createDesign(owner, { name: 'Validated', excerpt: 'x' });
    const body = await json(await service.request('PATCH', `/v1/designs/${design.id}`, {
      token: owner, json: { design: { name: '', state: 'archived', primary_image_id: 'x' } },
    }), 422);
    expect(body).toEqual({ errors: {
      name: ["can't be blank"],
      state: ['is not included in the list (draft, published)'],
      primary_image_id: ["must be the id of one of the design's images"],
    } });
    const missing = await json(await service.request('PATCH', `/v1/designs/${design.id}`, { token: owner, json: { design: { primary_image_id: 424242 } } }), 422);
    expect(missing).toEqual({ errors: { primary_image_id: ["must be the id of one of the design's images"] } });
  });

  it('answers another user with 403 and the body of spec §7, changing nothing', async () => {
    const design = await createDesign(owner, { name: 'Not yours', excerpt: 'x' });
    await publish(owner, design.id);
    const body = await json(await service.request('PATCH', `/v1/designs/${design.id}`, { token: other, json: { design: { name: 'Mine now' } } }), 403);
    expect(body).toEqual({ error: 'You are not authorized to access this page.' });
    expect((await json<Design>(await service.request('GET', `/v1/designs/${design.id}`), 200)).name).toBe('Not yours');
  });

  it('needs a token', async () => {
    const design = await createDesign(owner, { name: 'Tokenless change', excerpt: 'x' });
    await publish(owner, design.id);
    await json(await service.request('PUT', `/v1/designs/${design.id}`, { json: { design: { name: 'y' } } }), 401);
  });
});

describe('DELETE /v1/designs/:id', () => {
  it('deletes the owner\'s design with 204 and an empty body; afterwards it is 404', async () => {
    const design = await createDesign(owner, { name: 'Short-lived', excerpt: 'x' });
    await expectEmpty(await service.request('DELETE', `/v1/designs/${design.id}`, { token: owner }), 204);
    await json(await service.request('GET', `/v1/designs/${design.id}`, { token: owner }), 404);
  });

  it('answers another user with the 403 of spec §7 and keeps the design', async () => {
    const design = await createDesign(owner, { name: 'Protected', excerpt: 'x' });
    await publish(owner, design.id);
    expect(await json(await service.request('DELETE', `/v1/designs/${design.id}`, { token: other }), 403))
      .toEqual({ error: 'You are not authorized to access this page.' });
    await json(await service.request('GET', `/v1/designs/${design.id}`), 200);
  });
});

describe('GET /v1/users/:id/designs', () => {
  it('lists a user\'s designs in the user-designs form, drafts only for that user', async () => {
    const draft = await createDesign(other, { name: 'Other\'s private draft', excerpt: 'x' });
    const forOwner = await json<unknown[]>(await service.request('GET', '/v1/users/other/designs?limit=100', { token: other }), 200);
    const forPublic = await json<unknown[]>(await service.request('GET', '/v1/users/other/designs?limit=100'), 200);
    for (const design of forOwner) expectExactShape(userDesignShape, design);
    expect(forOwner.some((design) => (design as Design).id === draft.id)).toBe(true);
    expect(forPublic.some((design) => (design as Design).id === draft.id)).toBe(false);
    expect(forOwner.length).toBe(forPublic.length + 2);
  });
});
