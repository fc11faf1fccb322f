import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LICENSE_CODES, LICENSES, type ContractProblem, type Outcome, type RequestName, type RequestResult } from '../../shared';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { childListsCheckedAt } from '../../electron/engine/cache/child-reads';
import { getCachedDesign } from '../../electron/engine/cache/design-reads';
import { upsertDesigns } from '../../electron/engine/cache/design-writes';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { storeAvatar } from '../../service/media/avatars';
import { startTestService, type TestService } from '../../harness/local-service';
import { listFormDesign, tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';

const FIXTURES = join(import.meta.dirname, '../fixtures');
const CUBE = join(FIXTURES, 'models', 'cube.stl');
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const MINUTE = 60_000;

let service: TestService;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let profile: string;
let scratch: string;
const opened: string[] = [];
const users: Record<string, { id: number; token: string }> = {};
const ids: Record<string, number> = {};
const slugs: Record<string, string> = {};

type Answer<K extends RequestName> = Outcome<RequestResult<K>>;

async function call<K extends RequestName>(name: K, input: unknown): Promise<Answer<K>> {
  return endpoint.handle(name, input) as Promise<Answer<K>>;
}

async function ok<K extends RequestName>(name: K, input: unknown): Promise<RequestResult<K>> {
  const outcome = await call(name, input);
  if (!outcome.ok) throw new Error(`${name}: expected success, got ${JSON.stringify(outcome.problem)}`);
  return outcome.value;
}

async function problem(name: RequestName, input: unknown): Promise<ContractProblem> {
  const outcome = await call(name, input);
  if (outcome.ok) throw new Error(`${name}: expected a problem, got ${JSON.stringify(outcome.value).slice(0, 300)}`);
  return outcome.problem;
}

/** Everything a refused request must leave as it was: the service's designs and the cache's. */
function fingerprint(): string {
  return JSON.stringify({
    service: service.db.prepare('SELECT id, name, excerpt, state, license, primary_image_id, updated_at FROM designs ORDER BY id').all(),
    cache: engine.cache.reader.prepare('SELECT id, name, state, is_own, fetched_at FROM designs ORDER BY id').all(),
  });
}

const names = (page: { items: { name: string }[] }) => page.items.map((item) => item.name);

/** What the service serves at one of its own file addresses (for comparing with what the host serves). */
async function serviceBytes(url: string, token?: string): Promise<Buffer> {
  const response = await service.request('GET', url, token ? { token } : {});
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

beforeAll(async () => {
  service = await startTestService();
  for (const name of ['alice', 'bob', 'maker', 'carol', 'dave']) {
    const { user, token } = service.addUser(name);
    users[name] = { id: user.id, token };
  }
  await storeAvatar(service.ctx, users.alice!.id, readFileSync(join(FIXTURES, 'images', 'jpg-sample.jpg')));
  scratch = tempDir('contract-browse-files');
  writeFileSync(join(scratch, 'notes.txt'), 'Print at 0.2 mm.\n');

  const alice = clientFor(service.url, users.alice!.token);
  const gear = await alice.createDesign({ name: 'Gear', excerpt: 'A spur gear', license: 'ccby', description: '<p>A spur <b>gear</b> with 20 teeth</p>' });
  ids.gearImage = (await alice.uploadImage(gear.id, { path: join(FIXTURES, 'images', 'jpg-sample.jpg') })).id;
  ids.cube = (await alice.uploadDocument(gear.id, { path: CUBE })).id;
  ids.notes = (await alice.uploadDocument(gear.id, { path: join(scratch, 'notes.txt') })).id;
  await alice.publishDesign(gear.id);
  const bolt = await alice.createDesign({ name: 'Bolt', excerpt: 'M3 bolt', license: 'cc0' });
  await alice.publishDesign(bolt.id);
  const lamp = await alice.createDesign({ name: 'Lamp', excerpt: 'A lamp for the desk', license: 'ccbysa' });
  await alice.uploadImage(lamp.id, { path: join(FIXTURES, 'images', 'png-sample.png') });
  await alice.publishDesign(lamp.id);
  const hook = await clientFor(service.url, users.bob!.token).createDesign({ name: 'Hook', excerpt: 'A wall hook', license: 'ccbyncsa' });
  await clientFor(service.url, users.bob!.token).publishDesign(hook.id);
  const maker = clientFor(service.url, users.maker!.token);
  const hinge = await maker.createDesign({ name: 'Hinge', excerpt: 'A draft hinge', license: 'cc0' });
  const clamp = await maker.createDesign({ name: 'Clamp', excerpt: 'A clamp', license: 'ccbysa' });
  ids.box = (await maker.uploadDocument(clamp.id, { path: join(FIXTURES, 'models', 'box.obj') })).id;
  await maker.publishDesign(clamp.id);
  Object.assign(ids, { gear: gear.id, bolt: bolt.id, lamp: lamp.id, hook: hook.id, hinge: hinge.id, clamp: clamp.id });
  Object.assign(slugs, { gear: gear.slug });

  // What the API cannot set: popularity and known times, so that every sort has one right answer.
  const plan: [number, popularity: number, updatedMinutes: number][] = [
    [gear.id, 50, 5], [bolt.id, 10, 60], [lamp.id, 90, 3], [hook.id, 30, 4], [hinge.id, 0, 1], [clamp.id, 70, 2],
  ];
  const update = service.db.prepare('UPDATE designs SET last_trending_popularity = ?, created_at = ?, updated_at = ? WHERE id = ?');
  plan.forEach(([id, popularity, updated], i) => update.run(popularity, T0 + i * MINUTE, T0 + updated * MINUTE, id));

  profile = tempDir('contract-browse');
  engine = await openEngine({
    profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test',
    tokenStore: () => new MemoryTokenStore(users.maker!.token), settingsStore: () => memorySettingsStore(),
    openBrowser: async (url) => {
      opened.push(url);
    },
  });
  endpoint = createContractEndpoint(engine);
  await ok('catalogue.pull', {});
  // The search rows are written behind the pull: searched, the cache is as the window finds it once they are.
  await engine.searchIndex.whenIdle();
});

afterAll(async () => {
  endpoint?.close();
  await engine?.close();
  await service?.stop().catch(() => {});
  rmSync(profile, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe('malformed inputs: refused naming the field, nothing changed', () => {
  const cases: [RequestName, () => unknown, string][] = [
    ['library.page', () => ({ sort: 'random' }), 'sort'],
    ['library.page', () => ({ licenses: ['mine'] }), 'licenses.0'],
    ['library.page', () => ({ offset: -1 }), 'offset'],
    ['library.page', () => ({ limit: 500 }), 'limit'],
    ['library.licenseCounts', () => ({ query: 'x'.repeat(501) }), 'query'],
    ['library.searchService', () => ({ query: '   ' }), 'query'],
    ['library.searchService', () => ({}), 'query'],
    ['design.get', () => ({ id: -1 }), 'id'],
    ['design.get', () => ({ id: ids.gear, full: true }), 'full'],
    ['design.openPage', () => ({ id: null }), 'id'],
    ['author.get', () => ({}), 'id'],
    ['author.get', () => ({ id: 1.5 }), 'id'],
    ['own.list', () => ({ all: true }), 'all'],
    ['own.create', () => ({ name: 5, excerpt: 'x' }), 'name'],
    ['own.create', () => ({ name: 'Shelf' }), 'excerpt'],
    ['own.create', () => ({ name: 'Shelf', excerpt: 'x', state: 'published' }), 'state'],
    ['own.update', () => ({ id: 'x', name: 'y' }), 'id'],
    ['own.update', () => ({ id: ids.clamp, license: 'mine' }), 'license'],
    ['own.update', () => ({ id: ids.clamp, state: 'draft' }), 'state'],
    ['own.publish', () => ({ id: 0 }), 'id'],
    ['own.delete', () => ({ id: ids.clamp, confirm: false }), 'confirm'],
    ['own.delete', () => ({ id: ids.clamp }), 'confirm'],
  ];
  for (const [name, input, field] of cases) {
    it(`${name}: ${field}`, async () => {
      const before = fingerprint();
      const refused = await problem(name, input());
      expect(refused.kind).toBe('validation');
      expect(refused.kind === 'validation' && Object.keys(refused.fieldErrors)).toContain(field);
      expect(fingerprint()).toBe(before);
    });
  }
});

describe('library.page', () => {
  it('sorts the whole cache four ways, with the total for a virtualized grid', async () => {
    const page = async (sort: string) => ok('library.page', { sort, limit: 10 });
    const newest = await page('newest');
    expect(newest.total).toBe(6);
    expect(newest.offset).toBe(0);
    expect(names(newest)).toEqual(['Clamp', 'Hinge', 'Hook', 'Lamp', 'Bolt', 'Gear']);
    expect(names(await page('popular'))).toEqual(['Lamp', 'Clamp', 'Gear', 'Hook', 'Bolt', 'Hinge']);
    expect(names(await page('name'))).toEqual(['Bolt', 'Clamp', 'Gear', 'Hinge', 'Hook', 'Lamp']);
    expect(names(await page('updated'))).toEqual(['Bolt', 'Gear', 'Hook', 'Lamp', 'Clamp', 'Hinge']);
    expect(newest.catalogueCheckedAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });

  it('sends only the page asked for, with the total of the whole filter', async () => {
    const page = await ok('library.page', { sort: 'name', offset: 2, limit: 2 });
    expect({ total: page.total, offset: page.offset, names: names(page) }).toEqual({ total: 6, offset: 2, names: ['Gear', 'Hinge'] });
    const past = await ok('library.page', { sort: 'name', offset: 6, limit: 2 });
    expect({ total: past.total, names: names(past) }).toEqual({ total: 6, names: [] });
  });

  it('filters by licenses (empty: all), and searches the cache offline-style with the filter and the sort', async () => {
    const shareAlike = await ok('library.page', { licenses: ['ccbysa'], sort: 'popular' });
    expect({ total: shareAlike.total, names: names(shareAlike) }).toEqual({ total: 2, names: ['Lamp', 'Clamp'] });
    expect(names(await ok('library.page', { licenses: ['ccby', 'cc0'], sort: 'name' }))).toEqual(['Bolt', 'Gear', 'Hinge']);
    // A word of the description, of the excerpt, the author's name.
    expect(names(await ok('library.page', { query: 'teeth' }))).toEqual(['Gear']);
    expect(names(await ok('library.page', { query: 'desk' }))).toEqual(['Lamp']);
    const byAlice = await ok('library.page', { query: 'alice', sort: 'name' });
    expect({ total: byAlice.total, names: names(byAlice) }).toEqual({ total: 3, names: ['Bolt', 'Gear', 'Lamp'] });
    const filtered = await ok('library.page', { query: 'alice', licenses: ['cc0'] });
    expect({ total: filtered.total, names: names(filtered) }).toEqual({ total: 1, names: ['Bolt'] });
    expect(await ok('library.page', { query: 'nothing-like-this' })).toMatchObject({ total: 0, items: [] });
  });

  it('hands out cards with their license, rule-2 attribution naming the right author, cover address and ISO times', async () => {
    const cards = new Map((await ok('library.page', {})).items.map((card) => [card.name, card]));
    const gear = cards.get('Gear')!;
    expect(gear).toMatchObject({
      id: ids.gear, slug: slugs.gear, excerpt: 'A spur gear', own: false, state: 'published',
      author: { id: users.alice!.id, screenName: 'alice' },
      license: LICENSES.ccby,
      attribution: { required: true, unavailable: false, text: `“Gear” by alice, licensed ${LICENSES.ccby.title}` },
      thumbnailUrl: `/files/images/${ids.gearImage}/grid`,
      createdAt: new Date(T0).toISOString(),
      updatedAt: new Date(T0 + 5 * MINUTE).toISOString(),
    });
    expect(Date.parse(gear.checkedAt!)).toBeGreaterThan(T0);
    expect(cards.get('Hook')!.attribution.text).toBe(`“Hook” by bob, licensed ${LICENSES.ccbyncsa.title}`);
    expect(cards.get('Clamp')).toMatchObject({ own: true, attribution: { text: `“Clamp” by maker, licensed ${LICENSES.ccbysa.title}` } });
    expect(cards.get('Bolt')).toMatchObject({ thumbnailUrl: null, attribution: { required: false, text: null, unavailable: false } });
    expect(cards.get('Hinge')).toMatchObject({ state: 'draft', own: true });
  });
});

describe('library.licenseCounts', () => {
  it('counts every license code, zeros included, for the whole cache and for a query', async () => {
    const all = await ok('library.licenseCounts', {});
    expect(Object.keys(all.counts).sort()).toEqual([...LICENSE_CODES].sort());
    expect(all).toEqual({ total: 6, counts: { ...Object.fromEntries(LICENSE_CODES.map((code) => [code, 0])), ccby: 1, cc0: 2, ccbysa: 2, ccbyncsa: 1 } });
    const byAlice = await ok('library.licenseCounts', { query: 'alice' });
    expect(byAlice.total).toBe(3);
    expect(byAlice.counts).toMatchObject({ ccby: 1, cc0: 1, ccbysa: 1, ccbyncsa: 0, gplv3: 0 });
  });
});

describe('rule 2 for a design whose author the cache lacks', () => {
  it('resolves the author through the users endpoint and names them', async () => {
    upsertDesigns(engine.cache.db, [listFormDesign({ id: 990_001, name: 'Pulley', slug: 'pulley', license: 'ccby', user: undefined, user_id: users.carol!.id })], 'list', Date.now());
    const [pulley] = (await ok('library.page', { query: 'pulley' })).items;
    expect(pulley!.attribution).toEqual({ required: true, unavailable: false, text: `“Pulley” by carol, licensed ${LICENSES.ccby.title}` });
    expect(pulley!.author).toEqual({ id: users.carol!.id, screenName: 'carol' });
  });
});

let detail: RequestResult<'design.get'>;

describe('design.get', () => {
  it('reads the lists the cache never read (the documents of someone else\'s design) and gives the design in full', async () => {
    expect(getCachedDesign(engine.cache.reader, ids.gear!)!.documents).toEqual([]);
    expect(childListsCheckedAt(engine.cache.reader, ids.gear!)).toBeNull();
    detail = await ok('design.get', { id: ids.gear });
    expect(detail.card).toMatchObject({ id: ids.gear, name: 'Gear', attribution: { text: `“Gear” by alice, licensed ${LICENSES.ccby.title}` } });
    expect(detail.descriptionHtml).toBe('<p>A spur <b>gear</b> with 20 teeth</p>');
    expect(detail.tags).toEqual([]);
    expect(detail.images).toEqual([{
      id: ids.gearImage, name: 'jpg-sample.jpg', thumbnailUrl: `/files/images/${ids.gearImage}/grid`, largeUrl: `/files/images/${ids.gearImage}/large`, cached: true,
    }]);
    expect(detail.documents).toEqual([
      { id: ids.cube, name: 'cube.stl', type: 'stl', size: readFileSync(CUBE).length, isModel: true, previewUrl: `/files/documents/${ids.cube}/cube.stl`, cached: false },
      { id: ids.notes, name: 'notes.txt', type: 'txt', size: 17, isModel: false, previewUrl: null, cached: false },
    ]);
    expect(detail.author).toMatchObject({ id: users.alice!.id, screenName: 'alice' });
    expect(detail.pageUrl).toBe(`${service.url}/designs/${slugs.gear}`);
    expect(Date.parse(detail.listsCheckedAt!)).toBeGreaterThan(T0);
    expect(getCachedDesign(engine.cache.reader, ids.gear!)!.documents).toHaveLength(2);
  });

  it('serves the model behind the preview address byte for byte, then says it is cached', async () => {
    const model = await endpoint.file(detail.documents[0]!.previewUrl!);
    expect(model).toMatchObject({ contentType: 'model/stl', size: readFileSync(CUBE).length });
    expect(readFileSync(model!.path).equals(readFileSync(CUBE))).toBe(true);
    const image = await endpoint.file(detail.images[0]!.largeUrl);
    expect(image?.contentType).toBe('image/jpeg');
    const servedBytes = readFileSync(image!.path);
    const large = (getCachedDesign(engine.cache.reader, ids.gear!)!.images[0]!.raw.file as Record<string, { url: string }>).large!.url;
    expect(servedBytes.equals(await serviceBytes(large))).toBe(true);
    expect((await ok('design.get', { id: slugs.gear })).documents[0]).toMatchObject({ name: 'cube.stl', cached: true });
  });

  it('reads a design the cache lacks from the service and keeps it; a design that does not exist is not-found', async () => {
    const bob = clientFor(service.url, users.bob!.token);
    const washer = await bob.createDesign({ name: 'Washer', excerpt: 'M3 washer', license: 'cc0' });
    await bob.publishDesign(washer.id);
    ids.washer = washer.id;
    expect(getCachedDesign(engine.cache.reader, washer.id)).toBeNull();
    const read = await ok('design.get', { id: washer.id });
    expect(read.card).toMatchObject({ name: 'Washer', author: { screenName: 'bob' }, attribution: { required: false } });
    expect(getCachedDesign(engine.cache.reader, washer.id)?.summary.name).toBe('Washer');
    expect(await problem('design.get', { id: 987_654 })).toMatchObject({ kind: 'not-found' });
  });
});

describe('design.openPage', () => {
  it('opens the design\'s page through the host (rule 1: the page, never a file)', async () => {
    const page = await ok('design.openPage', { id: ids.gear });
    expect(page).toEqual({ url: `${service.url}/designs/${slugs.gear}`, opened: true });
    expect(opened).toEqual([page.url]);
    expect(page.url).not.toMatch(/\/uploads\/|\.stl$/);
    expect((await service.request('GET', new URL(page.url).pathname)).status).toBe(200);
  });
});

describe('author.get', () => {
  it('reads the author and their designs from the users endpoints, avatar served by address', async () => {
    const page = await ok('author.get', { id: 'alice' });
    expect(page.fromService).toBe(true);
    expect(page.author).toMatchObject({ id: users.alice!.id, screenName: 'alice', avatarUrl: `/files/avatars/${users.alice!.id}` });
    expect(page.designs.map((design) => design.name).sort()).toEqual(['Bolt', 'Gear', 'Lamp']);
    expect(page.designs.find((design) => design.name === 'Lamp')!.attribution.text).toBe(`“Lamp” by alice, licensed ${LICENSES.ccbysa.title}`);
    const avatar = await endpoint.file(page.author.avatarUrl!);
    expect(avatar?.contentType).toBe('image/jpeg');
    expect(readFileSync(avatar!.path).equals(await serviceBytes(`/uploads/user/avatar/${users.alice!.id}/medium_avatar.jpg`))).toBe(true);
    expect(await problem('author.get', { id: 'nobody-at-all' })).toMatchObject({ kind: 'not-found' });
  });
});

describe('library.searchService', () => {
  it('merges what the service finds into the cache; a cover the cache never listed is fetched on demand', async () => {
    const bob = clientFor(service.url, users.bob!.token);
    const sprocket = await bob.createDesign({ name: 'Sprocket', excerpt: 'A chain sprocket', license: 'ccby' });
    const image = await bob.uploadImage(sprocket.id, { path: join(FIXTURES, 'images', 'png-sample.png') });
    await bob.publishDesign(sprocket.id);
    expect((await ok('library.page', { query: 'sprocket' })).total).toBe(0);

    expect(await ok('library.searchService', { query: 'sprocket' })).toEqual({ found: 1, merged: 1 });
    const [card] = (await ok('library.page', { query: 'sprocket' })).items;
    expect(card).toMatchObject({ name: 'Sprocket', thumbnailUrl: `/files/images/${image.id}/grid`, attribution: { text: `“Sprocket” by bob, licensed ${LICENSES.ccby.title}` } });
    expect(getCachedDesign(engine.cache.reader, sprocket.id)!.images).toEqual([]);
    const served = await endpoint.file(card!.thumbnailUrl!);
    // Renditions are JPEGs whatever the upload was.
    const grid = (image.file as unknown as Record<string, { url: string }>).grid!.url;
    expect(grid).toMatch(/\.jpg$/);
    expect(served?.contentType).toBe('image/jpeg');
    expect(readFileSync(served!.path).equals(await serviceBytes(grid))).toBe(true);
    expect(getCachedDesign(engine.cache.reader, sprocket.id)!.images.map((row) => row.id)).toEqual([image.id]);
  });
});

describe('file addresses', () => {
  it('refuses what is malformed or names nothing previewable', async () => {
    for (const address of [
      '/files/images/abc/grid', `/files/images/${ids.gearImage}/huge`, `/files/images/${ids.gearImage}/grid/../large`, `/files/images/${ids.gearImage}`,
      `/files/documents/${ids.cube}/..`, `/files/documents/${ids.cube}/%2e%2e`, `/files/documents/${ids.cube}`, `/files/documents/${ids.notes}/notes.txt`,
      '/files/avatars/x', '/files/../cache.sqlite', '/files/images/-1/grid', '/files/images/123456789/grid', `/files/avatars/${users.bob!.id}`,
    ]) {
      expect(await endpoint.file(address), address).toBeNull();
    }
  });
});

describe('own designs', () => {
  let clampModel: string;

  it('own.list: the signed-in user\'s designs, drafts included, with their sync state', async () => {
    const list = await ok('own.list', {});
    expect(list.map((view) => [view.card.name, view.published, view.card.own]).sort()).toEqual([['Clamp', true, true], ['Hinge', false, true]]);
    for (const view of list) expect(view).toMatchObject({ folder: null, syncState: 'not-synced', pending: 0, note: null, notes: [] });
    clampModel = (await ok('design.get', { id: ids.clamp })).documents[0]!.previewUrl!;
    expect(clampModel).toBe(`/files/documents/${ids.box}/box.obj`);
  });

  it('own.create refuses a name the service would refuse, with the service\'s words, and sends nothing', async () => {
    const before = fingerprint();
    const refused = await problem('own.create', { name: 'x'.repeat(256), excerpt: 'Holds a shelf' });
    expect(refused).toMatchObject({ kind: 'validation', fieldErrors: { name: ['is too long (maximum is 255 characters)'] } });
    expect(await problem('own.create', { name: '  ', excerpt: 'x'.repeat(301) })).toMatchObject({
      kind: 'validation', fieldErrors: { name: ["can't be blank"], excerpt: ['is too long (maximum is 300 characters)'] },
    });
    expect(fingerprint()).toBe(before);
  });

  it('creates a draft, edits it, publishes it only when asked (rule 4), and deletes it', async () => {
    const created = await ok('own.create', { name: 'Bracket', excerpt: 'Holds a shelf', license: 'ccby' });
    expect(created).toMatchObject({ published: false, card: { name: 'Bracket', own: true, state: 'draft', author: { screenName: 'maker' } } });
    const id = created.card.id;
    const onService = () => service.db.prepare('SELECT name, state, primary_image_id FROM designs WHERE id = ?').get(id) as { name: string; state: string } | undefined;
    expect(onService()).toMatchObject({ name: 'Bracket', state: 'draft' });
    expect((await ok('own.list', {})).map((view) => view.card.name).sort()).toEqual(['Bracket', 'Clamp', 'Hinge']);

    const edited = await ok('own.update', { id, name: 'Bracket v2', description: '<p>Steel-look</p>' });
    expect(edited).toMatchObject({ published: false, card: { name: 'Bracket v2' } });
    expect(onService()).toMatchObject({ name: 'Bracket v2', state: 'draft' });

    // The service's own refusal, named as the contract names the field; nothing changed.
    const before = fingerprint();
    const refused = await problem('own.update', { id, primaryImageId: ids.gearImage });
    expect(refused).toMatchObject({ kind: 'validation', fieldErrors: { primaryImageId: [expect.stringMatching(/one of the design's images/)] } });
    expect(fingerprint()).toBe(before);

    const published = await ok('own.publish', { id });
    expect(published).toMatchObject({ published: true, card: { state: 'published', attribution: { text: `“Bracket v2” by maker, licensed ${LICENSES.ccby.title}` } } });
    expect(onService()).toMatchObject({ state: 'published' });

    expect(await ok('own.delete', { id, confirm: true })).toEqual({ id });
    expect(onService()).toBeUndefined();
    expect(getCachedDesign(engine.cache.reader, id)).toBeNull();
  });

  it('knows a design of the user\'s made elsewhere (cached from a read, not from an own pull) as theirs', async () => {
    const elsewhere = clientFor(service.url, users.maker!.token);
    const shelf = await elsewhere.createDesign({ name: 'Shelf', excerpt: 'Made on the laptop', license: 'cc0' });
    await elsewhere.publishDesign(shelf.id);
    await ok('design.get', { id: shelf.id });
    expect(getCachedDesign(engine.cache.reader, shelf.id)!.summary.own).toBe(false);
    expect((await ok('own.list', {})).map((view) => view.card.name)).toContain('Shelf');
    expect(await ok('own.update', { id: shelf.id, name: 'Shelf v2' })).toMatchObject({ card: { name: 'Shelf v2', own: true } });
    expect(await ok('own.delete', { id: shelf.id, confirm: true })).toEqual({ id: shelf.id });
  });

  it('refuses to change a design that is not the user\'s, and changes nothing', async () => {
    const before = fingerprint();
    expect(await problem('own.update', { id: ids.gear, name: 'Mine now' })).toMatchObject({ kind: 'conflict', message: expect.stringMatching(/Gear.*not yours/) });
    expect(await problem('own.publish', { id: ids.gear })).toMatchObject({ kind: 'conflict' });
    expect(await problem('own.delete', { id: ids.gear, confirm: true })).toMatchObject({ kind: 'conflict' });
    expect(fingerprint()).toBe(before);
  });

  it('asks to sign in first when nobody is signed in', async () => {
    const otherProfile = tempDir('contract-browse-signed-out');
    const signedOut = await openEngine({
      profileDir: otherProfile, serviceUrl: service.url, userAgent: 'design-sync-test', tokenStore: () => new MemoryTokenStore(null), settingsStore: () => memorySettingsStore(),
    });
    const other = createContractEndpoint(signedOut);
    try {
      const before = fingerprint();
      expect(await other.handle('own.create', { name: 'Shelf', excerpt: 'A shelf' })).toMatchObject({ ok: false, problem: { kind: 'not-signed-in' } });
      expect(await other.handle('own.list', {})).toEqual({ ok: true, value: [] });
      expect(fingerprint()).toBe(before);
    } finally {
      other.close();
      await signedOut.close();
      rmSync(otherProfile, { recursive: true, force: true });
    }
  });

  describe('with the service stopped', () => {
    let listsCheckedAt: string | null;

    beforeAll(async () => {
      listsCheckedAt = (await ok('design.get', { id: ids.gear })).listsCheckedAt;
      upsertDesigns(engine.cache.db, [listFormDesign({ id: 990_002, name: 'Ghost', slug: 'ghost', license: 'ccby', user: undefined, user_id: users.dave!.id })], 'list', Date.now());
      await service.stop();
    });

    it('library.page answers from the cache; an author it cannot resolve makes the card say "attribution unavailable"', async () => {
      const [ghost] = (await ok('library.page', { query: 'ghost' })).items;
      expect(ghost).toMatchObject({ name: 'Ghost', author: { id: users.dave!.id, screenName: null }, attribution: { required: true, unavailable: true, text: null } });
      // What was resolved while online still names its author.
      expect((await ok('library.page', { query: 'pulley' })).items[0]!.attribution.text).toMatch(/by carol/);
      expect((await ok('library.page', { sort: 'name', limit: 3 })).items.map((card) => card.name)).toEqual(['Bolt', 'Clamp', 'Gear']);
    });

    it('design.get shows what the cache has, files already cached still served, others not', async () => {
      const offline = await ok('design.get', { id: ids.gear });
      expect(offline.listsCheckedAt).toBe(listsCheckedAt);
      expect(offline.documents.map((document) => [document.name, document.cached])).toEqual([['cube.stl', true], ['notes.txt', false]]);
      expect(readFileSync((await endpoint.file(offline.documents[0]!.previewUrl!))!.path).equals(readFileSync(CUBE))).toBe(true);
      expect(await endpoint.file(clampModel)).toBeNull();
      expect(Date.parse(listsCheckedAt!)).toBeGreaterThan(Date.parse(detail.listsCheckedAt!));
      // Lists never read from the service: the window is told, not shown an empty list as if checked.
      expect(await ok('design.get', { id: 990_001 })).toMatchObject({ images: [], documents: [], listsCheckedAt: null });
      const missing = await problem('design.get', { id: 990_099 });
      expect(missing).toMatchObject({ kind: 'not-cached', message: expect.stringMatching(/990099/) });
    });

    it('author.get answers from the cache, saying so; an author never seen is not-cached', async () => {
      const page = await ok('author.get', { id: 'alice' });
      expect(page).toMatchObject({ fromService: false, author: { id: users.alice!.id, screenName: 'alice' } });
      expect(page.designs.map((design) => design.name).sort()).toEqual(['Bolt', 'Gear', 'Lamp']);
      expect(await problem('author.get', { id: 'nobody-at-all' })).toMatchObject({ kind: 'not-cached' });
    });

    it('library.searchService and own writes say offline at once, and nothing is kept as if sent', async () => {
      expect(await problem('library.searchService', { query: 'gear' })).toMatchObject({ kind: 'offline' });
      const before = engine.cache.reader.prepare('SELECT count(*) AS n FROM designs').get();
      const started = Date.now();
      expect(await problem('own.create', { name: 'Shelf', excerpt: 'A shelf' })).toMatchObject({ kind: 'offline' });
      expect(Date.now() - started).toBeLessThan(2_500);
      expect(engine.cache.reader.prepare('SELECT count(*) AS n FROM designs').get()).toEqual(before);
      // The page's address needs no service.
      expect(await ok('design.openPage', { id: ids.gear })).toEqual({ url: `${service.url}/designs/${slugs.gear}`, opened: true });
    });
  });
});
