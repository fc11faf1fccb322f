import { open, type FileHandle } from 'node:fs/promises';
import { engineLog } from '../log/engine-log';
import type { SyncDatabase } from './sync-database';

/**
 * Runs `write` as a commit that is not flushed to the disk by itself (synchronous=NORMAL for this one commit; the sync
 * database is otherwise synchronous=FULL or EXTRA). In WAL mode such a commit survives a crash of the process as any other;
 * the next FULL commit flushes it along with itself. Only a power loss before then can lose it, and then it goes
 * with every commit after it, never alone (the WAL is replayed in order up to its first incomplete frame). For writes
 * whose loss in a power cut is harmless, or made durable by a FULL commit before anything acts on them.
 * Inside a transaction `write` simply joins it.
 */
export function commitLightly<T>(db: SyncDatabase, write: () => T): T {
  if (db.inTransaction || db.memory) return write();
  const level = db.pragma('synchronous', { simple: true }) as number;
  if (level < 2) return write();
  db.pragma('synchronous = NORMAL');
  try {
    return write();
  } finally {
    db.pragma(`synchronous = ${level}`);
  }
}

/**
 * Runs `write` as a light commit, then makes it durable without holding the thread: the WAL file, where a commit in
 * WAL mode lands, is flushed to the disk (fdatasync) on libuv's thread pool. Resolves once it is, with every commit
 * before it: as durable as a synchronous=FULL commit, whose fsync of the same file held the engine's thread (and every
 * upload it feeds) for 3 to 15 ms while the service wrote what it was sent.
 * A commit checkpointed meanwhile is durable already (SQLite flushes the WAL before a checkpoint, and the database
 * after it). Inside a transaction (nothing committed yet) or in memory, `write` simply runs.
 */
export async function commitThenFlush<T>(db: SyncDatabase, write: () => T, options: { onFlushed?: (walPath: string) => void } = {}): Promise<T> {
  if (db.inTransaction || db.memory) return write();
  const result = commitLightly(db, write);
  const walPath = `${db.name}-wal`;
  if (await flushWal(db, walPath)) options.onFlushed?.(walPath);
  return result;
}

/** False when the WAL could not be opened (then the commits were checkpointed instead). */
async function flushWal(db: SyncDatabase, walPath: string): Promise<boolean> {
  let wal: FileHandle | null = null;
  try {
    wal = await open(walPath, 'r+');
  } catch (error) {
    // There is always a WAL after a commit while the database is open; without it, a checkpoint flushes the commits
    // (synchronous=FULL: the WAL before it, the database after it).
    engineLog.warn('sync-state', 'the sync database\'s WAL could not be opened to flush it; checkpointed instead', error);
    if (db.open) db.pragma('wal_checkpoint(PASSIVE)');
    return false;
  }
  try {
    await wal.datasync();
    return true;
  } finally {
    await wal.close();
  }
}
