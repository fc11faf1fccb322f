import type Database from 'better-sqlite3';

/**
 * Counters kept by triggers (what Rails' counter_cache does), so that a page of a list does not count
 * everything again: tags.taggings_count, and the number of published designs (the list's total).
 */
export function migration0002Counters(db: Database.Database): void {
  db.exec(`
    ALTER TABLE tags ADD COLUMN taggings_count INTEGER NOT NULL DEFAULT 0;
    UPDATE tags SET taggings_count = (SELECT count(*) FROM taggings WHERE taggings.tag_id = tags.id);
    CREATE TRIGGER taggings_count_up AFTER INSERT ON taggings BEGIN
      UPDATE tags SET taggings_count = taggings_count + 1 WHERE id = NEW.tag_id;
    END;
    CREATE TRIGGER taggings_count_down AFTER DELETE ON taggings BEGIN
      UPDATE tags SET taggings_count = taggings_count - 1 WHERE id = OLD.tag_id;
    END;
    CREATE INDEX taggings_by_design ON taggings(design_id);

    CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
    INSERT INTO counters VALUES ('published_designs', (SELECT count(*) FROM designs WHERE state = 'published'));
    CREATE TRIGGER published_designs_insert AFTER INSERT ON designs WHEN NEW.state = 'published' BEGIN
      UPDATE counters SET value = value + 1 WHERE name = 'published_designs';
    END;
    CREATE TRIGGER published_designs_delete AFTER DELETE ON designs WHEN OLD.state = 'published' BEGIN
      UPDATE counters SET value = value - 1 WHERE name = 'published_designs';
    END;
    CREATE TRIGGER published_designs_update AFTER UPDATE OF state ON designs WHEN (OLD.state = 'published') <> (NEW.state = 'published') BEGIN
      UPDATE counters SET value = value + (CASE WHEN NEW.state = 'published' THEN 1 ELSE -1 END) WHERE name = 'published_designs';
    END;
  `);
}
