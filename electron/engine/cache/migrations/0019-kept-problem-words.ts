import type Database from 'better-sqlite3';

/**
 * What stopped a kept design's last attempt, as facts (`problem_words`: JSON EngineWords, a message id of the
 * catalogs and its values) beside its English (`problem`), so that the window and the command line say it in the
 * person's language, also after the language changes. NULL: no facts (none, or an English problem written before).
 */
export function migration0019KeptProblemWords(db: Database.Database): void {
  db.exec('ALTER TABLE kept_designs ADD COLUMN problem_words TEXT');
}
