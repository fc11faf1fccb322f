import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCacheDatabase } from '../../../electron/engine/cache/cache-database';
import { primaryImageOfCover } from '../../../electron/engine/cache/child-reads';
import { COMPACT_FORM_V1 } from '../../../electron/engine/cache/compact-form';
import { getCachedDesign, searchCachedDesigns } from '../../../electron/engine/cache/design-reads';
import { upsertDesign, upsertDesigns, type DesignForm } from '../../../electron/engine/cache/design-writes';
import { applyLocalDesignEdit } from '../../../electron/engine/cache/local-design-edit';
import { startTestService, type TestService } from '../../../harness/local-service';
import { seedDemo } from '../../../service/seed/demo-seed';
import { listFormDesign } from './cache-fixtures';

const NOW = 1_700_000_000_000;
const freshCache = () => openCacheDatabase(':memory:');
type Cache = ReturnType<typeof freshCache>;

const storedRow = (db: Cache, id: number) => db.prepare('SELECT list_json, list_layout, user_form_json, user_form_layout FROM designs WHERE id = ?').get(id) as
  { list_json: string | null; list_layout: number | null; user_form_json: string | null; user_form_layout: number | null };

/** The forms the cache gives back of a design written from `raw`. */
function writtenAndReadBack(raw: Record<string, unknown>, form: DesignForm = 'list', db = freshCache()) {
  expect(upsertDesign(db, raw, form, NOW, { inListing: form === 'list' }).outcome).not.toBe('skipped');
  return getCachedDesign(db, raw.id as number)!.forms[form];
}

/** Every design the recorded answers of the live service hold (test/fixtures/recorded), lists and single reads. */
function recordedDesigns(): Record<string, unknown>[] {
  const recorded = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/recorded/youmagine-designs.json'), 'utf8')) as
    { interactions: { uri: string; status: number; body: string }[] };
  const designs = new Map<number, Record<string, unknown>>();
  for (const { uri, status, body } of recorded.interactions) {
    if (status !== 200 || !new URL(uri).pathname.startsWith('/v1/designs')) continue;
    const parsed = JSON.parse(body) as unknown;
    for (const design of Array.isArray(parsed) ? parsed : [parsed]) designs.set((design as { id: number }).id, design as Record<string, unknown>);
  }
  return [...designs.values()];
}

describe('a design\'s stored forms', () => {
  it('give back every design the live service sent, field for field and in its order, stored in less text', () => {
    const designs = recordedDesigns();
    expect(designs.length).toBeGreaterThan(30);
    const db = freshCache();
    upsertDesigns(db, designs, 'list', NOW, { inListing: true });
    let whole = 0;
    let stored = 0;
    for (const design of designs) {
      const read = getCachedDesign(db, design.id as number)!.forms.list;
      expect(JSON.stringify(read)).toBe(JSON.stringify(design));
      const row = storedRow(db, design.id as number);
      expect(row.list_layout).not.toBeNull();
      whole += JSON.stringify(design).length;
      stored += row.list_json!.length;
    }
    expect(stored / whole).toBeLessThan(0.4);
    const covered = designs.find((design) => typeof design.primary_image === 'object' && design.primary_image !== null)!;
    expect(primaryImageOfCover(db, covered.primary_image_id as number)).toEqual(covered.primary_image);
  });

  it('keep fields the service adds, nulls, escapes and text outside ASCII, and keys that look like the stored short ones', () => {
    const raw = listFormDesign({
      id: 41, name: 'Żółw 🐢 "quoted" \\ back', excerpt: null, slug: null, primary_image_id: 12, license: null, description: '<p>naïve</p>',
      attribution: 'after «Ada»', tags: [{ id: 1, name: 'tortue', taggings_count: 2 }, 'plain', { id: 2, name: 'x' }],
      documents_zip: { url: 'https://files.example/zip/41.zip', size: 3 },
      primary_image: { file: { url: '/a/b.png', small: { url: '/a/small_b.png' }, large: { url: '/a/large_b.jpg' } } },
      t: 'a short key of its own', z: [1], c: null, '~': 'tilde', '~c': 'tilde c', __proto__: 'not a prototype', constructor: 5,
      nested: { deep: [null, { é: true }] }, wiki_mode: false,
    });
    Object.defineProperty(raw, '__proto__', { value: { odd: true }, enumerable: true, writable: true, configurable: true });
    const read = writtenAndReadBack(raw);
    expect(read).toEqual(raw);
    expect(Object.keys(read!)).toEqual(expect.arrayContaining(['__proto__', 'constructor', 't', 'z', 'c', '~', '~c']));
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
  });

  it('keep images whose renditions are named otherwise, and documents_zip urls that are not the design\'s own', () => {
    const images = [
      { file: { url: '/i/7/cat.png', grid: { url: '/i/7/grid_cat.jpg' }, '__proto__': { url: '/i/7/__proto___cat.jpg' } } },
      { file: { url: '/i/7/cat', small: { url: '/i/7/small_cat' } } },
      { file: { url: '/i/7/cat.png' } },
      { file: { small: { url: '/i/7/small_cat.png' }, url: '/i/7/cat.png' } },
      { file: { url: '/i/7/cat.png', small: { url: '/i/7/small_cat.png', width: 40 } } },
      { file: { url: null, small: { url: null } } },
      { file: 'x' }, { file: {}, id: 3 }, [], null,
    ];
    images.forEach((primary_image, i) => {
      const raw = listFormDesign({ id: 60 + i, slug: `cat ${i}`, primary_image, documents_zip: { url: i % 2 ? `/zip/${60 + i}/cat%20${i}.zip` : `/zip/${60 + i}/other.zip` } });
      expect(writtenAndReadBack(raw)).toStrictEqual(raw);
    });
  });

  it('keep a form missing fields the columns hold missing, and one whose fields differ from the columns as they were sent', () => {
    const bare = { id: 42, name: 'Bare', updated_at: '2026-02-01T00:00:00Z' };
    expect(writtenAndReadBack(bare)).toStrictEqual(bare);
    const { materials: _materials, ...noMaterials } = listFormDesign({ id: 50, v: ['its own'], download_count: null });
    expect(writtenAndReadBack(noMaterials)).toStrictEqual(noMaterials);
    const all = listFormDesign({ id: 51, v: 'its own', download_count: { odd: [1] }, design_category_id: null });
    expect(writtenAndReadBack(all)).toStrictEqual(all);
    // The tolerant reader writes columns that are not what was sent: the form keeps what was.
    const odd = { id: 43, name: 42, slug: 7, excerpt: ['x'], user_id: 'seven', state: {}, created_at: 5, updated_at: false, user: { id: 9, screen_name: 'nine', extra: true } };
    expect(writtenAndReadBack(odd)).toStrictEqual(odd);
    const author = { id: 44, name: 'Nameless author', user_id: 3, user: { id: 3, screen_name: '' } };
    expect(writtenAndReadBack(author)).toStrictEqual(author);
  });

  it('keep an integer past what a double holds as the service wrote it when its text is known', () => {
    const text = '{"id":45,"name":"Big","download_count":12345678901234567891,"updated_at":"2026-01-01T00:00:00Z"}';
    const db = freshCache();
    upsertDesigns(db, [JSON.parse(text)], 'list', NOW, {}, undefined, [text]);
    expect(storedRow(db, 45)).toMatchObject({ list_json: text, list_layout: null });
    expect(getCachedDesign(db, 45)!.forms.list).toEqual(JSON.parse(text));
    // The same design twice in one answer: each written in turn, the text of each kept.
    const again = text.replace('"Big"', '"Bigger"').replace('00:00:00Z', '00:00:01Z');
    upsertDesigns(db, [JSON.parse(text), JSON.parse(again)], 'list', NOW, {}, undefined, () => [text, again]);
    expect(storedRow(db, 45)).toMatchObject({ list_json: again, list_layout: null });
  });

  it('read rows stored whole before, and keep each form whole when another form of the design changes its columns', () => {
    const db = freshCache();
    const old = listFormDesign({ id: 46, name: 'Old row', updated_at: '2026-01-01T00:00:00.000+00:00' });
    upsertDesign(db, old, 'list', NOW, { inListing: true });
    db.prepare('UPDATE designs SET list_json = ?, list_layout = NULL WHERE id = 46').run(JSON.stringify(old));
    expect(getCachedDesign(db, 46)!.forms.list).toEqual(old);

    // A newer user-designs form renames it: the columns follow it, the list form still says what it said.
    const { tags: _tags, user: _user, ...core } = old;
    const userForm = { ...core, name: 'Renamed', excerpt: 'new', updated_at: '2026-03-01T00:00:00.000+00:00', wiki_mode: true, zipper_worker_uuid: null };
    upsertDesign(db, userForm, 'user', NOW, { own: true, ownScreenName: 'maker' });
    const list = listFormDesign({ id: 47, name: 'Listed', updated_at: '2026-01-01T00:00:00.000+00:00' });
    upsertDesign(db, list, 'list', NOW, { inListing: true });
    upsertDesign(db, { ...userForm, id: 47, slug: list.slug, name: 'Own name', user_id: 9 }, 'user', NOW, { own: true, ownScreenName: 'someone else' });
    const design = getCachedDesign(db, 47)!;
    expect(design.summary).toMatchObject({ name: 'Own name', author: 'someone else' });
    expect(design.forms.list).toEqual(list);
    expect(design.forms.user).toEqual({ ...userForm, id: 47, slug: list.slug, name: 'Own name', user_id: 9 });
    expect(getCachedDesign(db, 46)!.forms).toEqual({ list: old, user: userForm });
    expect(storedRow(db, 47).list_layout).toBeGreaterThanOrEqual(COMPACT_FORM_V1);
  });

  it('show a local edit in every form, keeping their other fields', () => {
    const db = freshCache();
    const list = listFormDesign({ id: 48, name: 'Before', excerpt: 'old', description: '<p>old</p>', updated_at: '2026-01-01T00:00:00.000+00:00', extra: [1] });
    upsertDesign(db, list, 'list', NOW, { inListing: true });
    expect(applyLocalDesignEdit(db, 48, { name: 'After', description: '<p>new words</p>' })).toBe(true);
    const design = getCachedDesign(db, 48)!;
    expect(design.forms.list).toEqual({ ...list, name: 'After', description: '<p>new words</p>' });
    expect(design.summary.name).toBe('After');
    expect(searchCachedDesigns(db, 'words').items.map((item) => item.id)).toEqual([48]);
  });

  it('say so and read as missing when a stored form cannot be read', () => {
    const db = freshCache();
    upsertDesign(db, listFormDesign({ id: 49 }), 'list', NOW, { inListing: true });
    db.prepare('UPDATE designs SET list_layout = 99 WHERE id = 49').run();
    expect(getCachedDesign(db, 49)!.forms.list).toBeNull();
  });
});

describe('a design\'s stored forms, of the local service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
    await seedDemo(service.ctx);
  }, 120_000);
  afterAll(() => service?.stop());

  it('give back its list forms and user-designs forms as it sent them', async () => {
    const listed = await (await service.request('GET', '/v1/designs?limit=100')).json() as Record<string, unknown>[];
    expect(listed.length).toBeGreaterThan(3);
    expect(listed.some((design) => typeof design.primary_image === 'object')).toBe(true);
    const db = freshCache();
    upsertDesigns(db, listed, 'list', NOW, { inListing: true });
    for (const design of listed) {
      expect(getCachedDesign(db, design.id as number)!.forms.list).toEqual(design);
      if (design.primary_image) expect(primaryImageOfCover(db, design.primary_image_id as number)).toEqual(design.primary_image);
    }

    const userId = listed[0]!.user_id as number;
    const own = await (await service.request('GET', `/v1/users/${userId}/designs`)).json() as Record<string, unknown>[];
    expect(own.length).toBeGreaterThan(0);
    upsertDesigns(db, own, 'user', NOW, { own: true, ownScreenName: 'owner' });
    for (const design of own) {
      const forms = getCachedDesign(db, design.id as number)!.forms;
      expect(forms.user).toEqual(design);
      expect(forms.list).toEqual(listed.find((item) => item.id === design.id));
    }
  });
});
