import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type Database from 'better-sqlite3';

/** The files SQLite keeps beside a database in WAL mode: they belong to it, and go wherever it goes. */
export const SIDE_FILES = ['-wal', '-shm'] as const;

/**
 * Whether an error says the database file itself is damaged: SQLITE_CORRUPT (and its extended codes: "database disk
 * image is malformed") or SQLITE_NOTADB ("file is not a database"). Not a locked, full or read-only database.
 */
export function isDamagedDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}

/**
 * A damage error's words, for a message a person reads: SQLite's own for the kind of damage ("database disk image is
 * malformed", "file is not a database"), and what failed when SQLite said more ("… — vtable constructor failed: …").
 */
export function damageReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const general = typeof code !== 'string' ? null : code.startsWith('SQLITE_NOTADB') ? 'file is not a database' : code.startsWith('SQLITE_CORRUPT') ? 'database disk image is malformed' : null;
  return general === null || message === general ? message : `${general} — ${message}`;
}

/**
 * What SQLite's quick check finds wrong with an open database (its first finding), or null when it finds nothing.
 * A page too damaged to be checked makes the check itself fail with SQLITE_CORRUPT: that is returned too. It reads
 * every page, so it is for databases of a bounded size (the sync database) or for after a damage error.
 */
export function integrityProblem(db: Database.Database): string | null {
  try {
    const rows = db.pragma('quick_check(1)') as { quick_check: string }[];
    const found = rows.map((row) => row.quick_check).filter((text) => text !== 'ok');
    if (found.length === 0) return null;
    const detail = found.join('; ').replace(/\*\*\* in database \w+ \*\*\*/g, '').replace(/\s*\n\s*/g, ' ').trim();
    return `database disk image is malformed — SQLite's check found: ${detail}`;
  } catch (error) {
    if (isDamagedDatabaseError(error)) return damageReason(error);
    throw error;
  }
}

/** A time as a file name part that sorts as the time does: 2026-01-02T09-30-00.123Z. */
export function fileTimeStamp(at: Date): string {
  return at.toISOString().replace(/:/g, '-');
}

/** The copies set aside of `path`, oldest first (their names sort by time). */
export function setAsideCopies(path: string): string[] {
  const prefix = `${basename(path)}.corrupt-`;
  const suffixes: readonly string[] = SIDE_FILES;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((name) => name.startsWith(prefix) && !suffixes.some((suffix) => name.endsWith(suffix)))
    .sort()
    .map((name) => join(dirname(path), name));
}

/**
 * Moves a damaged database out of the way, with its WAL and shared-memory files (a WAL left beside a fresh database
 * would be replayed into it): `<path>.corrupt-<time>` (a file or a folder, whatever was at `path`). Only the newest
 * `keep` copies are kept. Returns where it went. The database must be closed.
 */
export function setAsideDamaged(path: string, options: { keep?: number; now?: Date } = {}): string {
  const base = `${path}.corrupt-${fileTimeStamp(options.now ?? new Date())}`;
  // A name that sorts after every copy already there (the oldest are the ones dropped), even within one millisecond.
  const newest = setAsideCopies(path).pop();
  let target = base;
  for (let n = 2; existsSync(target) || (newest !== undefined && newest >= target); n++) target = `${base}-${String(n).padStart(4, '0')}`;
  renameSync(path, target);
  for (const suffix of SIDE_FILES) {
    if (existsSync(`${path}${suffix}`)) renameSync(`${path}${suffix}`, `${target}${suffix}`);
  }
  const copies = setAsideCopies(path);
  for (const old of copies.slice(0, Math.max(0, copies.length - Math.max(1, options.keep ?? 2)))) {
    rmSync(old, { recursive: true, force: true });
    for (const suffix of SIDE_FILES) rmSync(`${old}${suffix}`, { force: true });
  }
  return target;
}
