import type Database from 'better-sqlite3';

let nextId = 1000;

/** A design in the list/read form (spec §2.1), as the service sends it. */
export function listFormDesign(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const id = (fields.id as number | undefined) ?? nextId++;
  return {
    id,
    name: `Design ${id}`,
    slug: `design-${id}`,
    description: '',
    user_id: 7,
    created_at: '2026-01-01T10:00:00.000+00:00',
    updated_at: '2026-01-01T10:00:00.000+00:00',
    primary_image_id: null,
    license: 'ccby',
    state: 'published',
    design_category_id: 1,
    excerpt: '',
    last_trending_popularity: 0,
    current_delta_popularity: 0,
    materials: '',
    documents_zip: { url: null },
    download_count: 0,
    documents_download_count: 0,
    tags: [],
    user: { id: 7, screen_name: 'maker' },
    ...fields,
  };
}

export { tempDir } from '../../../harness/temp-dir';

/**
 * What the search index holds, by design id: the terms each row was indexed with, sorted. The index keeps no copy of
 * its text (contentless), so each of its terms is asked for: the few rows of a test's cache.
 */
export function searchIndexTerms(db: Database.Database): Record<number, string[]> {
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.fixture_index_terms USING fts5vocab(main, designs_fts, row)');
  const rows: Record<number, string[]> = {};
  for (const id of db.prepare('SELECT id FROM designs_fts_docsize ORDER BY id').pluck().all() as number[]) rows[id] = [];
  const holding = db.prepare('SELECT rowid FROM designs_fts WHERE designs_fts MATCH ?').pluck();
  for (const term of db.prepare('SELECT term FROM temp.fixture_index_terms ORDER BY term').pluck().all() as string[]) {
    for (const id of holding.all(`"${term.replace(/"/g, '""')}"`) as number[]) rows[id]!.push(term);
  }
  return rows;
}

/** Everything a design write touches, in a comparable form. */
export function dumpDesignWrites(db: Database.Database) {
  return {
    designs: db.prepare('SELECT * FROM designs ORDER BY id').all(),
    users: db.prepare('SELECT * FROM users ORDER BY id').all(),
    search: searchIndexTerms(db),
    syncState: db.prepare('SELECT * FROM sync_state').all(),
  };
}
