import { parseEngineWords, type EngineWords } from '../../../shared/i18n/engine-words';
import type { ReadableDB, WritableDB } from '../cache/cache-database';
import { engineLog } from '../log/engine-log';
import { prepared } from '../cache/prepared';
import type { KeptFile } from './kept-files-plan';

/** A design kept offline as the cache records it. */
export interface KeptDesignRow {
  designId: number;
  keptAt: number;
  /** The design's `updated_at` when its file list was last read whole (null: not yet). */
  filesVersion: string | null;
  checkedAt: number | null;
  /** What stopped the last attempt, in English (null: nothing). */
  problem: string | null;
  /** Its facts, which a front end words in the person's language (null: none, `problem` is said as it is). */
  problemWords: EngineWords | null;
}

interface Row { design_id: number; kept_at: number; files_version: string | null; checked_at: number | null; problem: string | null; problem_words: string | null }
const toRow = (row: Row): KeptDesignRow => ({
  designId: row.design_id, keptAt: row.kept_at, filesVersion: row.files_version, checkedAt: row.checked_at, problem: row.problem,
  problemWords: parseEngineWords(row.problem_words, (why) => engineLog.warn('keep-offline', `design ${row.design_id}: its problem's stored words cannot be read, its English is shown`, why)),
});

export function keptDesigns(db: ReadableDB): KeptDesignRow[] {
  return (prepared(db, 'SELECT * FROM kept_designs ORDER BY kept_at, design_id').all() as Row[]).map(toRow);
}

export function keptDesign(db: ReadableDB, designId: number): KeptDesignRow | null {
  const row = prepared(db, 'SELECT * FROM kept_designs WHERE design_id = ?').get(designId) as Row | undefined;
  return row ? toRow(row) : null;
}

/** The files a kept design was last found to need, with their size on disk when the file cache holds them. */
export function keptFilesHere(db: ReadableDB, designId: number): { file: KeptFile; size: number | null; current: boolean }[] {
  const rows = prepared(db, `SELECT k.url, k.version, k.kind, k.name, f.size, f.version AS held
    FROM kept_files k LEFT JOIN file_index f ON f.url = k.url WHERE k.design_id = ? ORDER BY k.kind DESC, k.rowid`).all(designId) as
    { url: string; version: string | null; kind: 'image' | 'document'; name: string; size: number | null; held: string | null }[];
  return rows.map((row) => ({
    file: { url: row.url, version: row.version, kind: row.kind, name: row.name },
    size: row.size,
    current: row.size !== null && row.held === row.version,
  }));
}

/** Whether a design kept offline needs the file at this address. */
export function isKeptFile(db: ReadableDB, url: string): boolean {
  return prepared(db, 'SELECT 1 FROM kept_files WHERE url = ?').get(url) !== undefined;
}

/** The ones of these designs that are kept. */
export function keptAmong(db: ReadableDB, ids: readonly number[]): Set<number> {
  if (ids.length === 0) return new Set();
  const rows = prepared(db, 'SELECT design_id FROM kept_designs WHERE design_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as { design_id: number }[];
  return new Set(rows.map((row) => row.design_id));
}

/**
 * The writes of `kept_designs` and `kept_files`: only KeepOffline (keep-offline.ts) calls these, each in one
 * transaction so a crash leaves the record whole.
 */
export const keptWrites = {
  keep(db: WritableDB, ids: readonly number[], now: number): number[] {
    const added: number[] = [];
    db.transaction(() => {
      for (const id of ids) {
        if (prepared(db, 'INSERT INTO kept_designs (design_id, kept_at) VALUES (?, ?) ON CONFLICT (design_id) DO NOTHING').run(id, now).changes > 0) added.push(id);
      }
    })();
    return added;
  },

  release(db: WritableDB, ids: readonly number[]): number[] {
    const removed: number[] = [];
    db.transaction(() => {
      for (const id of ids) {
        prepared(db, 'DELETE FROM kept_files WHERE design_id = ?').run(id);
        if (prepared(db, 'DELETE FROM kept_designs WHERE design_id = ?').run(id).changes > 0) removed.push(id);
      }
    })();
    return removed;
  },

  /** The files the design needs now (those it no longer lists are no longer held back from eviction). */
  setFiles(db: WritableDB, designId: number, files: readonly KeptFile[]): void {
    db.transaction(() => {
      if (!prepared(db, 'SELECT 1 FROM kept_designs WHERE design_id = ?').get(designId)) return;
      prepared(db, 'DELETE FROM kept_files WHERE design_id = ?').run(designId);
      const insert = prepared(db, 'INSERT OR IGNORE INTO kept_files (design_id, url, version, kind, name) VALUES (?, ?, ?, ?, ?)');
      for (const file of files) insert.run(designId, file.url, file.version, file.kind, file.name);
    })();
  },

  /** A check's outcome: `problem` in English, `problemWords` its facts (none when absent). */
  checked(db: WritableDB, designId: number, outcome: { filesVersion?: string | null; checkedAt: number; problem: string | null; problemWords?: EngineWords | null }): void {
    const words = outcome.problem !== null && outcome.problemWords ? JSON.stringify(outcome.problemWords) : null;
    if (outcome.filesVersion !== undefined) {
      prepared(db, 'UPDATE kept_designs SET files_version = ?, checked_at = ?, problem = ?, problem_words = ? WHERE design_id = ?')
        .run(outcome.filesVersion, outcome.checkedAt, outcome.problem, words, designId);
    } else {
      prepared(db, 'UPDATE kept_designs SET checked_at = ?, problem = ?, problem_words = ? WHERE design_id = ?').run(outcome.checkedAt, outcome.problem, words, designId);
    }
  },
};
