import type Database from 'better-sqlite3';

/**
 * The search index's whole terms (search-terms.ts), so that a word typed past the prefix index's 3 letters is looked
 * up as the terms it begins, not gathered as a prefix; filled here from the index of the designs already cached (its
 * own statements, frozen as this migration was written: a migration never runs live code that may change later).
 */
export function migration0011SearchTerms(db: Database.Database): void {
  db.exec(`
    CREATE TABLE search_terms (term TEXT PRIMARY KEY) WITHOUT ROWID;
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.designs_fts_terms USING fts5vocab(main, designs_fts, row);
    INSERT OR IGNORE INTO search_terms (term) SELECT term FROM temp.designs_fts_terms;
    DROP TABLE temp.designs_fts_terms;
  `);
}
