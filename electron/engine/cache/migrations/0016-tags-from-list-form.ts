import type Database from 'better-sqlite3';

/**
 * A design's tags are read from its stored list form (the only form that has them, spec §2.1) by whatever shows them:
 * the design's page and its search row. The tables that held a copy of them go: nothing read a design by its tags,
 * and a pull linked each new design to its tags one statement a tagging, with two foreign keys to look up, about a
 * sixth of its CPU. A bulk fill that had set the taggings' index aside no longer makes it again.
 */
export function migration0016TagsFromListForm(db: Database.Database): void {
  db.exec(`
    DROP TABLE design_tags;
    DROP TABLE tags;
    DELETE FROM bulk_fill_undo WHERE name = 'design_tags_by_tag';
  `);
}
