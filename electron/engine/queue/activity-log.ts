import { statementsOf, type SyncDatabase } from '../sync-state/sync-database';

/** A line of the activity list: what the queue, the sync folder and the person's decisions did, in words. */
export interface ActivityEntry {
  id: number;
  at: number;
  level: ActivityLevel;
  message: string;
  path: string | null;
}

export type ActivityLevel = 'info' | 'warning' | 'error';

/**
 * The activity list (the `activity` table of the sync database), its one writer. Lines are only added, never changed;
 * whoever adds one tells its listeners (QueueStore emits 'activity').
 */
export class ActivityLog {
  private readonly sql: ReturnType<typeof statementsOf>;

  constructor(db: SyncDatabase, private readonly now: () => number = Date.now) {
    this.sql = statementsOf(db);
  }

  /** Adds a line (in the caller's transaction, when there is one) and returns it. */
  add(level: ActivityLevel, message: string, path: string | null = null): ActivityEntry {
    const at = this.now();
    const { lastInsertRowid } = this.sql('INSERT INTO activity (at, level, message, path) VALUES (?, ?, ?, ?)').run(at, level, message, path);
    return { id: Number(lastInsertRowid), at, level, message, path };
  }

  /** The newest lines, newest first. */
  recent(limit = 20): ActivityEntry[] {
    return this.sql('SELECT id, at, level, message, path FROM activity ORDER BY id DESC LIMIT ?').all(limit) as ActivityEntry[];
  }
}
