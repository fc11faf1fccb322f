import type Database from 'better-sqlite3';

/**
 * The library's "most popular" sort: the service's last_trending_popularity, read from the forms the cache keeps
 * whole. A virtual generated column, so no writer has to know of it; indexed for paging at 100,000 designs.
 */
export function migration0005Popularity(db: Database.Database): void {
  db.exec(`
    ALTER TABLE designs ADD COLUMN popularity REAL GENERATED ALWAYS AS (
      coalesce(json_extract(list_json, '$.last_trending_popularity'), json_extract(user_form_json, '$.last_trending_popularity'), 0)
    ) VIRTUAL;
    CREATE INDEX designs_by_popularity ON designs(popularity DESC, id DESC);
  `);
}
