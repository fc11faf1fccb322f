import type { WritableDB } from './cache-database';

/**
 * How many WAL pages may pile up before a commit checkpoints them while a pull writes or the search index is filled
 * behind it (SQLite's default is 1000): checkpointing at every 1000 pages rewrote the same index pages again and
 * again, while never checkpointing let the WAL of a million-design pull reach 30 GB. 32,768 pages (128 MiB of 4 KiB
 * pages) keeps the WAL bounded and checkpoints rare.
 */
export const PULL_WAL_CHECKPOINT_PAGES = 32_768;

const holds = new WeakMap<WritableDB, { holders: number; saved: number }>();

/**
 * Checkpoints deferred to every PULL_WAL_CHECKPOINT_PAGES on this connection until the returned release is called
 * (once; again is nothing). Holds nest: a pull and the fill behind it may hold at once, and the connection's own
 * setting comes back with the last release. The WAL written meanwhile is checkpointed by the first commit after.
 */
export function holdCheckpoints(db: WritableDB): () => void {
  const hold = holds.get(db);
  if (hold) hold.holders++;
  else {
    holds.set(db, { holders: 1, saved: db.pragma('wal_autocheckpoint', { simple: true }) as number });
    db.pragma(`wal_autocheckpoint = ${PULL_WAL_CHECKPOINT_PAGES}`);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const held = holds.get(db);
    if (!held || --held.holders > 0) return;
    holds.delete(db);
    if (db.open) db.pragma(`wal_autocheckpoint = ${held.saved}`);
  };
}
