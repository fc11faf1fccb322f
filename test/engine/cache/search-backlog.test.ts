import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { resumeSearchIndexMerges } from '../../../electron/engine/cache/bulk-fill';
import { openCacheDatabase, type WritableDB } from '../../../electron/engine/cache/cache-database';
import { openDesignCache } from '../../../electron/engine/cache/design-cache';
import { countCachedDesigns } from '../../../electron/engine/cache/design-reads';
import { DesignWriteSession, upsertDesigns } from '../../../electron/engine/cache/design-writes';
import { searchBacklogSize, writeBackloggedSearchRows } from '../../../electron/engine/cache/search-backlog';
import { writeSearchRow } from '../../../electron/engine/cache/search-rows';
import { noteSearchTermsAfter, searchMatch, searchTermsDeferred, searchTermsNoted } from '../../../electron/engine/cache/search-terms';
import { searchWords } from '../../../electron/engine/cache/fts-query';
import { listFormDesign, searchIndexTerms } from './cache-fixtures';

let db: WritableDB;

/** Designs written as the catalogue's pull writes them: their search rows and description text left in the backlog. */
const writeDeferred = (database: WritableDB, designs: unknown[], form: 'list' | 'user' = 'list') =>
  upsertDesigns(database, designs, form, 1_000, {}, new DesignWriteSession({ deferSearchRows: true }));

const searchRows = (database: Database.Database = db) => searchIndexTerms(database);

/** The search index's terms the vocabulary lacks. */
function termsMissing(database: Database.Database): string[] {
  database.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.index_terms USING fts5vocab(main, designs_fts, row)');
  return (database.prepare('SELECT term FROM temp.index_terms EXCEPT SELECT term FROM search_terms').all() as { term: string }[]).map((row) => row.term);
}

const found = (query: string) => countCachedDesigns(db, { query });

beforeEach(() => {
  db = openCacheDatabase(':memory:');
});

describe('the search rows of the backlog', () => {
  it('are the rows the designs\' columns and stored forms make when a design\'s row is written again, whatever the forms hold', () => {
    writeDeferred(db, [
      listFormDesign({ id: 1, name: 'Gear  box', description: '<p>Spur <b>gears</b></p><ul><li>steel</li></ul>', attribution: '  Remixed from a <i>thing</i>  ' }),
      listFormDesign({ id: 2, tags: ['  Hinge\t', { name: 'hinge' }, { name: 'Clip', id: 3 }, { id: 4 }, 7, '', { name: ' ' }], attribution: 12 }),
      listFormDesign({ id: 3, description: null, attribution: true, tags: 'not a list' }),
      listFormDesign({ id: 4, description: { html: '<p>odd</p>' }, excerpt: null, attribution: ['a', 'b'] }),
      listFormDesign({ id: 5, description: 'Plain text &amp; no tags &lt;b&gt;', user: undefined, user_id: null }),
    ]);
    // Cached from the user-designs form only: its description (and no tags) from that form.
    writeDeferred(db, [{ ...listFormDesign({ id: 6, description: '<p>Pine &amp; ash</p>', attribution: 'Based on oak' }), tags: undefined }], 'user');
    // A design the service sent again with a newer date: its columns from the newer form.
    writeDeferred(db, [listFormDesign({ id: 7, description: '<p>Old walnut</p>' })]);
    writeDeferred(db, [listFormDesign({ id: 7, description: '<p>New maple</p>', updated_at: '2026-03-01T10:00:00.000+00:00' })], 'user');
    // One whose list form came after its newer user form: its columns (and text) stay the user form's.
    writeDeferred(db, [listFormDesign({ id: 8, description: '<p>New cedar</p>', updated_at: '2026-03-01T10:00:00.000+00:00' })], 'user');
    writeDeferred(db, [listFormDesign({ id: 8, description: '<p>Old birch</p>' })]);

    expect(writeBackloggedSearchRows(db, 3)).toEqual({ taken: 3, more: true });
    expect(writeBackloggedSearchRows(db)).toEqual({ taken: 5, more: false });
    const fromBacklog = searchRows();
    expect(Object.keys(fromBacklog)).toHaveLength(8);
    // Each row: its name's, author's and tags' words, and its description's text (the attribution after it).
    const descriptions = [
      'Spur gears steel Remixed from a <i>thing</i>', ' 12', ' 1', '{"html":" odd "} ["a","b"]', 'Plain text & no tags <b>', 'Pine & ash Based on oak', 'New maple', 'New cedar',
    ];
    const names = ['Gear  box', 'Design 2', 'Design 3', 'Design 4', 'Design 5', 'Design 6', 'Design 7', 'Design 8'];
    const tags = ['', 'Hinge Clip', '', '', '', '', '', ''];
    const authors = ['maker', 'maker', 'maker', 'maker', '', 'maker', 'maker', 'maker'];
    expect(fromBacklog).toEqual(Object.fromEntries(descriptions.map((description, i) =>
      [i + 1, [...new Set(searchWords(`${names[i]} ${description} ${tags[i]} ${authors[i]}`, 100))].sort()])));

    db.transaction(() => {
      for (let id = 1; id <= 8; id++) writeSearchRow(db, id);
    })();
    expect(searchRows()).toEqual(fromBacklog);
  });
});

describe('a slice of the backlog', () => {
  it('takes its first designs by id; one removed since leaves without a row, one whose row was written since keeps that row', () => {
    writeDeferred(db, [1, 2, 3, 4, 5].map((id) => listFormDesign({ id, description: `<p>Old <b>walnut</b> ${id}</p>` })));
    // 2: removed while it waited (its backlog entry is not taken with it).
    db.prepare('DELETE FROM designs WHERE id = 2').run();
    // 3: written again with its search row (a sync pass writes own designs' rows as it goes).
    upsertDesigns(db, [listFormDesign({ id: 3, description: '<p>New <i>maple</i></p>', updated_at: '2026-03-01T10:00:00.000+00:00' })], 'list', 2_000);

    expect(writeBackloggedSearchRows(db, 4, 'after-fill')).toEqual({ taken: 4, more: true });
    expect(searchBacklogSize(db)).toBe(1);
    const rows = searchRows();
    expect(Object.keys(rows).map(Number)).toEqual([1, 3, 4]);
    expect(rows[3]).toEqual([...new Set(searchWords('Design 3 New maple maker', 100))].sort());
    expect(found('walnut')).toBe(2);

    expect(writeBackloggedSearchRows(db, 4, 'after-fill')).toEqual({ taken: 1, more: false });
    expect(writeBackloggedSearchRows(db, 4, 'after-fill')).toEqual({ taken: 0, more: false });
    expect(found('walnut')).toBe(3);
    expect(db.prepare('SELECT count(*) AS n FROM designs_fts').get()).toEqual({ n: 4 });
    db.exec(`INSERT INTO designs_fts (designs_fts, rank) VALUES ('integrity-check', 1)`);
  });
});

describe('the vocabulary while a fill leaves the terms to its end', () => {
  it('finds what the slices wrote by prefix meanwhile, and holds every term of the index once the fill ends', () => {
    upsertDesigns(db, [listFormDesign({ id: 1, name: 'Synthetic gear' })], 'list', 1_000);
    writeDeferred(db, [listFormDesign({ id: 2, name: 'Synthwave lamp' }), listFormDesign({ id: 3, name: 'Synthesizer stand' })]);
    expect(writeBackloggedSearchRows(db, 1, 'after-fill')).toEqual({ taken: 1, more: true });

    expect(searchTermsDeferred(db)).toBe(true);
    expect(termsMissing(db)).toEqual(['lamp', 'synthwave']);
    // The vocabulary knows "synthetic" but not yet "synthwave": the word is asked as a prefix, which finds both.
    expect(searchMatch(db, 'synth')).toBe('"synth"*');
    expect(found('synth')).toBe(2);
    expect(found('synthwave')).toBe(1);

    expect(writeBackloggedSearchRows(db, 10, 'after-fill')).toEqual({ taken: 1, more: false });
    // The fill's end gives the merges back and notes the terms.
    resumeSearchIndexMerges(db);
    expect(searchTermsDeferred(db)).toBe(false);
    expect(termsMissing(db)).toEqual([]);
    expect(searchMatch(db, 'synth')).toBe('("synthesizer" OR "synthetic" OR "synthwave")');
    expect(found('synth')).toBe(3);
  });

  it('are noted a turn at a time, each turn from where the one before stopped, until the vocabulary stands for the index again', () => {
    writeDeferred(db, [listFormDesign({ id: 1, name: 'Walnut tray', excerpt: 'oak' }), listFormDesign({ id: 2, name: 'Maple tray' })]);
    writeBackloggedSearchRows(db, 10, 'after-fill');
    const missing = termsMissing(db);
    expect(missing.length).toBeGreaterThan(3);
    // A term a turn.
    const turns: string[] = [];
    for (let after = ''; ;) {
      const noted = noteSearchTermsAfter(db, after, 1);
      turns.push(noted.last);
      if (noted.done) break;
      after = noted.last;
    }
    expect(turns.slice(0, missing.length)).toEqual([...missing].sort());
    expect(termsMissing(db)).toEqual([]);
    expect(searchTermsDeferred(db)).toBe(true);
    searchTermsNoted(db);
    expect(searchTermsDeferred(db)).toBe(false);
    expect(searchMatch(db, 'walnu')).toBe('("walnut")');
  });

  it('after a crash part-way through a fill, the cache notes the terms of what was written when it next opens', () => {
    const dir = mkdtempSync(join(tmpdir(), 'design-sync-terms-'));
    try {
      const path = join(dir, 'cache.sqlite');
      const first = openCacheDatabase(path);
      writeDeferred(first, [listFormDesign({ id: 1, name: 'Drawer label' }), listFormDesign({ id: 2, name: 'Drawer divider' })]);
      writeBackloggedSearchRows(first, 1, 'after-fill');
      // No close: what a killed process leaves (the commits are in the WAL).
      const again = openDesignCache({ cacheDatabase: path, fileCache: join(dir, 'files') });
      try {
        expect(searchTermsDeferred(again.db)).toBe(false);
        expect(termsMissing(again.db)).toEqual([]);
        expect(searchMatch(again.db, 'drawe')).toBe('("drawer")');
        expect(searchBacklogSize(again.db)).toBe(1);
      } finally {
        again.close();
        first.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
