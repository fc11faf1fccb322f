import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CacheDatabaseFromTheFutureError, PAGE_CACHE_KIB, migrateCache, openCacheDatabase, schemaVersion, type ReadableDB } from '../../../electron/engine/cache/cache-database';
import { CACHE_MIGRATIONS } from '../../../electron/engine/cache/migrations';
import { getCachedDesign } from '../../../electron/engine/cache/design-reads';
import { tempDir } from './cache-fixtures';

/** The schema as it was at `version`, in memory. */
function databaseAt(version: number): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrateCache(db, ':memory:', version);
  expect(schemaVersion(db)).toBe(version);
  return db;
}

function insertDesign(db: Database.Database, id: number, fields: Record<string, unknown> = {}) {
  db.prepare(
    `INSERT INTO designs (id, slug, name, excerpt, description_text, author_screen_name, list_json, fetched_at)
     VALUES (@id, @slug, @name, @excerpt, @text, @author, @json, 1)`,
  ).run({ id, slug: `d-${id}`, name: `Design ${id}`, excerpt: '', text: '', author: 'maker', json: '{}', ...fields });
}

describe('cache migrations', () => {
  it('0001 creates designs with their forms, tags, images, documents, users, validators and sync state', () => {
    const db = databaseAt(0);
    migrateCache(db, ':memory:', 1);
    insertDesign(db, 1, { json: '{"id":1,"unknown_field":true}' });
    db.prepare(`INSERT INTO tags (name) VALUES ('gear')`).run();
    db.prepare(`INSERT INTO design_tags (design_id, tag_id) VALUES (1, 1)`).run();
    db.prepare(`INSERT INTO images (id, design_id, position, raw_json, fetched_at) VALUES (5, 1, 0, '{}', 1)`).run();
    db.prepare(`INSERT INTO documents (id, design_id, position, raw_json, fetched_at) VALUES (6, 1, 0, '{}', 1)`).run();
    expect(db.prepare('SELECT last_full_pull_at FROM sync_state WHERE id = 1').get()).toEqual({ last_full_pull_at: null });
    // Foreign keys: children go with their design; a child of no design is refused.
    expect(() => db.prepare(`INSERT INTO images (id, design_id, position, raw_json, fetched_at) VALUES (9, 404, 0, '{}', 1)`).run()).toThrow(/FOREIGN KEY/);
    db.prepare('DELETE FROM designs WHERE id = 1').run();
    expect(db.prepare('SELECT (SELECT count(*) FROM images) + (SELECT count(*) FROM documents) + (SELECT count(*) FROM design_tags) AS n').get()).toEqual({ n: 0 });
  });

  it('0002 indexes the designs already cached for full-text search, and drops a design\'s row with it', () => {
    const db = databaseAt(1);
    insertDesign(db, 1, { name: 'Planetary gear', text: 'A reducer' });
    insertDesign(db, 2, { name: 'Cable clip', author: 'zoe' });
    db.prepare(`INSERT INTO tags (name) VALUES ('mechanical')`).run();
    db.prepare(`INSERT INTO design_tags (design_id, tag_id) VALUES (1, 1)`).run();
    migrateCache(db, ':memory:', 2);
    const match = (q: string) => (db.prepare('SELECT rowid FROM designs_fts WHERE designs_fts MATCH ? ORDER BY rowid').all(q) as { rowid: number }[]).map((r) => r.rowid);
    expect(match('gear')).toEqual([1]);
    expect(match('reducer')).toEqual([1]);
    expect(match('mechanical')).toEqual([1]);
    expect(match('zoe')).toEqual([2]);
    db.prepare('DELETE FROM designs WHERE id = 1').run();
    expect(match('gear')).toEqual([]);
  });

  it('0003 adds the file index and leaves the designs as they were', () => {
    const db = databaseAt(2);
    insertDesign(db, 1);
    migrateCache(db, ':memory:', 3);
    db.prepare(`INSERT INTO file_index (url, hash, size, stored_at, last_used_at) VALUES ('/u/a.jpg', 'ab12', 3, 1, 1)`).run();
    expect(db.prepare('SELECT count(*) AS n FROM designs').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT hash FROM file_index').get()).toEqual({ hash: 'ab12' });
  });

  it('0004 adds the pending mark of deferred search rows, unset, and leaves the designs as they were', () => {
    const db = databaseAt(3);
    insertDesign(db, 1);
    migrateCache(db, ':memory:', 4);
    expect(db.prepare('SELECT search_rows_pending FROM sync_state WHERE id = 1').get()).toEqual({ search_rows_pending: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM designs').get()).toEqual({ n: 1 });
  });

  it('0013 puts the designs a pull left without search rows in the search backlog, only when the mark said so, and drops the mark', () => {
    for (const pending of [1, 0]) {
      const db = databaseAt(12);
      insertDesign(db, 1);
      insertDesign(db, 2);
      db.prepare(`INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author) VALUES (1, 'a', '', '', '', '')`).run();
      db.prepare('UPDATE sync_state SET search_rows_pending = ? WHERE id = 1').run(pending);
      migrateCache(db, ':memory:', 13);
      expect(db.prepare('SELECT design_id FROM search_backlog').all()).toEqual(pending ? [{ design_id: 2 }] : []);
      expect(db.prepare('SELECT * FROM sync_state WHERE id = 1').get()).not.toHaveProperty('search_rows_pending');
    }
  });

  it('0014 keeps a backlog\'s designs, whose description text was written with them (none waits for it)', () => {
    const db = databaseAt(13);
    insertDesign(db, 1);
    db.prepare('INSERT INTO search_backlog (design_id) VALUES (1)').run();
    migrateCache(db, ':memory:', 14);
    expect(db.prepare('SELECT design_id, description_html FROM search_backlog').all()).toEqual([{ design_id: 1, description_html: null }]);
  });

  it('0015 keeps a backlog\'s designs, each waiting for its description text as it did (a flag now, the HTML read from its form)', () => {
    const db = databaseAt(14);
    insertDesign(db, 1);
    insertDesign(db, 2);
    db.prepare(`INSERT INTO search_backlog (design_id, description_html) VALUES (1, '<p>A hinge</p>'), (2, NULL)`).run();
    migrateCache(db, ':memory:', 15);
    expect(db.prepare('SELECT * FROM search_backlog ORDER BY design_id').all()).toEqual([{ design_id: 1, text_pending: 1 }, { design_id: 2, text_pending: 0 }]);
  });

  it('0016 drops the copy of the tags (read from the list form now), and a bulk fill under way no longer makes its index again', () => {
    const db = databaseAt(15);
    insertDesign(db, 1, { json: '{"id":1,"tags":["gear"]}' });
    db.prepare(`INSERT INTO tags (name) VALUES ('gear')`).run();
    db.prepare(`INSERT INTO design_tags (design_id, tag_id) VALUES (1, 1)`).run();
    db.exec('DROP INDEX design_tags_by_tag; DROP INDEX designs_by_name');
    db.prepare(`INSERT INTO bulk_fill_undo (name, sql) VALUES ('design_tags_by_tag', 'CREATE INDEX design_tags_by_tag ON design_tags(tag_id)'),
      ('designs_by_name', 'CREATE INDEX designs_by_name ON designs(name)')`).run();
    migrateCache(db, ':memory:', 16);
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE name IN ('tags', 'design_tags')`).all();
    expect(tables).toEqual([]);
    expect(db.prepare('SELECT name FROM bulk_fill_undo').all()).toEqual([{ name: 'designs_by_name' }]);
    expect(db.prepare('SELECT count(*) AS n FROM designs').get()).toEqual({ n: 1 });
  });

  it('0005 gives every design its popularity from the forms already cached, and sorts by it with an index', () => {
    const db = databaseAt(4);
    insertDesign(db, 1, { json: '{"id":1,"last_trending_popularity":2.5}' });
    insertDesign(db, 2, { json: '{"id":2,"last_trending_popularity":9}' });
    insertDesign(db, 3, { json: '{"id":3}' });
    migrateCache(db, ':memory:', 5);
    expect(db.prepare('SELECT id, popularity FROM designs ORDER BY popularity DESC, id DESC').all()).toEqual([
      { id: 2, popularity: 9 }, { id: 1, popularity: 2.5 }, { id: 3, popularity: 0 },
    ]);
    db.prepare(`UPDATE designs SET list_json = '{"last_trending_popularity":20}' WHERE id = 3`).run();
    expect(db.prepare('SELECT popularity FROM designs WHERE id = 3').get()).toEqual({ popularity: 20 });
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT id FROM designs ORDER BY popularity DESC, id DESC LIMIT 10').all() as { detail: string }[];
    expect(plan.map((row) => row.detail).join(' ')).toMatch(/designs_by_popularity/);
  });

  it('0006 stores popularity as a plain column filled from the forms already cached, and sorts a license filter by it from an index', () => {
    const db = databaseAt(5);
    insertDesign(db, 1, { json: '{"id":1}' });
    db.prepare(`UPDATE designs SET list_json = NULL, user_form_json = '{"id":1,"last_trending_popularity":2.5}' WHERE id = 1`).run();
    insertDesign(db, 2, { json: '{"id":2,"last_trending_popularity":9}' });
    insertDesign(db, 3, { json: '{"id":3,"last_trending_popularity":"high"}' });
    db.prepare(`UPDATE designs SET license = CASE id WHEN 3 THEN 'cc0' ELSE 'ccby' END`).run();
    migrateCache(db, ':memory:', 6);
    expect(db.prepare('SELECT id, popularity FROM designs ORDER BY popularity DESC, id DESC').all()).toEqual([
      { id: 2, popularity: 9 }, { id: 1, popularity: 2.5 }, { id: 3, popularity: 0 },
    ]);
    // A plain column now: writers set it, the JSON no longer does.
    db.prepare('UPDATE designs SET popularity = 40 WHERE id = 3').run();
    expect(db.prepare('SELECT popularity FROM designs WHERE id = 3').get()).toEqual({ popularity: 40 });
    const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((row) => row.detail).join(' ');
    expect(plan(`SELECT id FROM designs WHERE license = 'ccby' ORDER BY popularity DESC, id DESC LIMIT 10`)).toMatch(/COVERING INDEX designs_by_license_popularity/);
    expect(plan(`SELECT id FROM designs WHERE license = 'ccby' ORDER BY name COLLATE NOCASE, id LIMIT 10`)).toMatch(/COVERING INDEX designs_by_license_name/);
  });

  it('0007 finds the design an image is the cover of through an index', () => {
    const db = databaseAt(6);
    insertDesign(db, 1);
    db.prepare('UPDATE designs SET primary_image_id = 77 WHERE id = 1').run();
    migrateCache(db, ':memory:', 7);
    expect(db.prepare('SELECT id FROM designs WHERE primary_image_id = 77').all()).toEqual([{ id: 1 }]);
    const plan = (db.prepare('EXPLAIN QUERY PLAN SELECT id FROM designs WHERE primary_image_id = 77').all() as { detail: string }[]).map((row) => row.detail).join(' ');
    expect(plan).toMatch(/designs_by_cover/);
  });

  it('0008 pages the newest designs deep down through a narrow index of ids, not the wide rows', () => {
    const db = databaseAt(7);
    for (const id of [1, 2, 3]) insertDesign(db, id);
    migrateCache(db, ':memory:', 8);
    const sql = 'SELECT d.id FROM designs d WHERE 1 ORDER BY d.id DESC LIMIT 2 OFFSET 1';
    expect(db.prepare(sql).all()).toEqual([{ id: 2 }, { id: 1 }]);
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((row) => row.detail).join(' ');
    expect(plan).toMatch(/COVERING INDEX designs_by_id/);
  });

  it('0009 drops the description\'s HTML column, keeping every design, its forms (which hold the HTML) and its search row', () => {
    const db = databaseAt(8);
    insertDesign(db, 1, { name: 'Planetary gear', text: 'A reducer', json: '{"id":1,"description":"<p>A reducer</p>"}' });
    db.prepare(`UPDATE designs SET description_html = '<p>A reducer</p>' WHERE id = 1`).run();
    db.prepare(`INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author) VALUES (1, 'Planetary gear', '', 'A reducer', '', 'maker')`).run();
    migrateCache(db, ':memory:', 9);
    const columns = (db.prepare('PRAGMA table_info(designs)').all() as { name: string }[]).map((column) => column.name);
    expect(columns).not.toContain('description_html');
    expect(columns).toContain('description_text');
    expect(db.prepare('SELECT id, name, description_text, list_json FROM designs').all()).toEqual([
      { id: 1, name: 'Planetary gear', description_text: 'A reducer', list_json: '{"id":1,"description":"<p>A reducer</p>"}' },
    ]);
    expect(db.prepare(`SELECT rowid FROM designs_fts WHERE designs_fts MATCH 'reducer'`).all()).toEqual([{ rowid: 1 }]);
  });

  it('0010 adds the table where a bulk fill keeps what undoes it, empty', () => {
    const db = databaseAt(9);
    insertDesign(db, 1);
    migrateCache(db, ':memory:', 10);
    expect(db.prepare('SELECT count(*) AS n FROM bulk_fill_undo').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM designs').get()).toEqual({ n: 1 });
  });

  it('0011 keeps the search index\'s whole terms in a table of their own, filled from the designs already indexed', () => {
    const db = databaseAt(10);
    insertDesign(db, 1, { name: 'Planetary gear' });
    db.prepare(`INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author) VALUES (1, 'Planetary gear', 'Søren''s ﬁsh', 'Café', '', 'maker')`).run();
    migrateCache(db, ':memory:', 11);
    expect(db.prepare('SELECT term FROM search_terms ORDER BY term').all()).toEqual(
      ['cafe', 'gear', 'maker', 'planetary', 's', 'søren', 'ﬁsh'].map((term) => ({ term })),
    );
  });

  it('0012 keeps each design\'s license beside its id in the narrow index, which still pages the newest designs', () => {
    const db = databaseAt(11);
    for (const id of [1, 2, 3]) insertDesign(db, id);
    db.prepare(`UPDATE designs SET license = 'cc0' WHERE id = 2`).run();
    migrateCache(db, ':memory:', 12);
    const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((row) => row.detail).join(' ');
    const newest = 'SELECT d.id FROM designs d WHERE 1 ORDER BY d.id DESC LIMIT 2 OFFSET 1';
    expect(db.prepare(newest).all()).toEqual([{ id: 2 }, { id: 1 }]);
    expect(plan(newest)).toMatch(/COVERING INDEX designs_by_id_license/);
    const licenses = `SELECT j.value AS id, d.license FROM json_each('[3,2]') j CROSS JOIN designs d INDEXED BY designs_by_id_license ON d.id = j.value`;
    expect(db.prepare(licenses).all()).toEqual([{ id: 3, license: null }, { id: 2, license: 'cc0' }]);
    expect(plan(licenses)).toMatch(/COVERING INDEX designs_by_id_license \(id=\?\)/);
  });

  it('0020 keeps no copy of the indexed text nor positions, and every design, its forms and tags, and what search finds stay as they were', () => {
    const db = databaseAt(19);
    const forms = [
      JSON.stringify({ id: 1, name: 'Planetary gear', tags: [' Gear ', { name: 'Mechanical' }, 'gear'], future: { kept: [1, 2] } }),
      JSON.stringify({ id: 2, name: 'Cable clip', tags: [] }),
      // Waiting in the search backlog: no search row yet, its tags read from its list form.
      JSON.stringify({ id: 3, name: 'Hinge', tags: ['\tPivot\u00a0', { name: 'pivot' }, { id: 9 }, 'Door'] }),
    ];
    insertDesign(db, 1, { name: 'Planetary gear', text: 'A reducer', json: forms[0] });
    insertDesign(db, 2, { name: 'Cable clip', author: 'zoe', json: forms[1] });
    insertDesign(db, 3, { name: 'Hinge', json: forms[2] });
    insertDesign(db, 4, { name: 'Own draft', json: null });
    db.prepare(`UPDATE designs SET user_form_json = '{"id":4,"wiki_mode":true}' WHERE id = 4`).run();
    const row = db.prepare(`INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author) VALUES (?, ?, ?, ?, ?, ?)`);
    row.run(1, 'Planetary gear', '', 'A reducer Remixed from a vise', 'Gear Mechanical', 'maker');
    row.run(2, 'Cable clip', '', '', '', 'zoe');
    row.run(4, 'Own draft', '', '', '', 'maker');
    db.prepare('INSERT INTO search_backlog (design_id, text_pending) VALUES (3, 1)').run();
    // A fill under way had paused the index's merges.
    db.prepare(`INSERT INTO bulk_fill_undo (name, sql) VALUES ('designs_fts automerge', 'INSERT INTO designs_fts (designs_fts, rank) VALUES (''automerge'', 4)')`).run();
    const match = (q: string) => db.prepare('SELECT rowid FROM designs_fts WHERE designs_fts MATCH ? ORDER BY rowid').pluck().all(q);
    const queries = ['gear', 'reducer', 'vise', 'mechanical', 'zoe', 'maker', 'clip', 'pl*', 'draft', 'hinge'];
    const found = queries.map(match);
    const designs = db.prepare('SELECT * FROM designs ORDER BY id').all();

    migrateCache(db, ':memory:', 20);
    expect(queries.map(match)).toEqual(found);
    expect(db.prepare('SELECT * FROM designs ORDER BY id').all()).toEqual(designs.map((design, i) =>
      ({ ...(design as object), tags_text: ['Gear Mechanical', '', 'Pivot Door', ''][i] })));
    expect(db.prepare(`SELECT name FROM sqlite_schema WHERE name LIKE 'designs_fts%' ORDER BY name`).pluck().all())
      .toEqual(['designs_fts', 'designs_fts_after_delete', 'designs_fts_config', 'designs_fts_data', 'designs_fts_docsize', 'designs_fts_idx']);
    expect(db.prepare(`SELECT v FROM designs_fts_config WHERE k = 'automerge'`).pluck().get()).toBe(0);
    // A phrase of several words, which needs positions, is no longer asked for (search asks for words).
    expect(() => match('"planetary gear"')).toThrow(/phrase/);
    // A design's row goes with it, and one written again is found by its new words only.
    db.prepare('DELETE FROM designs WHERE id = 1').run();
    expect(match('gear')).toEqual([]);
    db.prepare('DELETE FROM designs_fts WHERE rowid = 2').run();
    db.prepare(`INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author) VALUES (2, 'Cable tie', '', '', '', 'zoe')`).run();
    expect([match('clip'), match('tie')]).toEqual([[], [2]]);
  });

  it('0021 drops the description\'s text column (search rows make it from the stored form) and the backlog\'s flag, keeping every design and its search row', () => {
    const db = databaseAt(20);
    insertDesign(db, 1, { name: 'Planetary gear', text: 'A reducer', json: '{"id":1,"description":"<p>A reducer</p>"}' });
    insertDesign(db, 2, { name: 'Cable clip' });
    db.prepare(`INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author) VALUES (1, 'Planetary gear', '', 'A reducer', '', 'maker')`).run();
    db.prepare('INSERT INTO search_backlog (design_id, text_pending) VALUES (2, 1)').run();
    const designs = (db.prepare('SELECT * FROM designs ORDER BY id').all() as Record<string, unknown>[]).map(({ description_text: _text, ...design }) => design);
    migrateCache(db, ':memory:', 21);
    expect(db.prepare('SELECT * FROM designs ORDER BY id').all()).toEqual(designs);
    expect(db.prepare('SELECT * FROM search_backlog').all()).toEqual([{ design_id: 2 }]);
    expect(db.prepare(`SELECT rowid FROM designs_fts WHERE designs_fts MATCH 'reducer'`).pluck().all()).toEqual([1]);
  });

  it('0022 adds each form\'s layout, NULL for the forms stored before, which read back whole as they were', () => {
    const db = databaseAt(21);
    const form = { id: 1, name: 'Planetary gear', slug: 'd-1', description: '<p>A reducer</p>', tags: [{ id: 3, name: 'gear', taggings_count: 2 }], extra: null };
    db.prepare(`INSERT INTO designs (id, slug, name, excerpt, author_screen_name, list_json, user_form_json, fetched_at)
      VALUES (1, 'd-1', 'Planetary gear', '', 'maker', ?, '{"id":1,"wiki_mode":true}', 1)`).run(JSON.stringify(form));
    const designs = db.prepare('SELECT * FROM designs ORDER BY id').all() as Record<string, unknown>[];
    migrateCache(db, ':memory:', 22);
    expect(db.prepare('SELECT * FROM designs ORDER BY id').all()).toEqual(designs.map((design) => ({ ...design, list_layout: null, user_form_layout: null })));
    expect(getCachedDesign(db as ReadableDB, 1)!.forms).toEqual({ list: form, user: { id: 1, wiki_mode: true } });
  });

  it('opens a file database in WAL with foreign keys on, synchronous=NORMAL and a page cache for a million designs, at the latest version', () => {
    const db = openCacheDatabase(join(tempDir('cache-open'), 'cache.sqlite'));
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      expect(db.pragma('cache_size', { simple: true })).toBe(-PAGE_CACHE_KIB);
      expect(schemaVersion(db)).toBe(CACHE_MIGRATIONS.length);
    } finally {
      db.close();
    }
  });

  it('refuses a database from the future with a named error, and leaves it untouched', () => {
    const path = join(tempDir('cache-future'), 'cache.sqlite');
    const future = new Database(path);
    future.pragma(`user_version = ${CACHE_MIGRATIONS.length + 1}`);
    future.close();
    expect(() => openCacheDatabase(path)).toThrow(CacheDatabaseFromTheFutureError);
    const again = new Database(path);
    expect(schemaVersion(again)).toBe(CACHE_MIGRATIONS.length + 1);
    again.close();
  });
});
