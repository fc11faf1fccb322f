import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One writer per table: the cache's designs and users, and a design's image and document lists, are written by the
 * designs store (electron/engine/cache/designs-store.ts) and, on its own path for speed, by the pull. Their SQL is in
 * a few statement modules, and nothing else in the product imports those.
 */

const ELECTRON = resolve('electron');
const at = (path: string) => relative(ELECTRON, path).split('\\').join('/');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const files = sourceFiles(ELECTRON).map((path) => ({ path: at(path), text: readFileSync(path, 'utf8') }));

/** Where SQL that writes these tables may be: the designs store's statements, and the pull's own path. */
const STATEMENTS = [
  'engine/cache/design-writes.ts', // designs and users (the store's, and the pull's bulk writer's pages)
  'engine/cache/child-writes.ts', // a design's images and documents
  'engine/cache/local-design-edit.ts', // an edit waiting in the queue, shown at once
];
const PULL_STATEMENTS = [
  'engine/cache/pull-removals.ts', // what a pull no longer finds: released or removed
];

/** Who may import the statements: the store, the pull, and the statements themselves. */
const WRITERS = new Set([
  'engine/cache/designs-store.ts',
  'engine/cache/child-lists.ts',
  'engine/cache/pull-images.ts',
  'engine/cache/pull-own-designs.ts',
  'engine/cache/pull-removals.ts',
  'engine/cache/pull-walk.ts',
  'engine/cache/pull-writer.ts',
  ...STATEMENTS,
  // Keeping a design offline brings its image and document lists itself (refreshDesignFiles), and tells what it
  // changed through its own 'changed' event: the one writer of them outside the store and the pull.
  'engine/keep-offline/keep-offline.ts',
]);

const TABLES = 'designs|users|images|documents';
const NAMED_WRITE = new RegExp(String.raw`\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:${TABLES})\b`);
/** A write to a table whose name is put in at run time (`INSERT INTO ${table}`). */
const TEMPLATED_WRITE = /\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM)\s+\$\{/;

function importsOf(file: { path: string; text: string }): string[] {
  return [...file.text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
    .map((match) => at(resolve(join(ELECTRON, dirname(file.path)), match[1]!)).replace(/(\.ts)?$/, '.ts'));
}

describe('the designs and users of the cache have one writer', () => {
  it('only the designs store\'s statements and the pull\'s hold SQL that writes designs, users, images or documents', () => {
    const writing = files.filter((file) => NAMED_WRITE.test(file.text)).map((file) => file.path).sort();
    expect(writing).toEqual([...STATEMENTS, ...PULL_STATEMENTS].sort());
  });

  it('a table named at run time is written only by a design\'s lists and the search terms\' scratch table', () => {
    const writing = files.filter((file) => TEMPLATED_WRITE.test(file.text)).map((file) => file.path).sort();
    expect(writing).toEqual(['engine/cache/child-writes.ts', 'engine/cache/search-terms.ts']);
  });

  it('nothing but the designs store and the pull imports those statements (the front ends, the services and the contract go through the store)', () => {
    const statements = new Set([...STATEMENTS, 'engine/cache/child-lists.ts']);
    const strays = files.flatMap((file) =>
      importsOf(file).filter((target) => statements.has(target) && !WRITERS.has(file.path)).map((target) => `${file.path} imports ${target}`));
    expect(strays).toEqual([]);
  });

  it('the check finds what it looks for (a write, and an import, put where they must not be)', () => {
    expect(NAMED_WRITE.test("prepared(db, 'UPDATE designs SET name = ? WHERE id = ?')")).toBe(true);
    expect(NAMED_WRITE.test('INSERT INTO users (id, screen_name) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET screen_name = excluded.screen_name')).toBe(true);
    expect(NAMED_WRITE.test("prepared(db, 'DELETE FROM designs_fts WHERE rowid = ?')")).toBe(false);
    expect(NAMED_WRITE.test("prepared(db, 'SELECT id FROM designs WHERE user_id = ?')")).toBe(false);
    expect(importsOf({ path: 'engine/contract/handlers/design.ts', text: "import { upsertDesign } from '../../cache/design-writes';" }))
      .toEqual(['engine/cache/design-writes.ts']);
  });
});

describe('the contract\'s handlers are thin', () => {
  it('no handler imports a module of the cache: the services read it (a design\'s page is assembled by the library)', () => {
    const handlers = files.filter((file) => file.path.startsWith('engine/contract/handlers/'));
    expect(handlers.length).toBeGreaterThan(10);
    const reads = handlers.flatMap((file) => importsOf(file).filter((target) => target.startsWith('engine/cache/')).map((target) => `${file.path} imports ${target}`));
    expect(reads).toEqual([]);
  });
});
