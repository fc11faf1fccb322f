import type Database from 'better-sqlite3';
import { openSqlite } from '../sqlite/open-sqlite';
import { SYNC_MIGRATIONS } from './migrations';

export type SyncDatabase = Database.Database;

export class SyncDatabaseFromTheFutureError extends Error {
  constructor(path: string, found: number, known: number) {
    super(`${path} has sync schema version ${found}, newer than this design-sync knows (${known}); refusing to open it`);
    this.name = 'SyncDatabaseFromTheFutureError';
  }
}

/**
 * The sync state and the upload queue: a separate database from the cache, with synchronous=FULL,
 * because a commit lost to a power cut here is a change lost (sqlite.org: WAL + NORMAL may roll back
 * the last commits after a power loss; FULL makes each one durable).
 */
export function openSyncDatabase(path: string): SyncDatabase {
  const db = openSqlite(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrateSync(db, path);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

export function migrateSync(db: SyncDatabase, path = 'the sync database', target = SYNC_MIGRATIONS.length): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SYNC_MIGRATIONS.length) throw new SyncDatabaseFromTheFutureError(path, current, SYNC_MIGRATIONS.length);
  if (current >= target) return;
  db.transaction(() => {
    for (let version = current; version < target; version++) SYNC_MIGRATIONS[version]!(db);
    db.pragma(`user_version = ${target}`);
  })();
}

const CACHES = new WeakMap<SyncDatabase, Map<string, Database.Statement>>();

/**
 * Prepared statements of a database, kept by their SQL and shared by everything working on it (better-sqlite3
 * statements are reusable; preparing one costs more than running a small one). For fixed SQL texts only: one that
 * embeds values would grow the cache without end.
 */
export function statementsOf(db: SyncDatabase): (sql: string) => Database.Statement {
  let cache = CACHES.get(db);
  if (!cache) {
    cache = new Map();
    CACHES.set(db, cache);
  }
  const statements = cache;
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}
