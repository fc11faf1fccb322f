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
