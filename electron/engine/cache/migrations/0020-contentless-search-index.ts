import type Database from 'better-sqlite3';

/**
 * The search index no longer keeps its own copy of the text it indexes, nor where in a column each word stands: it
 * is contentless (`content = ''`; `contentless_delete = 1` lets a row be removed or written again by its rowid alone)
 * and keeps only which designs hold a term (`detail = none`). Search asks only for designs holding words (never a
 * phrase of several, nor a word in a given column) and ranks them from the designs' own columns, so nothing is lost:
 * at 100,000 synthetic designs the index took 82.7 MB (26.4 MB of it the copy of the text), and takes about 10 MB.
 * The tags a design's search row holds (read from its stored list form) become a column of its own, `tags_text`,
 * which search ranks with and search rows are written from. Filled here from the old index's copy of them, or, for a
 * design still waiting for its search row, from its list form as the search rows read it then (the statements
 * frozen as this migration was written: a migration never runs live code that may change later).
 */
export function migration0020ContentlessSearchIndex(db: Database.Database): void {
  db.exec(`
    ALTER TABLE designs ADD COLUMN tags_text TEXT NOT NULL DEFAULT '';
    UPDATE designs AS d SET tags_text = coalesce((SELECT c.c3 FROM designs_fts_content c WHERE c.id = d.id), ${FROZEN_LIST_FORM_TAGS})
      WHERE d.list_json IS NOT NULL;

    CREATE VIRTUAL TABLE designs_fts_next USING fts5(
      name, excerpt, description, tags, author,
      tokenize = 'unicode61 remove_diacritics 2',
      prefix = '1 2 3',
      content = '', contentless_delete = 1, detail = none
    );
    INSERT INTO designs_fts_next (rowid, name, excerpt, description, tags, author)
      SELECT id, c0, c1, c2, c3, c4 FROM designs_fts_content ORDER BY id;
    INSERT INTO designs_fts_next (designs_fts_next) VALUES ('optimize');

    DROP TRIGGER designs_fts_after_delete;
    DROP TABLE designs_fts;
    ALTER TABLE designs_fts_next RENAME TO designs_fts;
    CREATE TRIGGER designs_fts_after_delete AFTER DELETE ON designs BEGIN
      DELETE FROM designs_fts WHERE rowid = old.id;
    END;
  `);
  // Merges paused by a fill under way (bulk_fill_undo's statements give them back) stay paused in the new index.
  const paused = db.prepare(`SELECT 1 FROM bulk_fill_undo WHERE name = 'designs_fts automerge'`).get() !== undefined;
  if (paused) {
    db.exec(`
      INSERT INTO designs_fts (designs_fts, rank) VALUES ('automerge', 0);
      INSERT INTO designs_fts (designs_fts, rank) VALUES ('crisismerge', 10000);
    `);
  }
}

/** JavaScript's white space, for SQLite's trim (as search rows read tags when this migration was written). */
const FROZEN_JS_WHITE_SPACE = `char(9, 10, 11, 12, 13, 32, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232,
  8233, 8239, 8287, 12288, 65279)`;

/** A design's tags as its search row held them: its list form's names, each once (ASCII case folded), in order. */
const FROZEN_LIST_FORM_TAGS = `coalesce((SELECT group_concat(name, ' ' ORDER BY position) FROM (
    SELECT name, min(position) AS position FROM (
      SELECT trim(CASE t.type WHEN 'text' THEN t.value WHEN 'object' THEN CASE WHEN json_type(t.value, '$.name') = 'text' THEN t.value ->> '$.name' END END,
          ${FROZEN_JS_WHITE_SPACE}) AS name,
        t.key AS position
      FROM json_each(CASE WHEN json_valid(d.list_json) AND json_type(d.list_json, '$.tags') = 'array' THEN d.list_json END, '$.tags') t)
    WHERE name <> '' GROUP BY lower(name))), '')`;
