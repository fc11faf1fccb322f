import type Database from 'better-sqlite3';
import { noteEverySearchTerm } from '../search-terms';

/**
 * The search index's whole terms (search-terms.ts), so that a word typed past the prefix index's 3 letters is looked
 * up as the terms it begins, not gathered as a prefix; filled here from the index of the designs already cached.
 */
export function migration0011SearchTerms(db: Database.Database): void {
  db.exec('CREATE TABLE search_terms (term TEXT PRIMARY KEY) WITHOUT ROWID;');
  noteEverySearchTerm(db);
}
