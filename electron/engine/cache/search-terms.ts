import type Database from 'better-sqlite3';
import type { ReadableDB, WritableDB } from './cache-database';
import { DEFERRED_TERMS_UNDO } from './bulk-fill';
import { searchWords } from './fts-query';
import { prepared } from './prepared';
import { searchRowValues } from './search-row-values';

/** The search index's tokenizer (migration 0002), which the scratch table below must share to find the same terms. */
export const SEARCH_TOKENIZER = 'unicode61 remove_diacritics 2';

/** The longest prefix FTS5 keeps an index of (migration 0002: prefix = '1 2 3'): longer ones are expanded here. */
const LONGEST_INDEXED_PREFIX = 3;

/**
 * A prefix with more whole terms than this is left to FTS5: an OR of many terms costs a step of each at every match,
 * and a prefix this long with that many forms is rare (numbers: "2024" has 2024, 20240, 20241…).
 */
export const MAX_PREFIX_TERMS = 24;

/**
 * The whole terms of the search index: a word typed past the prefix index's 3 letters becomes the OR of the terms it
 * begins ("synth"* → "synthetic"), which FTS5 reads lazily, newest first, stopping with the page. Asked as a prefix,
 * FTS5 first gathers every match of every such term into one list: a million rowids for a word every design has,
 * 50–140 ms, before the first match. The table only grows (a term whose designs all went stays: it then matches
 * nothing, which costs nothing), and holds every term of the index: every write of a search row notes its terms in
 * the same transaction (noteSearchTerms), asking the same tokenizer, but for the slices of the search index's fill,
 * whose terms are read from the index's own vocabulary once it ends (deferSearchTerms; searchMatch meanwhile asks for
 * prefixes).
 */
const SCRATCH = 'temp.search_terms_scratch';
const SCRATCH_VOCABULARY = 'temp.search_terms_scratch_vocabulary';
const withScratch = new WeakSet<Database.Database>();

/** The connection's scratch index: contentless, without positions or sizes, so finding a row's terms is all it costs. */
function scratchOf(db: WritableDB): void {
  if (withScratch.has(db)) return;
  db.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS ${SCRATCH} USING fts5(text, tokenize = '${SEARCH_TOKENIZER}', content = '', detail = none, columnsize = 0);
    CREATE VIRTUAL TABLE IF NOT EXISTS ${SCRATCH_VOCABULARY} USING fts5vocab(temp, search_terms_scratch, row);
  `);
  withScratch.add(db);
}

/**
 * From this many rows, and at least half of the index, the index's own vocabulary is read instead: a row costs about
 * 8 µs through the scratch table, where the whole index is read at about 3.5 µs a design (a million: 7.6 s against 3.5 s).
 */
const READ_WHOLE_INDEX_FROM = 50_000;

/** Adds the terms of these designs' search rows to the vocabulary (call it in the transaction that wrote the rows). */
export function noteSearchTerms(db: WritableDB, designIds: Iterable<number>): void {
  const ids = [...new Set(designIds)];
  if (ids.length === 0) return;
  if (ids.length >= READ_WHOLE_INDEX_FROM && ids.length * 2 >= (prepared(db, 'SELECT count(*) AS n FROM designs').get() as { n: number }).n) {
    noteEverySearchTerm(db);
    return;
  }
  scratchOf(db);
  // The text of these designs' search rows, all columns (a space between them, which the tokenizer splits at).
  const insert = prepared(db, `INSERT INTO ${SCRATCH} (rowid, text) VALUES (?, ?)`);
  for (const [id, ...columns] of searchRowValues(db, JSON.stringify(ids))) insert.run(id, columns.join(' '));
  prepared(db, `INSERT OR IGNORE INTO search_terms (term) SELECT term FROM ${SCRATCH_VOCABULARY}`).run();
  prepared(db, `INSERT INTO ${SCRATCH} (${SCRATCH.slice('temp.'.length)}) VALUES ('delete-all')`).run();
}

/** Every term of the search index into the vocabulary, read from the index itself. */
const NOTE_EVERY_TERM = `
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.designs_fts_terms USING fts5vocab(main, designs_fts, row);
    INSERT OR IGNORE INTO search_terms (term) SELECT term FROM temp.designs_fts_terms;
    DROP TABLE temp.designs_fts_terms;
  `;

/** Every term of the search index into the vocabulary, read from the index itself (a migration, a whole-cache fill). */
function noteEverySearchTerm(db: Database.Database): void {
  db.exec(NOTE_EVERY_TERM);
}

/**
 * The bulk_fill_undo row (bulk-fill.ts) whose statement notes every term of the index: there while a fill of the
 * search index writes rows without noting their terms. It goes, its statement run, with the fill's paused merges
 * (resumeSearchIndexMerges: at the fill's end, or when the cache next opens after a crash; the fill itself notes them
 * a turn at a time first).
 */
const TERMS_AFTER_FILL = DEFERRED_TERMS_UNDO;

/**
 * The terms of the search rows written in this transaction are left to the end of the fill (call it in that
 * transaction): until then the vocabulary may lack some of the index's terms, and searchMatch asks FTS5 for prefixes.
 */
export function deferSearchTerms(db: WritableDB): void {
  prepared(db, 'INSERT OR IGNORE INTO bulk_fill_undo (name, sql) VALUES (?, ?)').run(TERMS_AFTER_FILL, NOTE_EVERY_TERM);
}

const VOCABULARY = 'temp.designs_fts_vocabulary';
/** The terms of a turn of noteSearchTermsAfter, on their way into the vocabulary. */
const TURN_TERMS = 'temp.search_terms_turn';
const withVocabulary = new WeakSet<Database.Database>();

/**
 * Notes the index's terms that follow `after` in its order (byte order: '' for the first), at most `limit` of them: a
 * common term's list of designs is read whole to count it, and the index of a million designs takes seconds to read
 * through, so a fill notes its deferred terms a turn at a time (searchTermsNoted once `done`). Returns the last term
 * noted.
 */
export function noteSearchTermsAfter(db: WritableDB, after: string, limit: number): { last: string; done: boolean } {
  if (!withVocabulary.has(db)) {
    db.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS ${VOCABULARY} USING fts5vocab(main, designs_fts, row);
      CREATE TEMP TABLE IF NOT EXISTS ${TURN_TERMS} (term TEXT NOT NULL);
    `);
    withVocabulary.add(db);
  }
  // fts5vocab gives its terms in order (the ORDER BY costs no sort), so LIMIT stops reading the index there. The turn's
  // terms go through a scratch table rather than through JavaScript: at 100,000 designs (100,000 terms, most of them a
  // design's number) reading each out and inserting it again took half of the noting's 250–280 ms of CPU.
  return db.transaction(() => {
    prepared(db, `INSERT INTO ${TURN_TERMS} (term) SELECT term FROM ${VOCABULARY} WHERE term > ? ORDER BY term LIMIT ?`).run(after, limit);
    prepared(db, `INSERT OR IGNORE INTO search_terms (term) SELECT term FROM ${TURN_TERMS}`).run();
    const { noted, last } = prepared(db, `SELECT count(*) AS noted, max(term) AS last FROM ${TURN_TERMS}`).get() as { noted: number; last: string | null };
    prepared(db, `DELETE FROM ${TURN_TERMS}`).run();
    return { last: last ?? after, done: noted < limit };
  })();
}

/** The terms deferSearchTerms left were noted (noteSearchTermsAfter, through to the last): the vocabulary stands for the index again. */
export function searchTermsNoted(db: WritableDB): void {
  prepared(db, 'DELETE FROM bulk_fill_undo WHERE name = ?').run(TERMS_AFTER_FILL);
}

/** Whether search rows were written whose terms the vocabulary has not noted yet (deferSearchTerms). */
export function searchTermsDeferred(db: ReadableDB): boolean {
  return prepared(db, 'SELECT 1 FROM bulk_fill_undo WHERE name = ?').get(TERMS_AFTER_FILL) !== undefined;
}

/** The vocabulary's terms beginning with an ASCII `prefix`, at most `max` + 1 of them. */
function termsBeginning(db: ReadableDB, prefix: string, max: number): string[] {
  // Past the prefix in byte order: its last character's successor (ASCII letters and digits only, so never past 0x7f).
  const after = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return (prepared(db, 'SELECT term FROM search_terms WHERE term >= ? AND term < ? ORDER BY term LIMIT ?').all(prefix, after, max + 1) as { term: string }[])
    .map((row) => row.term);
}

const quoted = (term: string) => `"${term.replace(/"/g, '""')}"`;
const ASCII_WORD = /^[a-z0-9]+$/;

/**
 * What a person typed as an FTS5 MATCH expression that cannot fail to parse, each word a prefix: a word the prefix
 * indexes hold (up to 3 letters) or with letters the vocabulary cannot stand for (outside ASCII: the tokenizer folds
 * them its own way) stays a prefix query ("ca"*); a longer one becomes the OR of the whole terms it begins
 * (("synthetic")), unless it begins none or too many. Words are AND-ed. Null when nothing searchable was typed.
 */
export function searchMatch(db: ReadableDB, input: string, maxWords = 12): string | null {
  const words = searchWords(input, maxWords);
  if (words.length === 0) return null;
  // While a fill leaves its terms to its end, the vocabulary cannot stand for the index: every word is a prefix.
  const vocabulary = !searchTermsDeferred(db);
  return words.map((word) => wordMatch(db, word, vocabulary)).join(' AND ');
}

/** Whether `match` (from searchMatch) asks for nothing but the words typed, each whole: no word stood for longer ones. */
export function asksForWholeWordsOnly(match: string, input: string, maxWords = 12): boolean {
  return match === searchWords(input, maxWords).map((word) => `(${quoted(word)})`).join(' AND ');
}

function wordMatch(db: ReadableDB, word: string, vocabulary: boolean): string {
  const prefix = `${quoted(word)}*`;
  if (!vocabulary || word.length <= LONGEST_INDEXED_PREFIX || !ASCII_WORD.test(word)) return prefix;
  const terms = termsBeginning(db, word, MAX_PREFIX_TERMS);
  if (terms.length === 0 || terms.length > MAX_PREFIX_TERMS) return prefix;
  return `(${terms.map(quoted).join(' OR ')})`;
}
