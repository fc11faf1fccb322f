import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type Database from 'better-sqlite3';
import { engineLog } from '../log/engine-log';
import { damageReason, fileTimeStamp, integrityProblem, isDamagedDatabaseError } from '../sqlite/damaged-database';
import { openSqlite } from '../sqlite/open-sqlite';
import { SYNC_MIGRATIONS } from './migrations';

export type SyncDatabase = Database.Database;

export class SyncDatabaseFromTheFutureError extends Error {
  constructor(path: string, found: number, known: number) {
    super(`${path} has sync schema version ${found}, newer than this design-sync knows (${known}); refusing to open it. ` +
      'Use the newer design-sync with this profile: the sync database holds the upload queue and the last synced state.');
    this.name = 'SyncDatabaseFromTheFutureError';
  }
}

/** One change the queue held, as written to the rescue file (readable, and enough to redo it by hand). */
export interface RescuedQueueItem {
  id: number;
  kind: string;
  state: string;
  /** The file, relative to the sync folder (none for a design edit or a new design). */
  path: string | null;
  folder: string | null;
  designId: number | null;
  fileKind: string | null;
  attention: string | null;
  reason: string | null;
  /** What the change carries besides the file (a design edit's fields…). */
  payload: unknown;
  queuedAt: string | null;
}

/** What could still be read of a damaged sync database's queue. */
export interface QueueRescue {
  /** The readable file it was written to (`sync-queue-rescued-<time>.json` in the profile), or null when nothing could be read. */
  file: string | null;
  items: RescuedQueueItem[];
  /** False when part of the queue could not be read (some changes may be missing from `items`). */
  complete: boolean;
}

function rescueSentence(rescue: QueueRescue | null): string {
  if (!rescue || (rescue.file === null && !rescue.complete)) return 'the changes waiting to be sent could not be read from it';
  if (rescue.items.length === 0) return 'no changes were waiting to be sent';
  const count = `${rescue.items.length} change${rescue.items.length === 1 ? '' : 's'}`;
  return rescue.complete
    ? `the ${count} waiting to be sent ${rescue.items.length === 1 ? 'is' : 'are'} listed in ${rescue.file}`
    : `the ${count} waiting to be sent that could still be read ${rescue.items.length === 1 ? 'is' : 'are'} listed in ${rescue.file} (others may be missing)`;
}

/**
 * The sync database cannot be used: damaged (not a database, malformed, failing SQLite's check) or not a file. It is
 * never repaired or replaced by design-sync (it holds the upload queue and the last synced state): the message says
 * what the person can do, and names the file where what the queue held was rescued.
 */
export class SyncDatabaseDamagedError extends Error {
  constructor(readonly path: string, readonly reason: string, readonly rescue: QueueRescue | null) {
    super(`The sync database ${path} is damaged (${reason}). Your files and the service are untouched. ` +
      `Move it aside (with its -wal and -shm files, if any) to start sync afresh (your folder will be compared with the service again; ` +
      `${rescueSentence(rescue)}), or restore it from a backup.`);
    this.name = 'SyncDatabaseDamagedError';
  }
}

const RESCUE_COLUMNS = 'id, kind, state, path, folder, design_id, file_kind, attention, reason, payload, created_at';
/** States of changes still to be sent (done and cancelled ones are history). */
const PENDING = new Set(['waiting', 'running', 'failed', 'attention']);

interface RescueRow {
  id: number; kind: string; state: string; path: string | null; folder: string | null; design_id: number | null;
  file_kind: string | null; attention: string | null; reason: string | null; payload: string | null; created_at: number | null;
}

function rescuedItem(row: RescueRow): RescuedQueueItem {
  let payload: unknown = row.payload;
  try {
    payload = row.payload ? JSON.parse(row.payload) : {};
  } catch (error) {
    engineLog.warn('sync-state', `a rescued queue item's payload is not JSON (kept as text): item ${row.id}`, error);
  }
  return {
    id: row.id, kind: row.kind, state: row.state, path: row.path, folder: row.folder, designId: row.design_id, fileKind: row.file_kind,
    attention: row.attention, reason: row.reason, payload, queuedAt: typeof row.created_at === 'number' ? new Date(row.created_at).toISOString() : null,
  };
}

/**
 * Reads what it can of the queue of a damaged database: the table in id order until a damaged page stops the read,
 * then from the other end back to it, so that the rows after a damaged page are rescued too. It works on a copy (with
 * its WAL): SQLite may change or even delete the files of a database it opens (it drops the WAL of an empty file),
 * and the damaged database must stay as it was, for whoever tries to repair it.
 */
function readQueue(path: string): { rows: RescueRow[]; complete: boolean } | null {
  const scratch = mkdtempSync(join(tmpdir(), 'design-sync-rescue-'));
  try {
    const copy = join(scratch, 'sync.sqlite');
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    return readQueueOf(copy, path);
  } catch (error) {
    engineLog.warn('sync-state', `the damaged sync database ${path} cannot be copied to rescue its queue`, error);
    return null;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function readQueueOf(copy: string, path: string): { rows: RescueRow[]; complete: boolean } | null {
  let db: Database.Database;
  try {
    db = openSqlite(copy, { fileMustExist: true });
  } catch (error) {
    engineLog.warn('sync-state', `the damaged sync database ${path} cannot be opened to rescue its queue`, error);
    return null;
  }
  const rows = new Map<number, RescueRow>();
  let complete = true;
  const read = (order: 'ASC' | 'DESC') => {
    // NOT INDEXED: the table itself, whatever the state of its indexes.
    const statement = db.prepare(`SELECT ${RESCUE_COLUMNS} FROM queue_items NOT INDEXED ORDER BY id ${order}`);
    for (const row of statement.iterate() as IterableIterator<RescueRow>) {
      if (rows.has(row.id)) break;
      rows.set(row.id, row);
    }
  };
  try {
    try {
      read('ASC');
    } catch (error) {
      complete = false;
      engineLog.warn('sync-state', `part of the queue of the damaged sync database ${path} cannot be read; reading it from the end`, error);
      read('DESC');
    }
  } catch (error) {
    engineLog.warn('sync-state', `the rest of the queue of the damaged sync database ${path} cannot be read`, error);
  } finally {
    db.close();
  }
  if (!complete && rows.size === 0) return null;
  return { rows: [...rows.values()].sort((a, b) => a.id - b.id), complete };
}

/** The newest rescue file of the profile, when it already holds exactly these items (a second attempt to open). */
function sameRescue(dir: string, items: RescuedQueueItem[], complete: boolean): string | null {
  const newest = readdirSync(dir).filter((name) => /^sync-queue-rescued-.*\.json$/.test(name)).sort().pop();
  if (!newest) return null;
  try {
    const before = JSON.parse(readFileSync(join(dir, newest), 'utf8')) as { items?: unknown; complete?: unknown };
    return JSON.stringify(before.items) === JSON.stringify(items) && before.complete === complete ? join(dir, newest) : null;
  } catch (error) {
    engineLog.warn('sync-state', `an earlier rescue file ${newest} cannot be read; a new one is written`, error);
    return null;
  }
}

/**
 * Writes what the queue of the damaged database at `path` still holds (changes not yet sent: paths, kinds, states,
 * a design edit's fields) to `sync-queue-rescued-<time>.json` beside it, before the engine refuses to start on it.
 * Never writes to the damaged database. Null when nothing of the queue can be read.
 */
export function rescueQueue(path: string, reason: string, now = new Date()): QueueRescue | null {
  const read = readQueue(path);
  if (!read) return null;
  const items = read.rows.filter((row) => PENDING.has(row.state)).map(rescuedItem);
  if (items.length === 0 && read.complete) return { file: null, items, complete: true };
  const dir = dirname(path);
  const existing = sameRescue(dir, items, read.complete);
  if (existing) return { file: existing, items, complete: read.complete };
  let file = join(dir, `sync-queue-rescued-${fileTimeStamp(now)}.json`);
  for (let n = 2; existsSync(file); n++) file = join(dir, `sync-queue-rescued-${fileTimeStamp(now)}-${String(n).padStart(4, '0')}.json`);
  const document = {
    about: 'The changes design-sync had not yet sent to the service when it found its sync database damaged. ' +
      'Paths are relative to your sync folder. After the database is moved aside, sync compares your folder with the service again; ' +
      'check these against the service, and redo by hand what is missing (a design edit: its fields are in payload).',
    database: path,
    damage: reason,
    rescuedAt: now.toISOString(),
    complete: read.complete,
    items,
  };
  try {
    writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`, { flag: 'wx' });
  } catch (error) {
    engineLog.error('sync-state', `the rescued queue cannot be written to ${file}`, error);
    return { file: null, items, complete: false };
  }
  engineLog.warn('sync-state', `${items.length} queued change(s) of the damaged sync database rescued to ${file}${read.complete ? '' : ' (part of the queue could not be read)'}`);
  return { file, items, complete: read.complete };
}

/** Why whatever is at `path` is no sync database at all (a folder, an emptied file), or null. */
function notADatabaseFile(path: string): string | null {
  if (path === ':memory:' || !existsSync(path)) return null;
  const stat = statSync(path);
  if (!stat.isFile()) return `it is a ${stat.isDirectory() ? 'folder' : 'special file'}, not a database file`;
  // SQLite writes a new database's first page as soon as it is opened here (journal_mode = WAL): only damage
  // (or a crash in that very moment) leaves an empty file, and an empty queue and synced state must not be assumed.
  // (Opened, an empty file would also make SQLite delete its WAL, which may hold the queue.)
  if (stat.size === 0) return 'the file is empty (0 bytes)';
  // Not even SQLite's header: refused before SQLite opens it for writing, which could checkpoint or drop its WAL.
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  return header.equals(SQLITE_HEADER) ? null : 'file is not a database';
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

function damaged(path: string, reason: string, error?: unknown): SyncDatabaseDamagedError {
  engineLog.error('sync-state', `the sync database ${path} is damaged (${reason}); sync refuses to start on it`, error);
  return new SyncDatabaseDamagedError(path, reason, rescueQueue(path, reason));
}

/**
 * The sync state and the upload queue: a separate database from the cache, with synchronous=FULL,
 * because a commit lost to a power cut here is a change lost (sqlite.org: WAL + NORMAL may roll back
 * the last commits after a power loss; FULL makes each one durable).
 *
 * It is checked whole at every opening (SQLite's quick check: ~0.5 ms per 1,000 synced files), before anything is
 * written to it. A damaged one is refused with SyncDatabaseDamagedError, what its queue still holds written to a
 * rescue file first; it is never repaired or replaced here.
 */
export function openSyncDatabase(path: string): SyncDatabase {
  const notAFile = notADatabaseFile(path);
  if (notAFile) throw damaged(path, notAFile);
  let db: SyncDatabase | undefined;
  let problem: string | null = null;
  try {
    db = openSqlite(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    problem = integrityProblem(db);
    if (problem === null) migrateSync(db, path);
  } catch (error) {
    db?.close();
    if (isDamagedDatabaseError(error)) throw damaged(path, damageReason(error), error);
    throw error;
  }
  if (problem !== null) {
    db.close();
    throw damaged(path, problem);
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
