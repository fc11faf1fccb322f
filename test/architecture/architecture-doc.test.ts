import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md is a reference for the code as it is: what it names must be there. These checks hold what can
 * be checked mechanically — every engine folder in its list of layers, every source file it names.
 */
const ROOT = process.cwd();
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'out', 'release', 'coverage']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : [relative(ROOT, path)];
  });
}

/**
 * The files a text names in backticks (`runtime/engine.ts`, `main.tsx`) that no file of the repository ends with. A
 * worker bundle (`…-worker.mjs`) is there when its source is; built outputs (`dist/…`) and placeholders (`<time>`) are
 * not looked for.
 */
function namedFilesMissing(text: string, files: readonly string[]): string[] {
  const named = new Set([...text.matchAll(/`([\w./-]+\.(?:ts|tsx|mjs|cjs))`/g)].map((match) => match[1]!));
  const exists = (name: string) => files.some((file) => file === name || file.endsWith(`/${name}`));
  return [...named].filter((name) => {
    if (name.startsWith('dist/')) return false;
    const source = /-worker\.mjs$/.test(name) ? name.replace(/\.mjs$/, '.ts') : name;
    return !exists(source);
  });
}

describe('docs/architecture.md', () => {
  const files = sourceFiles(ROOT);

  it('names every folder of the engine in its list of layers', () => {
    const layers = DOC.split('\n').find((line) => line.startsWith('`log` (the engine log'));
    expect(layers, 'the paragraph listing the engine\'s inner layers').toBeDefined();
    const folders = readdirSync(join(ROOT, 'electron/engine'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.filter((folder) => !layers!.includes(`\`${folder}\``))).toEqual([]);
  });

  it('names only source files that exist', () => {
    expect(namedFilesMissing(DOC, files)).toEqual([]);
  });

  it('finds a named file that does not exist (the check itself works)', () => {
    expect(namedFilesMissing('`runtime/open-engine.ts` and `runtime/no-such-file.ts`, `checkpoint-thread-worker.mjs`', files)).toEqual(['runtime/no-such-file.ts']);
  });
});
