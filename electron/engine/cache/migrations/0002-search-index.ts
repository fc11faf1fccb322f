import type Database from 'better-sqlite3';

/**
 * Full-text search over name, excerpt, description (HTML stripped: designs.description_text), tags and
 * author. rowid is the design id. The upsert code writes a design's row (it knows its tags); a trigger
 * removes it with the design. Designs cached before this version are indexed here. Prefix indexes for 1–3
 * characters make the prefix queries of search-as-you-type one lookup instead of a merge of many terms.
 */
export function migration0002SearchIndex(db: Database.Database): void {
  db.exec(`
    CREATE VIRTUAL TABLE designs_fts USING fts5(
      name, excerpt, description, tags, author,
      tokenize = 'unicode61 remove_diacritics 2',
      prefix = '1 2 3'
    );
    CREATE TRIGGER designs_fts_after_delete AFTER DELETE ON designs BEGIN
      DELETE FROM designs_fts WHERE rowid = old.id;
    END;
    INSERT INTO designs_fts (rowid, name, excerpt, description, tags, author)
      SELECT d.id, d.name, d.excerpt, d.description_text,
        coalesce((SELECT group_concat(t.name, ' ') FROM design_tags dt JOIN tags t ON t.id = dt.tag_id WHERE dt.design_id = d.id), ''),
        d.author_screen_name
      FROM designs d;
  `);
}
