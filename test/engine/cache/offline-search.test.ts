import { beforeEach, describe, expect, it, vi } from 'vitest';
import { openCacheDatabase, type WritableDB } from '../../../electron/engine/cache/cache-database';
import { countCachedDesigns, getCachedDesign, listCachedDesigns, searchCachedDesigns } from '../../../electron/engine/cache/design-reads';
import { upsertDesign } from '../../../electron/engine/cache/design-writes';
import { countWords, foldForSearch, ftsQuery, wordMatch } from '../../../electron/engine/cache/fts-query';
import { htmlToPlainText } from '../../../electron/engine/cache/html-text';
import { listFormDesign } from './cache-fixtures';

let db: WritableDB;
const names = (q: string) => searchCachedDesigns(db, q).items.map((d) => d.name);

beforeEach(() => {
  db = openCacheDatabase(':memory:');
  const add = (fields: Record<string, unknown>) => upsertDesign(db, listFormDesign(fields), 'list', 1_000);
  add({ id: 1, name: 'Planetary gear box', excerpt: 'A compact reducer', tags: [{ id: 1, name: 'mechanical', taggings_count: 2 }] });
  add({ id: 2, name: 'Cable clip', description: '<p>Holds a <b>gear</b>&nbsp;cable &amp; more</p><script>var hidden = 1</script>', user: { id: 8, screen_name: 'zoe' }, user_id: 8 });
  add({ id: 3, name: 'Say "hello" AND goodbye - NEAR(x) *star*', excerpt: 'operators in names' });
  add({ id: 4, name: '歯車 ギア', excerpt: 'CJK name' });
  add({ id: 5, name: 'Rocket 🚀 holder', excerpt: 'emoji in name', license: 'cc0' });
  add({ id: 6, name: 'Café table', excerpt: 'diacritics' });
});

describe('offline search', () => {
  it('matches each word typed as a prefix, over name, excerpt, description, tags and author', () => {
    expect(names('gea bo')).toEqual(['Planetary gear box']);
    expect(names('reduc')).toEqual(['Planetary gear box']);
    expect(names('mechan')).toEqual(['Planetary gear box']);
    expect(names('zo')).toEqual(['Cable clip']);
    expect(names('cable more')).toEqual(['Cable clip']);
  });

  it('ranks a match in the name above one in the description, newer first among equals', () => {
    expect(names('gear')).toEqual(['Planetary gear box', 'Cable clip']);
  });

  it('ranks by the best column each word is in (name, tags, excerpt, author, description), a whole word above a prefix, a shorter name above a longer one', () => {
    const add = (fields: Record<string, unknown>) => upsertDesign(db, listFormDesign(fields), 'list', 1_000);
    add({ id: 20, name: 'Plain thing', description: '<p>a hinge inside</p>' });
    add({ id: 21, name: 'Other thing', user: { id: 9, screen_name: 'hinge' }, user_id: 9 });
    add({ id: 22, name: 'Third thing', excerpt: 'with a hinge' });
    add({ id: 23, name: 'Fourth thing', tags: [{ id: 2, name: 'hinge', taggings_count: 1 }] });
    add({ id: 24, name: 'Hinged lid' });
    add({ id: 25, name: 'Door hinge with a very long name' });
    add({ id: 26, name: 'Hinge' });
    expect(names('hinge')).toEqual(['Hinge', 'Door hinge with a very long name', 'Hinged lid', 'Fourth thing', 'Third thing', 'Other thing', 'Plain thing']);
    expect(names('Þing ÉCLAIR')).toEqual([]);
    add({ id: 27, name: 'Éclair þing' });
    add({ id: 28, name: 'Éclair þing étoile 𝒜' });
    expect(names('eclair þing')).toEqual(['Éclair þing', 'Éclair þing étoile 𝒜']);
  });

  it('counts a name\'s words and finds a word in a column as the tokenizer splits them, ASCII or not', () => {
    const names = ['Hinge', 'door-hinge_v2 (M3)', '  #10000 ', 'Éclair þing étoile 𝒜', '歯車 ギア', 'Rocket 🚀 holder', '', '--'];
    for (const name of names) expect(countWords(foldForSearch(name))).toBe(foldForSearch(name).match(/[\p{L}\p{N}]+/gu)?.length ?? 0);
    expect(wordMatch('door-hinge_v2', 'hinge')).toBe(2);
    expect(wordMatch('hinged lid', 'hinge')).toBe(1);
    expect(wordMatch('rehinge', 'hinge')).toBe(0);
    expect(wordMatch('éclair þing', 'þing')).toBe(2);
    expect(wordMatch('þinga', 'þing')).toBe(1);
  });

  it('searches the description as text: entities decoded, tags and scripts not words', () => {
    expect(htmlToPlainText('<p>Holds a <b>gear</b>&nbsp;cable &amp; more</p><script>var hidden = 1</script>')).toBe('Holds a gear cable & more');
    expect(htmlToPlainText('<p>one</p><p>two</p>')).toBe('one two');
    expect(names('hidden')).toEqual([]);
    expect(names('nbsp')).toEqual([]);
    expect(names('script')).toEqual([]);
  });

  it.each([
    ['"', []],
    ['"hello', ['Say "hello" AND goodbye - NEAR(x) *star*']],
    ['*', []],
    ['-', []],
    ['- gear', ['Planetary gear box', 'Cable clip']],
    ['AND', ['Say "hello" AND goodbye - NEAR(x) *star*']],
    ['gear AND', []],
    ['NEAR(', ['Say "hello" AND goodbye - NEAR(x) *star*']],
    ['NEAR(gear, box)', []],
    ['OR NOT', []],
    ['name:gear', []],
    ['^gear', ['Planetary gear box', 'Cable clip']],
    ['(gear', ['Planetary gear box', 'Cable clip']],
    ['🚀', []],
    ['🚀 rocket', ['Rocket 🚀 holder']],
    ['歯車', ['歯車 ギア']],
    ['ギ', ['歯車 ギア']],
    ['cafe', ['Café table']],
    ["'; DROP TABLE designs; --", []],
  ])('never breaks on %j', (input, expected) => {
    expect(() => searchCachedDesigns(db, input)).not.toThrow();
    expect(names(input)).toEqual(expected);
  });

  it('quotes every word, so operators and punctuation are never FTS5 syntax', () => {
    expect(ftsQuery('gear box')).toBe('"gear"* "box"*');
    expect(ftsQuery('NEAR(a, b) AND "c"')).toBe('"near"* "a"* "b"* "and"* "c"*');
    expect(ftsQuery('  🚀 * - " ')).toBeNull();
  });

  it('pages the results and says whether more follow', () => {
    for (let i = 0; i < 25; i++) upsertDesign(db, listFormDesign({ id: 100 + i, name: `Widget ${i}` }), 'list', 1_000);
    const first = searchCachedDesigns(db, 'widget', { limit: 10 });
    const last = searchCachedDesigns(db, 'widget', { limit: 10, offset: 20 });
    expect(first.items).toHaveLength(10);
    expect(first.hasMore).toBe(true);
    expect(last.items).toHaveLength(5);
    expect(last.hasMore).toBe(false);
  });

  it('uses the full-text index and the primary key, never a scan of designs', () => {
    const plan = (sql: string, ...args: unknown[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((s) => s.detail).join('\n');
    // The candidates: their ids from the index, their columns from the designs' rows by their key.
    const candidates = plan(`SELECT d.id, d.name, d.tags_text, d.excerpt, d.author_screen_name FROM designs d
      WHERE d.id IN (SELECT rowid FROM designs_fts WHERE designs_fts MATCH ? ORDER BY rowid DESC LIMIT ?)`, '"gear"*', 500);
    expect(candidates).toMatch(/VIRTUAL TABLE INDEX/);
    expect(candidates).toMatch(/SEARCH d USING INTEGER PRIMARY KEY/);
    expect(candidates).not.toMatch(/SCAN d\b/);
    const join = plan('SELECT d.id FROM designs d, sync_state s WHERE s.id = 1 AND d.id IN (SELECT value FROM json_each(?))', '[1]');
    expect(join).toMatch(/SEARCH d USING INTEGER PRIMARY KEY/);
    expect(join).not.toMatch(/SCAN d\b/);
  });
});

describe('cached forms', () => {
  it('keeps every field of both forms; one form never erases the other\'s fields', () => {
    upsertDesign(db, listFormDesign({ id: 50, name: 'Own thing', future_field: { nested: [1, 2] }, tags: [{ id: 3, name: 'kept', taggings_count: 1 }] }), 'list', 1_000);
    const userForm = { ...listFormDesign({ id: 50, name: 'Own thing' }), wiki_mode: true, zipper_worker_uuid: 'z-1' } as Record<string, unknown>;
    delete userForm.tags;
    delete userForm.user;
    upsertDesign(db, userForm, 'user', 2_000, { own: true, ownScreenName: 'maker' });
    const cached = getCachedDesign(db, 50)!;
    expect(cached.design).toMatchObject({ future_field: { nested: [1, 2] }, wiki_mode: true, zipper_worker_uuid: 'z-1', user: { screen_name: 'maker' } });
    expect(cached.forms.list).toHaveProperty('future_field');
    expect(cached.forms.user).toHaveProperty('wiki_mode', true);
    expect(cached.tags).toEqual(['kept']);
    expect(cached.summary.own).toBe(true);
  });

  it('writes nothing when a design comes again unchanged', () => {
    const design = listFormDesign({ id: 60 });
    expect(upsertDesign(db, design, 'list', 1_000, { inListing: true }).outcome).toBe('inserted');
    const before = db.prepare('SELECT total_changes() AS n').get() as { n: number };
    expect(upsertDesign(db, design, 'list', 2_000, { inListing: true }).outcome).toBe('unchanged');
    expect(db.prepare('SELECT total_changes() AS n').get()).toEqual(before);
    expect(upsertDesign(db, { ...design, updated_at: '2026-02-01T10:00:00.000+00:00', name: 'Renamed' }, 'list', 3_000, { inListing: true }).outcome).toBe('updated');
    expect(names('renamed')).toEqual(['Renamed']);
  });

  it('lists by sort, license and ownership', () => {
    upsertDesign(db, listFormDesign({ id: 70, name: 'Newer', updated_at: '2026-03-01T10:00:00.000+00:00' }), 'list', 1_000);
    expect(listCachedDesigns(db, { limit: 1 })[0]!.name).toBe('Newer');
    expect(listCachedDesigns(db, { license: 'cc0' }).map((d) => d.id)).toEqual([5]);
    expect(listCachedDesigns(db, { sort: 'name', limit: 2 }).map((d) => d.name)).toEqual(['Cable clip', 'Café table']);
    expect(listCachedDesigns(db, { ownOnly: true })).toEqual([]);
  });

  it('lists the matches of words newest first, under a license filter and ownership, page by page, with their count', () => {
    for (let i = 0; i < 30; i++) {
      upsertDesign(db, listFormDesign({ id: 200 + i, name: `Gearwheel ${i}`, license: i % 3 === 0 ? 'cc0' : 'ccby', user: { id: 9, screen_name: 'max' }, user_id: 9 }), 'list', 1_000);
    }
    const ids = (options: Parameters<typeof listCachedDesigns>[1]) => listCachedDesigns(db, { sort: 'newest', ...options }).map((d) => d.id);
    const gearIds = [...Array.from({ length: 30 }, (_, i) => 229 - i), 2, 1];
    expect(ids({ query: 'gear', limit: 500 })).toEqual(gearIds);
    expect(ids({ query: 'gear', limit: 5, offset: 28 })).toEqual([201, 200, 2, 1]);
    expect(countCachedDesigns(db, { query: 'gear' })).toBe(32);
    const cc0 = gearIds.filter((id) => id >= 200 && (id - 200) % 3 === 0);
    expect(ids({ query: 'gear', license: 'cc0', limit: 3, offset: 2 })).toEqual(cc0.slice(2, 5));
    expect(countCachedDesigns(db, { query: 'gear', license: 'cc0' })).toBe(cc0.length);
    expect(ids({ query: 'gearw 2', ownOnly: true, ownerId: 9 })).toEqual([229, 228, 227, 226, 225, 224, 223, 222, 221, 220, 202]);
    expect(ids({ query: 'gear', ownOnly: true, ownerId: 8 })).toEqual([2]);
    expect(ids({ query: 'nothing-like-it' })).toEqual([]);
  });

  it('reads the matches of words newest first in the search index\'s own order, never gathering and sorting them all', () => {
    const statements: string[] = [];
    const prepare = db.prepare.bind(db);
    vi.spyOn(db, 'prepare').mockImplementation((sql: string) => {
      statements.push(sql);
      return prepare(sql);
    });
    listCachedDesigns(db, { query: 'gear', sort: 'newest' });
    listCachedDesigns(db, { query: 'gear', sort: 'newest', license: 'cc0' });
    vi.restoreAllMocks();
    const pages = statements.filter((sql) => sql.includes('designs_fts'));
    expect(pages).toHaveLength(2);
    for (const sql of pages) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ match: '"gear"*', licenses: '["cc0"]', limit: 60, offset: 0 }) as { detail: string }[]).map((row) => row.detail).join('\n');
      // The page's ids come from the index in its order (only the page's own rows are sorted, once read).
      const pageIds = plan.slice(0, plan.indexOf('SCAN page'));
      expect(pageIds.split('\n')[1]).toMatch(/^SCAN (designs_fts|f) VIRTUAL TABLE INDEX/);
      expect(pageIds).not.toMatch(/TEMP B-TREE/);
    }
    // The license of each match is read from the narrow index of ids and licenses, not from its wide row.
    expect(pages[1]).toMatch(/INDEXED BY designs_by_id_license/);
  });
});
