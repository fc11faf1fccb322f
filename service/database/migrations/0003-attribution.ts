import type Database from 'better-sqlite3';

/**
 * designs.attribution: free text naming the source an adapted design credits (a Thingiverse thing, an NIH 3D model…),
 * null when there is none. The live service carries it on every design (the recorded answers, docs/service-choices.md).
 */
export function migration0003Attribution(db: Database.Database): void {
  db.exec(`ALTER TABLE designs ADD COLUMN attribution TEXT`);
}
