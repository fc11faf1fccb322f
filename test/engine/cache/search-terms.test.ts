import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type WritableDB } from '../../../electron/engine/cache/cache-database';
import { boundedDesignCount } from '../../../electron/engine/cache/design-counts';
import { countCachedDesigns, listCachedDesigns, searchCachedDesigns } from '../../../electron/engine/cache/design-reads';
import { deleteDesigns, DesignWriteSession, fillAuthor, upsertDesign, upsertDesigns } from '../../../electron/engine/cache/design-writes';
import { ftsQuery } from '../../../electron/engine/cache/fts-query';
import { applyLocalDesignEdit } from '../../../electron/engine/cache/local-design-edit';
import { writeBackloggedSearchRows } from '../../../electron/engine/cache/search-backlog';
import { asksForWholeWordsOnly, MAX_PREFIX_TERMS, searchMatch } from '../../../electron/engine/cache/search-terms';
import { seededRandom } from '../../../service/seed/seeded-random';
import { listFormDesign } from './cache-fixtures';

let db: WritableDB;
const add = (fields: Record<string, unknown>) => upsertDesign(db, listFormDesign(fields), 'list', 1_000);

/** The search index's terms the vocabulary lacks: none, whatever wrote the rows. */
function termsMissing(database: Database.Database): string[] {
  database.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.index_terms USING fts5vocab(main, designs_fts, row)');
  return (database.prepare('SELECT term FROM temp.index_terms EXCEPT SELECT term FROM search_terms').all() as { term: string }[]).map((row) => row.term);
}

const vocabulary = () => (db.prepare('SELECT term FROM search_terms ORDER BY term').all() as { term: string }[]).map((row) => row.term);

/** What FTS5 itself answers for the words as prefixes, newest first: what the vocabulary's expansion must equal. */
const prefixMatches = (query: string) =>
  (db.prepare('SELECT rowid AS id FROM designs_fts WHERE designs_fts MATCH ? ORDER BY rowid DESC').all(ftsQuery(query)) as { id: number }[]).map((row) => row.id);

beforeEach(() => {
  db = openCacheDatabase(':memory:');
});

describe('the search index\'s vocabulary', () => {
  it('holds every term of the index, as its tokenizer folds them, whatever wrote the search row', () => {
    add({ id: 1, name: 'Søren\'s ﬁsh tank', excerpt: 'Café İstanbul straße', tags: [{ id: 1, name: 'Synthèse', taggings_count: 1 }] });
    add({ id: 2, name: '歯車 ギア', description: '<p>Hinge <b>and</b> gear</p>', user: { id: 8, screen_name: 'zoë' }, user_id: 8 });
    expect(vocabulary()).toEqual(expect.arrayContaining(['søren', 's', 'ﬁsh', 'cafe', 'istanbul', 'straße', 'synthese', '歯車', 'ギア', 'zoe']));
    expect(termsMissing(db)).toEqual([]);

    // A design written again (renamed), a deferred page of new ones (their rows in two batches) and a crash's leftovers, a local edit, an author filled in.
    add({ id: 1, name: 'Renamed planter', updated_at: '2026-02-01T10:00:00.000+00:00' });
    const session = new DesignWriteSession({ deferSearchRows: true });
    upsertDesigns(db, [listFormDesign({ id: 3, name: 'Deferred gearbox' }), listFormDesign({ id: 4, name: 'Deferred bracket' })], 'list', 1_000, {}, session);
    expect(writeBackloggedSearchRows(db, 1)).toEqual({ taken: 1, more: true });
    upsertDesigns(db, [listFormDesign({ id: 5, name: 'Crashed walkway' })], 'list', 1_000, {}, new DesignWriteSession({ deferSearchRows: true }));
    expect(writeBackloggedSearchRows(db)).toEqual({ taken: 2, more: false });
    applyLocalDesignEdit(db, 2, { name: 'Locally edited sprocket' });
    upsertDesign(db, { ...listFormDesign({ id: 6, name: 'Nameless author', user_id: 9 }), user: undefined }, 'user', 1_000, { own: true });
    fillAuthor(db, 9, 'quillmaker');

    expect(vocabulary()).toEqual(expect.arrayContaining(['renamed', 'planter', 'gearbox', 'bracket', 'walkway', 'sprocket', 'quillmaker']));
    expect(termsMissing(db)).toEqual([]);
    // A term whose designs went stays: it matches nothing, and finding nothing costs nothing.
    deleteDesigns(db, [5]);
    expect(vocabulary()).toContain('walkway');
    expect(listCachedDesigns(db, { query: 'walkw', sort: 'newest' })).toEqual([]);
  });

  it('turns a word past the prefix index\'s three letters into the whole terms it begins; others stay prefixes', () => {
    add({ id: 1, name: 'Synthetic gear', excerpt: 'synthesis of gears' });
    add({ id: 2, name: 'Synthèse', excerpt: 'a synthesizer stand' });
    expect(searchMatch(db, 'synth')).toBe('("synthese" OR "synthesis" OR "synthesizer" OR "synthetic")');
    expect(searchMatch(db, 'Synthetic GEAR')).toBe('("synthetic") AND ("gear" OR "gears")');
    // Only the words typed, each whole: the search needs no prefix query beside the whole-word one.
    expect(asksForWholeWordsOnly(searchMatch(db, 'Synthetic GEARS')!, 'Synthetic GEARS')).toBe(true);
    expect(asksForWholeWordsOnly(searchMatch(db, 'Synthetic GEAR')!, 'Synthetic GEAR')).toBe(false);
    expect(asksForWholeWordsOnly(searchMatch(db, 'syn')!, 'syn')).toBe(false);
    expect(searchMatch(db, 'syn')).toBe('"syn"*');
    expect(searchMatch(db, 'zzzz')).toBe('"zzzz"*');
    // Outside ASCII the tokenizer folds letters its own way: FTS5 is asked the prefix as typed.
    expect(searchMatch(db, 'synthè')).toBe('"synthè"*');
    expect(searchMatch(db, '  ')).toBeNull();
    for (let i = 0; i <= MAX_PREFIX_TERMS; i++) add({ id: 100 + i, name: `Part 2024${String(i).padStart(2, '0')}` });
    expect(searchMatch(db, '2024')).toBe('"2024"*');
  });

  it('finds, pages and counts the same designs as the prefix query would, for any word typed', () => {
    const random = seededRandom(19);
    const stems = ['synth', 'gear', 'brack', 'hinge', 'plan', 'walk', 'sprock', 'cafe', 'søren', 'stra'];
    const endings = ['', 'etic', 'esis', 'box', 'et', 's', 'ing', 'er', 'eé', 'ß'];
    const word = () => stems[Math.floor(random() * stems.length)]! + endings[Math.floor(random() * endings.length)]!;
    const licenses = ['ccby', 'cc0', 'ccbysa'];
    const designs = Array.from({ length: 400 }, (_, i) => listFormDesign({
      id: i + 1, name: `${word()} ${word()}`, excerpt: word(), description: `<p>${word()} ${word()}</p>`, license: licenses[i % 3],
    }));
    for (let i = 0; i < designs.length; i += 50) upsertDesigns(db, designs.slice(i, i + 50), 'list', 1_000);
    expect(termsMissing(db)).toEqual([]);

    for (let round = 0; round < 60; round++) {
      const typed = [word(), word()].slice(0, 1 + Math.floor(random() * 2)).map((w) => w.slice(0, 1 + Math.floor(random() * w.length))).join(' ');
      const expected = prefixMatches(typed);
      const context = `typed "${typed}" (${searchMatch(db, typed)})`;
      expect(listCachedDesigns(db, { query: typed, sort: 'newest', limit: 500 }).map((d) => d.id), context).toEqual(expected);
      expect(countCachedDesigns(db, { query: typed }), context).toBe(expected.length);
      expect(boundedDesignCount(db, { query: typed }, 10_000), context).toEqual({ n: expected.length, lowerBound: false });
      const licensed = expected.filter((id) => designs[id - 1]!.license === 'cc0');
      expect(countCachedDesigns(db, { query: typed, license: 'cc0' }), context).toBe(licensed.length);
      expect(new Set(searchCachedDesigns(db, typed, { limit: 500 }).items.map((d) => d.id)), context).toEqual(new Set(expected));
    }
  });
});
