import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  designShape, IMAGE_RENDITIONS, LICENSE_CODES, PAGINATION_HEADERS, type Design, type Image, type UserDesign,
} from '../../shared';
import { findApplication, grantAuthorization, liveAuthorization, REGISTERED_APPLICATION } from '../../service/authorization/integrations';
import { seedDemo } from '../../service/seed/demo-seed';
import { DEMO_ATTRIBUTIONS, DEMO_USERS } from '../../service/seed/demo-catalogue';
import { SYNTHETIC_MAX_COUNT, SYNTHETIC_WORDS, seedSynthetic } from '../../service/seed/synthetic-seed';
import { findUserByScreenName, passwordMatches } from '../../service/users/user-accounts';
import { expectEmpty, expectExactShape, json } from '../support/conformance';
import { startTestService, type TestService } from '../../harness/local-service';
import { authorizePath, Browser, onlyForm, signInThrough } from '../support/service-pages';

function tokenFor(service: TestService, screenName: string): string {
  const user = findUserByScreenName(service.db, screenName);
  if (!user) throw new Error(`no user ${screenName}`);
  return grantAuthorization(service.db, user.id, findApplication(service.db, REGISTERED_APPLICATION)!.id, Date.now()).token;
}

async function allPublished(service: TestService): Promise<{ designs: Design[]; total: number }> {
  const designs: Design[] = [];
  let total = 0;
  for (let page = 1; ; page++) {
    const response = await service.request('GET', `/v1/designs?page=${page}&limit=25`);
    total = Number(response.headers.get(PAGINATION_HEADERS.totalCount));
    const batch = await json<Design[]>(response, 200);
    designs.push(...batch);
    if (!response.headers.get(PAGINATION_HEADERS.nextPage)) break;
  }
  return { designs, total };
}

async function bytes(service: TestService, path: string, token?: string): Promise<{ status: number; type: string; body: Buffer }> {
  const response = await service.request('GET', path, { token });
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: Buffer.from(await response.arrayBuffer()) };
}

/** A binary STL: 80-byte header, uint32 count, 50 bytes per triangle, unit normals, finite vertices. */
function expectBinaryStl(body: Buffer, label: string): number {
  expect(body.length, `${label}: shorter than an STL header`).toBeGreaterThanOrEqual(84);
  const count = body.readUInt32LE(80);
  expect(count, `${label}: no triangles`).toBeGreaterThan(0);
  expect(body.length, `${label}: size is not 84 + 50 × ${count}`).toBe(84 + 50 * count);
  expect(body.subarray(0, 5).toString('ascii').toLowerCase(), `${label}: binary STL must not start with "solid"`).not.toBe('solid');
  for (let i = 0; i < count; i++) {
    const at = 84 + 50 * i;
    const values = Array.from({ length: 12 }, (_, k) => body.readFloatLE(at + 4 * k));
    expect(values.every(Number.isFinite), `${label}: triangle ${i} has a non-finite number`).toBe(true);
    expect(Math.hypot(values[0]!, values[1]!, values[2]!), `${label}: triangle ${i} normal`).toBeCloseTo(1, 3);
  }
  return count;
}

describe('seedDemo', () => {
  let service: TestService;
  let seeded: Awaited<ReturnType<typeof seedDemo>>;
  let seedMs = 0;
  let authorizationsAfterSeed: number;
  /** Where the authorization page sends the browser (redirect_url, deny_url): records what reaches it. */
  let receiver: Server;
  let receiverOrigin: string;
  const received: { method: string; path: string }[] = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      received.push({ method: request.method ?? '', path: request.url ?? '' });
      request.resume().on('end', () => response.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    service = await startTestService();
    const started = Date.now();
    seeded = await seedDemo(service.ctx);
    seedMs = Date.now() - started;
    authorizationsAfterSeed = (service.db.prepare('SELECT count(*) AS n FROM authorized_integrations').get() as { n: number }).n;
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  });

  let demoTokenGranted: string | undefined;
  /**
   * demo's token for the API tests below, granted on first use rather than in beforeAll: the first-sign-in test
   * (the first test here) needs demo not to have authorized design-sync yet.
   */
  const demoToken = () => (demoTokenGranted ??= tokenFor(service, 'demo'));

  function authorizedDesignSync(screenName: string): boolean {
    const user = findUserByScreenName(service.db, screenName)!;
    return liveAuthorization(service.db, user.id, findApplication(service.db, REGISTERED_APPLICATION)!.id) !== undefined;
  }

  it("shows a demo user's first sign-in the Allow/Deny page instead of handing over a token, and Deny reaches deny_url", async () => {
    expect(authorizationsAfterSeed, 'authorizations left behind by the seed').toBe(0);
    expect(demoTokenGranted, 'this test must run before demo is given a token').toBeUndefined();
    const attempt = randomBytes(8).toString('hex');
    const query = { redirect_url: `${receiverOrigin}/callback/${attempt}`, deny_url: `${receiverOrigin}/denied/${attempt}` };
    const path = authorizePath(query, REGISTERED_APPLICATION);

    for (const person of DEMO_USERS) {
      const browser = new Browser(service.url);
      const page = await signInThrough(browser, path, person.screenName, person.password);
      expect(page.status).toBe(200);
      const html = await page.text();
      // Not the page that POSTs the token to redirect_url (what an already-authorized user gets), but the question.
      expect(html, `${person.screenName} was sent straight through`).not.toContain('authentication_token');
      const consent = onlyForm(html);
      expect(consent.attrs).toMatchObject({ method: 'post', action: `/integrations/${REGISTERED_APPLICATION}/authorized_integrations` });
      expect(consent.buttons.map((button) => button.value), `${person.screenName}'s first sign-in`).toEqual(['allow', 'deny']);
      expect(html).toContain(person.screenName);

      if (person.screenName !== 'demo') continue;
      const denied = await browser.submit(consent, { decision: 'deny' });
      expect(denied.status).toBe(303);
      expect(denied.headers.get('location')).toBe(query.deny_url);
      const landed = await fetch(denied.headers.get('location')!); // a browser follows a 303 with a GET
      expect(landed.status).toBe(200);
      expect(authorizedDesignSync('demo'), 'Deny authorized design-sync').toBe(false);
      // Nothing was authorized, so the next visit asks again.
      expect(onlyForm(await (await browser.get(path)).text()).buttons.map((button) => button.value)).toEqual(['allow', 'deny']);
    }
    // Only the Deny reached the receiver: no token was ever posted to redirect_url.
    expect(received).toEqual([{ method: 'GET', path: `/denied/${attempt}` }]);
    for (const { screenName } of DEMO_USERS) expect(authorizedDesignSync(screenName), screenName).toBe(false);
  });

  it('reports what it created, quickly', () => {
    expect(seeded).toEqual({ created: true, users: DEMO_USERS.length, designs: expect.any(Number) as number });
    expect(seeded.designs).toBeGreaterThanOrEqual(63);
    expect(seedMs, 'the demo seed should take well under a minute').toBeLessThan(60_000);
  });

  it('publishes 60+ designs, paged through GET /v1/designs, over all ten licenses, each at least five times', async () => {
    const { designs, total } = await allPublished(service);
    expect(total).toBeGreaterThanOrEqual(60);
    expect(designs).toHaveLength(total);
    expect(new Set(designs.map((d) => d.id)).size).toBe(total);
    for (const design of designs) {
      expectExactShape(designShape, design);
      expect(design.state).toBe('published');
      expect(design.primary_image_id).not.toBeNull();
      expect(design.tags.length).toBeGreaterThanOrEqual(2);
      expect(design.tags.length).toBeLessThanOrEqual(4);
      expect(design.description).toMatch(/^<p>.*<\/p>/s);
      expect(design.description).toContain('<ul>');
      expect(design.materials).not.toBe('');
      expect(design.documents_zip.url).not.toBeNull();
    }
    const perLicense = new Map<string, number>();
    for (const design of designs) perLicense.set(design.license, (perLicense.get(design.license) ?? 0) + 1);
    for (const code of LICENSE_CODES) expect(perLicense.get(code) ?? 0, `designs under ${code}`).toBeGreaterThanOrEqual(5);

    const owners = new Map<string, number>();
    for (const design of designs) owners.set(design.user.screen_name, (owners.get(design.user.screen_name) ?? 0) + 1);
    expect(owners.get('demo')).toBeGreaterThanOrEqual(8);
    expect(owners.get('maker')).toBeGreaterThanOrEqual(12);
    expect(owners.size).toBeGreaterThanOrEqual(5);

    // Newest first, and the dates spread over about two years.
    const created = designs.map((d) => Date.parse(d.created_at));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(Math.max(...created) - Math.min(...created)).toBeGreaterThan(365 * 24 * 3600 * 1000);
    expect(new Set(designs.map((d) => d.download_count)).size).toBeGreaterThan(20);
  });

  it('creates users who can sign in, with avatars, and demo follows maker and two others', async () => {
    expect(passwordMatches(findUserByScreenName(service.db, 'demo')!, 'demo')).toBe(true);
    expect(passwordMatches(findUserByScreenName(service.db, 'maker')!, 'maker')).toBe(true);
    for (const { screenName, realName } of DEMO_USERS) {
      const user = await json<{ real_name: string; location: string; skills: unknown[]; avatar_file: { url: string | null; mini: { url: string | null } } }>(
        await service.request('GET', `/v1/users/${screenName}`), 200,
      );
      expect(user.real_name).toBe(realName);
      expect(user.location).not.toBe('');
      expect(user.skills.length).toBeGreaterThan(0);
      expect(user.avatar_file.url, `${screenName} has an avatar`).not.toBeNull();
      const avatar = await bytes(service, user.avatar_file.mini.url!);
      expect(avatar.status).toBe(200);
      expect(avatar.type).toMatch(/^image\/jpeg/);
    }
    const followed = await json<{ screen_name: string }[]>(await service.request('GET', '/v1/users/demo/users'), 200);
    expect(followed.map((u) => u.screen_name)).toContain('maker');
    expect(followed.length).toBeGreaterThanOrEqual(3);
  });

  it("refuses demo's token on maker's designs (403) and accepts it on demo's own (204)", async () => {
    const makers = await json<UserDesign[]>(await service.request('GET', '/v1/users/maker/designs?limit=100'), 200);
    expect(makers.length).toBeGreaterThanOrEqual(12);
    const refused = await service.request('PATCH', `/v1/designs/${makers[0]!.id}`, { token: demoToken(), json: { design: { name: 'Taken over' } } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: expect.any(String) as string });

    const own = await json<UserDesign[]>(await service.request('GET', '/v1/users/demo/designs?limit=100'), 200);
    await expectEmpty(await service.request('PATCH', `/v1/designs/${own[0]!.id}`, { token: demoToken(), json: { design: { excerpt: own[0]!.excerpt } } }), 204);
  });

  it("shows demo's drafts in GET /v1/users/demo/designs only with demo's token", async () => {
    const withToken = await json<UserDesign[]>(await service.request('GET', '/v1/users/demo/designs?limit=100', { token: demoToken() }), 200);
    const anonymous = await json<UserDesign[]>(await service.request('GET', '/v1/users/demo/designs?limit=100'), 200);
    const drafts = withToken.filter((d) => d.state === 'draft');
    expect(drafts.length).toBeGreaterThanOrEqual(2);
    expect(drafts.length).toBeLessThanOrEqual(3);
    expect(anonymous.every((d) => d.state === 'published')).toBe(true);
    expect(anonymous.length).toBe(withToken.length - drafts.length);
    expect(anonymous.length).toBeGreaterThanOrEqual(8);
    for (const draft of drafts) expect((await service.request('GET', `/v1/designs/${draft.id}`)).status).toBe(404);
  });

  it('gives every design but the draft made from a model alone 1–3 images whose original and renditions are all fetchable, renditions as JPEG', async () => {
    const { designs } = await allPublished(service);
    const drafts = (await json<UserDesign[]>(await service.request('GET', '/v1/users/demo/designs?limit=100', { token: demoToken() }), 200))
      .filter((d) => d.state === 'draft');
    const formats = new Set<string>();
    await Promise.all([...designs, ...drafts].map(async (design) => {
      const images = await json<Image[]>(await service.request('GET', `/v1/designs/${design.id}/images`, { token: demoToken() }), 200);
      if (design.name === 'Calibration Cube with Chamfers (draft)') {
        // Its cover is drawn by the window from its STL.
        expect([images, design.primary_image_id]).toEqual([[], null]);
        return;
      }
      expect(images.length, `images of ${design.name}`).toBeGreaterThanOrEqual(1);
      expect(images.length).toBeLessThanOrEqual(3);
      expect(images.map((image) => image.id)).toContain(design.primary_image_id);
      for (const image of images) {
        formats.add(image.file.url!.slice(image.file.url!.lastIndexOf('.') + 1));
        const original = await bytes(service, image.file.url!, demoToken());
        expect(original.status, image.file.url!).toBe(200);
        for (const rendition of IMAGE_RENDITIONS) {
          const file = await bytes(service, image.file[rendition].url!, demoToken());
          expect(file.status, `${rendition} of ${image.file.url}`).toBe(200);
          expect(file.type).toMatch(/^image\/jpeg/);
          expect([...file.body.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
        }
      }
    }));
    expect(formats).toContain('jpg');
    expect(formats).toContain('png');
  }, 120_000);

  it('gives every design at least one STL document, each a valid binary STL, plus some OBJ and README files', async () => {
    const { designs } = await allPublished(service);
    const extensions = new Set<string>();
    await Promise.all(designs.map(async (design) => {
      const documents = await json<{ name: string; file: { url: string }; file_contains_3d_model: boolean }[]>(
        await service.request('GET', `/v1/designs/${design.id}/documents`), 200,
      );
      const stls = documents.filter((d) => d.file.url.endsWith('.stl'));
      expect(stls.length, `STL documents of ${design.name}`).toBeGreaterThanOrEqual(1);
      for (const document of documents) extensions.add(document.file.url.slice(document.file.url.lastIndexOf('.') + 1));
      for (const stl of stls) {
        expect(stl.file_contains_3d_model).toBe(true);
        const file = await bytes(service, stl.file.url);
        expect(file.status).toBe(200);
        expectBinaryStl(file.body, stl.file.url);
      }
    }));
    expect(extensions).toEqual(new Set(['stl', 'obj', 'md', 'txt']));
  }, 120_000);

  it('credits the sources of its adapted designs in attribution, and has every other design credit none', async () => {
    const { designs } = await allPublished(service);
    const credited = Object.fromEntries(designs.flatMap((design) => (design.attribution ? [[design.name, design.attribution]] : [])));
    expect(credited).toEqual(DEMO_ATTRIBUTIONS);
    expect(designs.filter((design) => !(design.name in DEMO_ATTRIBUTIONS)).every((design) => design.attribution === null)).toBe(true);
  });

  it('creates nothing the second time', async () => {
    const before = (service.db.prepare('SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM designs) AS designs, (SELECT count(*) FROM images) AS images').get());
    expect(await seedDemo(service.ctx)).toEqual({ created: false, users: 0, designs: 0 });
    expect(service.db.prepare('SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM designs) AS designs, (SELECT count(*) FROM images) AS images').get()).toEqual(before);
  });
});

describe('seedDemo when an upload fails', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ faultInjection: true });
  });
  afterAll(() => service?.stop());

  it('throws an error naming the failing request and undoes everything, so the next start seeds again', async () => {
    const fault = await service.request('POST', '/__admin/faults', { json: { kind: 'status', status: 503, method: 'POST', path: '/documents$', count: 1 } });
    expect(fault.status).toBe(201);
    await expect(seedDemo(service.ctx)).rejects.toThrow(/POST \/v1\/designs\/\d+\/documents \(STL of "[^"]+"\) answered 503/);
    const counts = service.db
      .prepare('SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM designs) AS designs, (SELECT count(*) FROM images) AS images, (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM follows) AS follows')
      .get();
    expect(counts).toEqual({ users: 0, designs: 0, images: 0, documents: 0, follows: 0 });
    const leftovers = readdirSync(join(service.dataDir, 'files'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(leftovers.map((entry) => join(entry.parentPath, entry.name))).toEqual([]);
    expect(findUserByScreenName(service.db, 'demo')).toBeUndefined();

    await expectEmpty(await service.request('DELETE', '/__admin/faults'), 204);
    expect(await seedDemo(service.ctx)).toMatchObject({ created: true });
  }, 180_000);
});

describe('seedSynthetic', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service?.stop());

  async function publishedTotal(): Promise<number> {
    const response = await service.request('GET', '/v1/designs?limit=100');
    expect(response.status).toBe(200);
    // Read to its end: a body of 100 designs left unread can hold its connection open, and the service's close with it.
    await response.arrayBuffer();
    return Number(response.headers.get(PAGINATION_HEADERS.totalCount));
  }

  it('appends published designs that list, page and search', async () => {
    const { token } = service.addUser('someone');
    await json(await service.request('POST', '/v1/designs', { token, json: { design: { name: 'Not synthetic', excerpt: 'A draft' } } }), 201);
    const before = await publishedTotal();
    seedSynthetic(service.ctx, 2000);
    expect(await publishedTotal()).toBe(before + 2000);

    const page = await json<Design[]>(await service.request('GET', '/v1/designs?limit=100&page=3'), 200);
    expect(page).toHaveLength(100);
    for (const design of page) {
      expectExactShape(designShape, design);
      expect(design.user.screen_name).toMatch(/^synthetic-[1-5]$/);
      expect(design.primary_image_id).toBeNull();
      expect(design.tags.length).toBeGreaterThanOrEqual(2);
    }
    expect(new Set(page.map((d) => d.license)).size).toBeGreaterThan(5);

    const word = SYNTHETIC_WORDS.nouns[0];
    const search = await service.request('GET', `/v1/designs/search?q=${encodeURIComponent(word)}&limit=100`);
    const found = await json<Design[]>(search, 200);
    expect(Number(search.headers.get(PAGINATION_HEADERS.totalCount))).toBeGreaterThan(10);
    expect(found.every((d) => `${d.name} ${d.excerpt} ${d.description}`.includes(word))).toBe(true);
  });

  it('continues the slugs after existing synthetic designs and reuses the synthetic users', async () => {
    const before = await publishedTotal();
    seedSynthetic(service.ctx, 5);
    expect(await publishedTotal()).toBe(before + 5);
    for (const slug of ['synthetic-design-2005', 'synthetic-design-2001']) await json(await service.request('GET', `/v1/designs/${slug}`), 200);
    expect(service.db.prepare(`SELECT count(*) AS n FROM users WHERE screen_name LIKE 'synthetic-%'`).get()).toEqual({ n: 5 });
  });

  it('refuses counts that are not a whole number from 1 to 5,000,000', () => {
    for (const count of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, SYNTHETIC_MAX_COUNT + 1]) {
      expect(() => seedSynthetic(service.ctx, count), String(count)).toThrow(/count must be a whole number from 1 to 5000000/);
    }
  });
});
