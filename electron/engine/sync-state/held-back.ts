import { EventEmitter } from 'node:events';
import type { Statement } from 'better-sqlite3';
import type { HoldReasonView as HoldReason } from '../../../shared';
import { statementsOf, type SyncDatabase } from './sync-database';

/** A file or folder of the sync folder a scan held back, and why. Paths are relative to the sync root, with '/'. */
export interface HeldBackEntry {
  /** Ends with '/' for a folder. */
  path: string;
  /** The top-level folder it is in (its design's folder), or the folder itself. */
  folder: string;
  isFolder: boolean;
  reason: HoldReason;
  /** A synced file that became ignored: it stays on the service, no longer kept in step. */
  onService: boolean;
  size: number | null;
}

/** What was held back for one reason: "3 Blender backups not sent". */
export interface HeldBackGroup {
  key: string;
  reason: HoldReason;
  count: number;
  /** How many of them are on the service already (synced before they became ignored). */
  onService: number;
  /** A few of their paths, sorted. */
  examples: string[];
}

interface HeldRow { path: string; folder: string; is_folder: number; rule_key: string; reason: string; on_service: number; size: number | null }

const toEntry = (row: HeldRow): HeldBackEntry => ({
  path: row.path, folder: row.folder, isFolder: row.is_folder === 1, reason: JSON.parse(row.reason) as HoldReason, onService: row.on_service === 1, size: row.size,
});

const EXAMPLES = 3;

/**
 * What the scans held back (table held_back): its one writer is the scan, which replaces what it found for the folders
 * it looked at. Emits 'change' when what is held back changed, so that whoever shows it (the sync view, the status)
 * reads it again.
 */
export class HeldBack extends EventEmitter<{ change: [] }> {
  private readonly sql: (text: string) => Statement;

  constructor(private readonly db: SyncDatabase, private readonly now: () => number = Date.now) {
    super();
    this.sql = statementsOf(db);
  }

  /**
   * What a scan found held back in `folders` (every folder when 'all'): the rows it found replace those of these
   * folders. Call inside the scan's transaction.
   */
  replace(folders: readonly string[] | 'all', entries: readonly HeldBackEntry[], keyOf: (reason: HoldReason) => string): void {
    const before = this.signature(folders);
    if (folders === 'all') this.sql('DELETE FROM held_back').run();
    else for (const folder of folders) this.sql('DELETE FROM held_back WHERE folder = ?').run(folder);
    const insert = this.sql('INSERT OR REPLACE INTO held_back (path, folder, is_folder, rule_key, reason, on_service, size, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const at = this.now();
    for (const entry of entries) {
      insert.run(entry.path, entry.folder, entry.isFolder ? 1 : 0, keyOf(entry.reason), JSON.stringify(entry.reason), entry.onService ? 1 : 0, entry.size, at);
    }
    if (this.signature(folders) !== before) this.emit('change');
  }

  /** Grouped by reason, the largest group first. */
  groups(): HeldBackGroup[] {
    const rows = this.sql('SELECT rule_key, min(reason) AS reason, count(*) AS n, sum(on_service) AS on_service FROM held_back GROUP BY rule_key ORDER BY n DESC, rule_key')
      .all() as { rule_key: string; reason: string; n: number; on_service: number }[];
    const examples = this.sql('SELECT path FROM held_back WHERE rule_key = ? ORDER BY path LIMIT ?');
    return rows.map((row) => ({
      key: row.rule_key, reason: JSON.parse(row.reason) as HoldReason, count: row.n, onService: row.on_service,
      examples: (examples.all(row.rule_key, EXAMPLES) as { path: string }[]).map((example) => example.path),
    }));
  }

  /** Everything held back, by path (at most `limit`). */
  list(limit = 1000): HeldBackEntry[] {
    return (this.sql('SELECT * FROM held_back ORDER BY path LIMIT ?').all(limit) as HeldRow[]).map(toEntry);
  }

  get(path: string): HeldBackEntry | null {
    const row = this.sql('SELECT * FROM held_back WHERE path = ?').get(path) as HeldRow | undefined;
    return row ? toEntry(row) : null;
  }

  count(): number {
    return (this.sql('SELECT count(*) AS n FROM held_back').get() as { n: number }).n;
  }

  /** The rows of these folders as a string, to tell whether a scan changed them. */
  private signature(folders: readonly string[] | 'all'): string {
    const rows = folders === 'all'
      ? this.sql('SELECT path, rule_key, on_service FROM held_back ORDER BY path').all()
      : folders.flatMap((folder) => this.sql('SELECT path, rule_key, on_service FROM held_back WHERE folder = ? ORDER BY path').all(folder));
    return JSON.stringify(rows);
  }
}
