import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations';

export class DatabaseFromTheFutureError extends Error {
  constructor(path: string, found: number, known: number) {
    super(`${path} has schema version ${found}, newer than this service knows (${known}); refusing to open it`);
    this.name = 'DatabaseFromTheFutureError';
  }
}

export type ServiceDatabase = Database.Database;

export function openDatabase(path: string): ServiceDatabase {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  try {
    migrate(db, path);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

function migrate(db: ServiceDatabase, path: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) throw new DatabaseFromTheFutureError(path, current, MIGRATIONS.length);
  if (current === MIGRATIONS.length) return;
  db.transaction(() => {
    for (let version = current; version < MIGRATIONS.length; version++) MIGRATIONS[version]!(db);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  })();
}
