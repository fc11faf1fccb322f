import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tolerantDesign } from '../../../electron/engine/api/tolerant-readers';
import { openCacheDatabase } from '../../../electron/engine/cache/cache-database';
import { getCachedDesign, searchCachedDesigns } from '../../../electron/engine/cache/design-reads';
import { deleteDesigns, DesignWriteSession, readDesignFields, upsertDesign, upsertDesigns } from '../../../electron/engine/cache/design-writes';
import { readValidators, writeValidators } from '../../../electron/engine/cache/fetch-state-writes';
import { htmlToPlainText } from '../../../electron/engine/cache/html-text';
import { applyLocalDesignEdit } from '../../../electron/engine/cache/local-design-edit';
import { searchBacklogSize, writeBackloggedSearchRows } from '../../../electron/engine/cache/search-backlog';
import { searchWords } from '../../../electron/engine/cache/fts-query';
import { dumpDesignWrites, listFormDesign, searchIndexTerms } from './cache-fixtures';

const FIELDS = ['id', 'name', 'slug', 'description', 'excerpt', 'user_id', 'license', 'state', 'created_at', 'updated_at', 'primary_image_id', 'user'] as const;

function pick(design: Partial<Record<(typeof FIELDS)[number], unknown>> | null) {
  return design && Object.fromEntries(FIELDS.map((field) => [field, design[field]]));
}

function zodFields(raw: unknown) {
  const parsed = tolerantDesign.safeParse(raw);
  return parsed.success ? pick(parsed.data) : null;
}

const dump = dumpDesignWrites;

const odd: unknown[] = [
  listFormDesign({ id: 1 }),
  { id: 2 },
  { id: 3, name: 42, slug: 7, description: null, excerpt: ['x'], user_id: 'seven', license: 3, state: {}, created_at: 5, updated_at: false, primary_image_id: 1.5 },
  { id: 4, user: { id: 'x', screen_name: 'a' } },
  { id: 5, user: { id: 9, screen_name: null } },
  { id: 6, user: 'someone', user_id: null, primary_image_id: null },
  { id: 7, user: { id: 9, screen_name: 'nine', extra: true }, tags: 'not a list' },
  { id: 8, user_id: Number.MAX_SAFE_INTEGER + 2 },
  { id: 2 ** 60 },
  { id: 1.5 },
  { id: '9' },
  { name: 'no id' },
  null,
  'a string',
  [1, 2],
];

describe('design writes', () => {
  it('reads a design as the tolerant zod reader does, well-formed or not', () => {
    for (const raw of odd) expect(pick(readDesignFields(raw)), JSON.stringify(raw)).toStrictEqual(zodFields(raw));
  });

  it('writes a page exactly as one design at a time did: rows, tags, authors, search rows', () => {
    const pages: unknown[][] = [
      [
        listFormDesign({ id: 30, name: 'Gear', description: '<p>A <b>gear</b></p>', tags: [{ id: 1, name: 'Mech', taggings_count: 2 }, 'garden', { name: ' ' }, { id: 1, name: 'mech', taggings_count: 3 }], user: { id: 8, screen_name: 'zoe' }, user_id: 8 }),
        { id: 'broken' },
        listFormDesign({ id: 10, tags: ['garden', 'Tool'], user: { id: 8, screen_name: 'zoe' }, user_id: 8 }),
        listFormDesign({ id: 20, tags: null, user: null }),
        ...odd.slice(0, 8),
      ],
      // Again, some changed: updated, unchanged, a renamed author, a tag's new count.
      [
        listFormDesign({ id: 30, name: 'Gear v2', updated_at: '2026-02-01T10:00:00.000+00:00', tags: [{ id: 1, name: 'MECH', taggings_count: 9 }], user: { id: 8, screen_name: 'zoe2' }, user_id: 8 }),
        listFormDesign({ id: 10, tags: ['garden', 'Tool'], user: { id: 8, screen_name: 'zoe' }, user_id: 8 }),
        listFormDesign({ id: 40, tags: ['tool'] }),
      ],
      // The same design twice in one answer: the second sees the first.
      [listFormDesign({ id: 50, name: 'First' }), listFormDesign({ id: 50, name: 'Second', updated_at: '2026-03-01T10:00:00.000+00:00' })],
    ];
    const oneByOne = openCacheDatabase(':memory:');
    const byPage = openCacheDatabase(':memory:');
    const session = new DesignWriteSession();
    for (const [i, page] of pages.entries()) {
      const flags = { inListing: true };
      const expected = oneByOne.transaction(() => page.map((raw) => upsertDesign(oneByOne, raw, 'list', 1_000 + i, flags)))();
      expect(upsertDesigns(byPage, page, 'list', 1_000 + i, flags, session)).toEqual(expected);
      expect(dump(byPage)).toEqual(dump(oneByOne));
    }
    // The user-designs form (no tags, own flag) too.
    const userForm = [{ ...listFormDesign({ id: 10, name: 'Mine' }), tags: undefined, user: undefined, updated_at: '2026-04-01T10:00:00.000+00:00' }, listFormDesign({ id: 60, user: undefined })];
    const flags = { own: true, ownScreenName: 'me' };
    const expected = userForm.map((raw) => upsertDesign(oneByOne, raw, 'user', 2_000, flags));
    expect(upsertDesigns(byPage, userForm, 'user', 2_000, flags, new DesignWriteSession())).toEqual(expected);
    expect(dump(byPage)).toEqual(dump(oneByOne));
  });

  it('a design written again with other tags is found by its new tags only, and keeps them when its user-designs form comes', () => {
    const db = openCacheDatabase(':memory:');
    const tagsOf = (id: number) => getCachedDesign(db, id)!.tags;
    const found = (q: string) => searchCachedDesigns(db, q).items.map((d) => d.id);
    upsertDesigns(db, [listFormDesign({ id: 1, tags: ['walnut', 'shelf'] }), listFormDesign({ id: 2, tags: ['walnut'] })], 'list', 1);
    upsertDesigns(db, [listFormDesign({ id: 1, tags: ['maple', 'shelf'], updated_at: '2026-05-01T10:00:00.000+00:00' })], 'list', 2);
    expect(tagsOf(1)).toEqual(['maple', 'shelf']);
    expect(found('walnut')).toEqual([2]);
    expect(found('maple')).toEqual([1]);
    upsertDesigns(db, [{ ...listFormDesign({ id: 1, updated_at: '2026-06-01T10:00:00.000+00:00' }), tags: undefined }], 'user', 3, { own: true, ownScreenName: 'me' });
    expect(tagsOf(1)).toEqual(['maple', 'shelf']);
    expect(found('maple')).toEqual([1]);
  });

  it('a new design does not inherit the search row an earlier copy left behind; designs around it keep theirs', () => {
    for (const deferSearchRows of [false, true]) {
      const db = openCacheDatabase(':memory:');
      const tagsOf = (id: number) => getCachedDesign(db, id)!.tags;
      const found = (q: string) => searchCachedDesigns(db, q).items.map((d) => d.id).sort();
      upsertDesigns(db, [listFormDesign({ id: 10, name: 'Walnut shelf', tags: ['walnut'] }), listFormDesign({ id: 30, name: 'Walnut box', tags: ['walnut'] })], 'list', 1);
      // What a design removed without its trigger would leave (it is never off in the engine).
      db.prepare(`INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author) VALUES (20, 'Stale lamp', '', '', 'walnut', '')`).run();

      const session = new DesignWriteSession({ deferSearchRows });
      // Between the designs cached (their rows are in the range looked at), and above them (nothing is).
      upsertDesigns(db, [listFormDesign({ id: 20, name: 'Oak lamp', tags: ['oak'] }), listFormDesign({ id: 40, name: 'Oak stool', tags: ['oak'] })], 'list', 2, {}, session);
      writeBackloggedSearchRows(db);
      expect(tagsOf(20)).toEqual(['oak']);
      expect(found('stale')).toEqual([]);
      expect(found('oak')).toEqual([20, 40]);
      expect(found('walnut')).toEqual([10, 30]);
      expect(tagsOf(10)).toEqual(['walnut']);
      db.exec(`INSERT INTO designs_fts (designs_fts, rank) VALUES ('integrity-check', 1)`);
      db.close();
    }
  });

  it('forgets what it wrote when a page fails, so the next page writes its author again', () => {
    const db = openCacheDatabase(':memory:');
    const session = new DesignWriteSession();
    db.exec(`CREATE TEMP TRIGGER fail_on_99 BEFORE INSERT ON designs WHEN new.id = 99 BEGIN SELECT RAISE(ABORT, 'refused'); END;`);
    const author = { user: { id: 5, screen_name: 'kept' }, user_id: 5 };
    expect(() => upsertDesigns(db, [listFormDesign({ id: 1, ...author }), listFormDesign({ id: 99, ...author })], 'list', 1, {}, session)).toThrow(/refused/);
    expect(db.prepare('SELECT count(*) AS n FROM users').get()).toEqual({ n: 0 });
    upsertDesigns(db, [listFormDesign({ id: 2, ...author })], 'list', 1, {}, session);
    expect(db.prepare('SELECT screen_name FROM users WHERE id = 5').all()).toEqual([{ screen_name: 'kept' }]);
  });

  it('a design\'s tags are its list form\'s, each once, in the order given, in its page and its search row, however its search row was written', () => {
    // Padded with white space JavaScript's trim() strips and SQLite's trim() alone would not: a tab, a no-break space,
    // a line break, an ideographic space.
    const tags = [' Gear ', 'gear', { id: 3, name: '\tMechanical\u00a0', taggings_count: 9 }, { id: 4 }, 42, '', '\u3000', 'CLIP\n', { name: 'clip' }];
    for (const deferSearchRows of [false, true]) {
      const db = openCacheDatabase(':memory:');
      upsertDesigns(db, [listFormDesign({ id: 1, name: 'Reducer', tags })], 'list', 1, {}, new DesignWriteSession({ deferSearchRows }));
      writeBackloggedSearchRows(db);
      expect(getCachedDesign(db, 1)!.tags).toEqual(['Gear', 'Mechanical', 'CLIP']);
      expect(db.prepare('SELECT tags_text FROM designs WHERE id = 1').pluck().get()).toBe('Gear Mechanical CLIP');
      expect(searchIndexTerms(db)[1]).toEqual(['clip', 'gear', 'maker', 'mechanical', 'reducer']);
      expect(searchCachedDesigns(db, 'mechanical').items.map((d) => d.id)).toEqual([1]);
      // A form whose tags are not a list has none.
      upsertDesigns(db, [listFormDesign({ id: 1, tags: 'gear' as unknown as string[], updated_at: '2026-05-01T10:00:00.000+00:00' })], 'list', 2);
      expect(getCachedDesign(db, 1)!.tags).toEqual([]);
      expect(searchCachedDesigns(db, 'gear').items).toEqual([]);
      db.close();
    }
  });

  it('deferred search rows: the designs wait in the search backlog, and get their rows from it in batches, by id', () => {
    const db = openCacheDatabase(':memory:');
    const backlog = () => (db.prepare('SELECT design_id FROM search_backlog ORDER BY design_id').all() as { design_id: number }[]).map((row) => row.design_id);
    const names = (q: string) => searchCachedDesigns(db, q).items.map((d) => d.name).sort();
    const session = new DesignWriteSession({ deferSearchRows: true });
    upsertDesigns(db, [listFormDesign({ id: 1, name: 'Spool holder', tags: ['filament'] }), listFormDesign({ id: 2, name: 'Spool clip' })], 'list', 1, {}, session);
    upsertDesigns(db, [listFormDesign({ id: 3, name: 'Cable comb' }), listFormDesign({ id: 4, name: 'Cable spool' })], 'list', 1, {}, session);
    expect(names('spool')).toEqual([]);
    expect(backlog()).toEqual([1, 2, 3, 4]);
    expect(searchBacklogSize(db)).toBe(4);
    // Changed again before its batch: written at once, and not twice.
    upsertDesigns(db, [listFormDesign({ id: 2, name: 'Spool clip v2', updated_at: '2026-05-01T10:00:00.000+00:00' })], 'list', 2, {}, session);
    expect(names('clip')).toEqual(['Spool clip v2']);
    // Removed before its batch: only taken off the backlog.
    deleteDesigns(db, [3]);

    expect(writeBackloggedSearchRows(db, 2)).toEqual({ taken: 2, more: true });
    expect(names('spool')).toEqual(['Spool clip v2', 'Spool holder']);
    expect(names('filament')).toEqual(['Spool holder']);
    expect(backlog()).toEqual([3, 4]);
    expect(writeBackloggedSearchRows(db)).toEqual({ taken: 2, more: false });
    expect(names('spool')).toEqual(['Cable spool', 'Spool clip v2', 'Spool holder']);
    expect(backlog()).toEqual([]);
    expect(writeBackloggedSearchRows(db)).toEqual({ taken: 0, more: false });
    expect(db.prepare('SELECT count(*) AS n FROM designs_fts').get()).toEqual({ n: 3 });
  });

  it('deferred search rows: a description\'s text is made with the row, and is the text of the description the design shows', () => {
    const db = openCacheDatabase(':memory:');
    // The words of each design's search row (none until its row is written).
    const text = (id: number) => searchIndexTerms(db)[id] ?? [];
    const found = (q: string) => searchCachedDesigns(db, q).items.map((d) => d.id).sort((a, b) => a - b);
    const session = new DesignWriteSession({ deferSearchRows: true });
    const at = (day: number) => `2026-05-0${day}T10:00:00.000+00:00`;
    upsertDesigns(db, [1, 2, 3, 4, 5].map((id) => listFormDesign({ id, description: `<p>Old <b>walnut</b> ${id}</p>`, updated_at: at(2) })), 'list', 1, {}, session);
    expect([1, 2, 3, 4, 5].map(text)).toEqual([[], [], [], [], []]);

    // 1: written again, newer, before its batch: its text comes with its columns, and stays.
    upsertDesigns(db, [listFormDesign({ id: 1, description: '<p>New <i>maple</i></p>', updated_at: at(3) })], 'list', 2, {}, session);
    // 2: its other form, older: the columns (and the text) stay the list form's; its search row, written meanwhile,
    // already holds the text, made from the list form's description.
    upsertDesigns(db, [{ ...listFormDesign({ id: 2, description: '<p>Older <i>birch</i></p>', updated_at: at(1) }), tags: undefined }], 'user', 2, { own: true, ownScreenName: 'me' }, session);
    expect(found('walnut')).toEqual([2]);
    // 3: removed, and cached again with another description before its batch.
    deleteDesigns(db, [3]);
    upsertDesigns(db, [listFormDesign({ id: 3, description: '<p>Cherry</p>', updated_at: at(4) })], 'list', 3, {}, session);
    // 4: edited here (waiting to be sent).
    applyLocalDesignEdit(db, 4, { description: '<p>Edited oak</p>' });
    // 6: cached from its user-designs form only.
    upsertDesigns(db, [{ ...listFormDesign({ id: 6, description: '<p>Pine &amp; ash</p>', updated_at: at(2) }), tags: undefined }], 'user', 3, { own: true, ownScreenName: 'me' }, session);

    writeBackloggedSearchRows(db);
    const descriptions = ['New maple', 'Old walnut 2', 'Cherry', 'Edited oak', 'Old walnut 5', 'Pine & ash'];
    expect([1, 2, 3, 4, 5, 6].map(text)).toEqual(descriptions.map((description, i) =>
      [...new Set(searchWords(`Design ${i + 1} ${description} maker`, 100))].sort()));
    expect(found('pine')).toEqual([6]);
    expect(found('walnut')).toEqual([2, 5]);
    expect(found('maple')).toEqual([1]);
    expect(found('birch')).toEqual([]);
    expect(found('cherry')).toEqual([3]);
    expect(found('oak')).toEqual([4]);
    expect(db.prepare('SELECT count(*) AS n FROM designs_fts').get()).toEqual({ n: 6 });
    expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    db.exec(`INSERT INTO designs_fts (designs_fts, rank) VALUES ('integrity-check', 1)`);
  });

  it('a search backlog survives a crash: written with the designs, it is there when the cache opens again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'design-sync-backlog-'));
    try {
      const path = join(dir, 'cache.sqlite');
      const first = openCacheDatabase(path);
      upsertDesigns(first, [listFormDesign({ id: 7, name: 'Drawer label' })], 'list', 1, {}, new DesignWriteSession({ deferSearchRows: true }));
      // No close: what a killed process leaves (the commit is in the WAL).
      const again = openCacheDatabase(path);
      expect(searchBacklogSize(again)).toBe(1);
      writeBackloggedSearchRows(again);
      expect(searchCachedDesigns(again, 'drawer').items.map((d) => d.id)).toEqual([7]);
      again.close();
      first.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

  it('forgets the validators of a deleted design\'s lists, so that a 304 never stands for rows gone with it', () => {
    const db = openCacheDatabase(':memory:');
    upsertDesigns(db, [listFormDesign({ id: 1 }), listFormDesign({ id: 2 })], 'list', 1);
    for (const id of [1, 2]) for (const list of ['images', 'documents']) writeValidators(db, `/v1/designs/${id}/${list}`, `"${id}"`, null, 1);
    expect(deleteDesigns(db, [1])).toBe(1);
    expect([readValidators(db, '/v1/designs/1/images'), readValidators(db, '/v1/designs/1/documents')]).toEqual([null, null]);
    expect(readValidators(db, '/v1/designs/2/images')).toEqual({ etag: '"2"', lastModified: null });
  });

  it('keeps each design\'s popularity for the library\'s sort: written with the design, updated with newer data, kept when a form lacks it', () => {
    const db = openCacheDatabase(':memory:');
    const popularity = (id: number) => (db.prepare('SELECT popularity FROM designs WHERE id = ?').get(id) as { popularity: number }).popularity;
    upsertDesigns(db, [listFormDesign({ id: 1, last_trending_popularity: 12.5 }), listFormDesign({ id: 2, last_trending_popularity: 'n/a' })], 'list', 1);
    expect([popularity(1), popularity(2)]).toEqual([12.5, 0]);
    upsertDesign(db, listFormDesign({ id: 1, last_trending_popularity: 30, updated_at: '2026-02-01T10:00:00.000+00:00' }), 'list', 2);
    expect(popularity(1)).toBe(30);
    const { last_trending_popularity: _dropped, ...withoutPopularity } = listFormDesign({ id: 1, updated_at: '2026-03-01T10:00:00.000+00:00' });
    upsertDesign(db, withoutPopularity, 'user', 3);
    expect(popularity(1)).toBe(30);
    // An older form does not overwrite what newer data said.
    upsertDesign(db, listFormDesign({ id: 2, last_trending_popularity: 8 }), 'user', 4);
    upsertDesign(db, listFormDesign({ id: 2, last_trending_popularity: 1, updated_at: '2025-01-01T10:00:00.000+00:00' }), 'list', 5);
    expect(popularity(2)).toBe(8);
  });

describe('search text of a description', () => {
  it('keeps blocks apart, joins inline elements, decodes entities, drops scripts, styles and attributes', () => {
    expect(htmlToPlainText('<h2>Parts</h2><ul><li>gear</li><li>axle</li></ul><ol><li>print</li></ol>')).toBe('Parts gear axle print');
    expect(htmlToPlainText('ge<b>ar</b> <a href="https://x.test/secret">box</a><img src="/y.png" alt="hidden alt">')).toBe('gear box');
    expect(htmlToPlainText('<table><tr><th>size</th><td>10&nbsp;mm</td></tr></table>line<br>break')).toBe('size 10 mm line break');
    expect(htmlToPlainText('<style>.a{color:red}</style><p>caf&eacute; &lt;3 &#x263A;</p><script>var s = "<p>x</p>";</script><!-- note -->')).toBe('café <3 ☺');
    expect(htmlToPlainText('plain   text\n here')).toBe('plain text here');
    expect(htmlToPlainText('')).toBe('');
    expect(htmlToPlainText('<p>unclosed <b>bold')).toBe('unclosed bold');
  });
});
