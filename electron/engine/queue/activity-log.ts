import type { EngineWords } from '../../../shared/i18n/engine-words';
import { statementsOf, type SyncDatabase } from '../sync-state/sync-database';
import { storedWords, wordsColumn, type Said } from './said';

/** A line of the activity list: what the queue, the sync folder and the person's decisions did, in words. */
export interface ActivityEntry {
  id: number;
  at: number;
  level: ActivityLevel;
  /** In English: for the log, `--json`, and lines written before their facts were kept. */
  message: string;
  /** Its facts, which a front end words in the person's language; null for a line with none (shown as `message`). */
  words: EngineWords | null;
  path: string | null;
}

export type ActivityLevel = 'info' | 'warning' | 'error';

interface ActivityRow extends Omit<ActivityEntry, 'words'> {
  words: string | null;
}

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
  add(level: ActivityLevel, line: Said, path: string | null = null): ActivityEntry {
    const at = this.now();
    const { lastInsertRowid } = this.sql('INSERT INTO activity (at, level, message, words, path) VALUES (?, ?, ?, ?, ?)').run(at, level, line.text, wordsColumn(line), path);
    return { id: Number(lastInsertRowid), at, level, message: line.text, words: line.words, path };
  }

  /** The newest lines, newest first. */
  recent(limit = 20): ActivityEntry[] {
    const rows = this.sql('SELECT id, at, level, message, words, path FROM activity ORDER BY id DESC LIMIT ?').all(limit) as ActivityRow[];
    return rows.map((row) => ({ ...row, words: storedWords(row.words, `activity line ${row.id}`) }));
  }
}
