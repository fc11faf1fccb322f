import type Database from 'better-sqlite3';

/**
 * The search backlog no longer keeps a copy of each waiting design's description HTML (about 280 bytes a design a
 * pull wrote, and the pages they took left free in the file once the backlog is written): whether a design's
 * description text waits is a flag, and its HTML is read from the design's form as stored when the text is made
 * (search-backlog.ts).
 */
export function migration0015BacklogTextFlag(db: Database.Database): void {
  db.exec(`
    CREATE TABLE search_backlog_next (design_id INTEGER PRIMARY KEY, text_pending INTEGER NOT NULL DEFAULT 0);
    INSERT INTO search_backlog_next (design_id, text_pending) SELECT design_id, description_html IS NOT NULL FROM search_backlog;
    DROP TABLE search_backlog;
    ALTER TABLE search_backlog_next RENAME TO search_backlog;
  `);
}
