import { closeSync, openSync, readdirSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Writes garbage over whole pages of a SQLite file (closed, its WAL checkpointed), the way a failing disk or a stray
 * write leaves it: the pages of the b-trees `names` name (tables or indexes, as dbstat calls them), or every page
 * but the schema's when `names` is 'all-but-schema'. Returns the page numbers damaged.
 */
export function damagePages(path: string, names: string[] | 'all-but-schema', pick: (pages: number[]) => number[] = (pages) => pages): number[] {
  const db = new Database(path, { readonly: true });
  let pages: number[];
  let pageSize: number;
  try {
    pageSize = db.pragma('page_size', { simple: true }) as number;
    const rows = db.prepare('SELECT name, pageno FROM dbstat ORDER BY pageno').all() as { name: string; pageno: number }[];
    pages = rows.filter((row) => (names === 'all-but-schema' ? row.name !== 'sqlite_schema' : names.includes(row.name))).map((row) => row.pageno);
  } finally {
    db.close();
  }
  const chosen = pick(pages);
  if (chosen.length === 0) throw new Error(`no pages of ${String(names)} in ${path}`);
  const fd = openSync(path, 'r+');
  try {
    for (const page of chosen) writeSync(fd, Buffer.alloc(pageSize, 0xa7), 0, pageSize, (page - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
  return chosen;
}

/** The leaf pages of a table, in key order (the first and last are left whole by `middleLeaf`). */
export function leafPages(path: string, table: string): number[] {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare(`SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path`).all(table) as { pageno: number }[]).map((row) => row.pageno);
  } finally {
    db.close();
  }
}

/** The names in `dir` that start with `prefix`, sorted. */
export function namesStartingWith(dir: string, prefix: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith(prefix)).sort();
}
