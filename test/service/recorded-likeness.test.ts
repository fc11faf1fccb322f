import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGINATION_HEADERS, type Design, type Image } from '../../shared';
import { expectEmpty, json } from '../support/conformance';
import { startTestService, type TestService } from '../../harness/local-service';
import { createDesign, fixture, uploadForm } from './upload-helpers';

/**
 * The local service answers as the live one did in its recorded answers (YouMagine/youmagine-api-client's VCR
 * cassettes, December 2016; docs/service-choices.md): its paging headers, which validators lists and single reads
 * carry, attribution and primary_image on designs, and public reads with a made-up auth_token.
 */
let service: TestService;
let owner: string;
let ownerId: number;

beforeAll(async () => {
  service = await startTestService();
  const added = service.addUser('recorded-owner');
  owner = added.token;
  ownerId = added.user.id;
  for (let n = 1; n <= 5; n++) await createDesign(service, owner, { publish: true, name: `Listed ${n}` });
});
afterAll(() => service.stop());

describe('paging and validators as recorded', () => {
  it('describes a middle page with all seven X-Pagination headers', async () => {
    const response = await service.request('GET', '/v1/designs?page=2&limit=2');
    await json(response, 200);
    const header = (name: string) => response.headers.get(name);
    expect({
      current: header(PAGINATION_HEADERS.currentPage), first: header(PAGINATION_HEADERS.firstPage), last: header(PAGINATION_HEADERS.lastPage),
      next: header(PAGINATION_HEADERS.nextPage), previous: header(PAGINATION_HEADERS.previousPage),
      perPage: header(PAGINATION_HEADERS.perPage), total: header(PAGINATION_HEADERS.totalCount),
    }).toEqual({ current: '2', first: '1', last: '3', next: '3', previous: '1', perPage: '2', total: '5' });
  });

  it('gives a user\'s designs list a weak ETag and no Last-Modified; If-None-Match answers 304 until the list changes', async () => {
    const path = `/v1/users/${ownerId}/designs`;
    const first = await service.request('GET', path, { token: owner });
    await json(first, 200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\//);
    expect(first.headers.get('last-modified')).toBeNull();
    expect((await service.request('GET', path, { token: owner, headers: { 'if-none-match': etag } })).status).toBe(304);
    await createDesign(service, owner, { name: 'A new draft' });
    expect((await service.request('GET', path, { token: owner, headers: { 'if-none-match': etag } })).status).toBe(200);
  });

  it('gives a single design Last-Modified and no ETag; If-Modified-Since answers 304', async () => {
    const first = await service.request('GET', '/v1/designs/listed-1');
    await json(first, 200);
    expect(first.headers.get('etag')).toBeNull();
    const lastModified = first.headers.get('last-modified')!;
    expect(new Date(lastModified).toUTCString()).toBe(lastModified);
    expect((await service.request('GET', '/v1/designs/listed-1', { headers: { 'if-modified-since': lastModified } })).status).toBe(304);
    expect((await service.request('GET', '/v1/designs/listed-1', { headers: { 'if-modified-since': 'Thu, 01 Jan 2015 00:00:00 GMT' } })).status).toBe(200);
  });
});

describe('attribution and primary_image on designs', () => {
  it('carries the attribution text, null when the design credits nothing, in every form', async () => {
    const design = await createDesign(service, owner, { publish: true, name: 'Adapted hook' });
    expect(design.attribution).toBeNull();
    service.db.prepare('UPDATE designs SET attribution = ? WHERE id = ?').run('Remix of thing:12345 by someone', design.id);
    const read = await json<Design>(await service.request('GET', `/v1/designs/${design.id}`), 200);
    expect(read.attribution).toBe('Remix of thing:12345 by someone');
    const own = await json<Design[]>(await service.request('GET', `/v1/users/${ownerId}/designs?limit=100`, { token: owner }), 200);
    expect(own.find((row) => row.id === design.id)?.attribution).toBe('Remix of thing:12345 by someone');
  });

  it('carries the cover\'s file with its renditions as primary_image, and leaves it out when that image is gone', async () => {
    const design = await createDesign(service, owner, { publish: true, name: 'With a cover' });
    expect(design).not.toHaveProperty('primary_image');
    const image = await json<Image>(await service.request('POST', `/v1/designs/${design.id}/images`, {
      token: owner, body: uploadForm('image', 'cover.png', fixture('images/png-sample.png')),
    }), 201);
    const withCover = await json<Design>(await service.request('GET', `/v1/designs/${design.id}`), 200);
    expect(withCover.primary_image_id).toBe(image.id);
    expect(withCover.primary_image).toEqual({ file: image.file });
    expect(withCover.primary_image?.file.grid.url).toMatch(/grid/);

    // The image is gone while the design still names it, as in one recorded design.
    service.db.prepare('DELETE FROM images WHERE id = ?').run(image.id);
    const listed = await json<Design[]>(await service.request('GET', '/v1/designs?limit=100'), 200);
    const gone = listed.find((row) => row.id === design.id)!;
    expect(gone.primary_image_id).toBe(image.id);
    expect(gone).not.toHaveProperty('primary_image');
  });
});

describe('an auth_token the service does not know', () => {
  const madeUp = 'made-up-token-0123456789';

  it('is answered as anonymous on the catalogue\'s public reads: 200 and the public data', async () => {
    const anonymous = await json<Design[]>(await service.request('GET', '/v1/designs?limit=3'), 200);
    const withMadeUp = await json<Design[]>(await service.request('GET', '/v1/designs?limit=3', { token: madeUp }), 200);
    expect(withMadeUp).toEqual(anonymous);
    expect((await json<Design>(await service.request('GET', '/v1/designs/listed-2', { token: madeUp }), 200)).name).toBe('Listed 2');
    await json(await service.request('GET', '/v1/designs/search?q=listed', { token: madeUp }), 200);
    await json(await service.request('GET', '/v1/designs/listed-2/images', { token: madeUp }), 200);
  });

  it('is refused with 401 where the answer depends on who asks: a draft, whoami, a user\'s designs, any write', async () => {
    const draft = await createDesign(service, owner, { name: 'Not yet public' });
    const refused = await json<{ error: string }>(await service.request('GET', `/v1/designs/${draft.id}`, { token: madeUp }), 401);
    expect(refused.error).toMatch(/Invalid or revoked/);
    await json(await service.request('GET', `/v1/designs/${draft.id}/documents`, { token: madeUp }), 401);
    await json(await service.request('GET', '/v1/user/whoami', { token: madeUp }), 401);
    await json(await service.request('GET', `/v1/users/${ownerId}/designs`, { token: madeUp }), 401);
    await json(await service.request('POST', '/v1/designs', { token: madeUp, json: { design: { name: 'x', excerpt: 'x' } } }), 401);
    await json(await service.request('PUT', `/v1/designs/${draft.id}`, { token: madeUp, json: { design: { state: 'published' } } }), 401);
    // Anonymous, the draft is simply not there.
    await json(await service.request('GET', `/v1/designs/${draft.id}`), 404);
    await expectEmpty(await service.request('DELETE', `/v1/designs/${draft.id}`, { token: owner }), 204);
  });
});
