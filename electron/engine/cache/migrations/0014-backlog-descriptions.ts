import type Database from 'better-sqlite3';

/**
 * A design in the search backlog may wait for its description's text too (search-backlog.ts): the HTML it was written
 * with, whose text is made when its search row is (NULL: the text is in the design's row already).
 */
export function migration0014BacklogDescriptions(db: Database.Database): void {
  db.exec('ALTER TABLE search_backlog ADD COLUMN description_html TEXT');
}
