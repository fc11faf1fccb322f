import type Database from 'better-sqlite3';

const OLD_ATTENTION = "'refused', 'missing-design')";
const NEW_ATTENTION = "'refused', 'missing-design', 'ready-to-publish')";

/**
 * A new reason for an item to wait for the person: 'ready-to-publish', a file added to a published design while review
 * before publishing is on. SQLite cannot change a CHECK constraint in place: the table is made again from its own
 * definition with the one list changed, its rows (ids kept) copied, and its indexes made again from theirs, in the
 * migration's one transaction.
 */
export function migration0008ReadyToPublish(db: Database.Database): void {
  const table = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'queue_items'").get() as { sql: string };
  if (!table.sql.includes(OLD_ATTENTION)) throw new Error('The queue table is not as migration 0007 left it: its attention list was not found.');
  const indexes = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'queue_items' AND sql IS NOT NULL").all() as { sql: string }[]).map((row) => row.sql);
  const columns = (db.prepare('PRAGMA table_info(queue_items)').all() as { name: string }[]).map((column) => column.name).join(', ');
  db.exec(table.sql.replace(/^CREATE TABLE "?queue_items"?/, 'CREATE TABLE queue_items_0008').replace(OLD_ATTENTION, NEW_ATTENTION));
  db.exec(`INSERT INTO queue_items_0008 (${columns}) SELECT ${columns} FROM queue_items`);
  db.exec('DROP TABLE queue_items');
  db.exec('ALTER TABLE queue_items_0008 RENAME TO queue_items');
  for (const sql of indexes) db.exec(sql);
}
