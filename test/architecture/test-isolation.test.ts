import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED_FILES, ISOLATED_FOLDERS } from '../run/isolation';

const ROOT = join(import.meta.dirname, '../..');

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

describe('which test files run in a fresh process', () => {
  const files = testFiles(join(ROOT, 'test'));
  const isolated = (file: string) => ISOLATED_FOLDERS.some((folder) => file.startsWith(folder)) || ISOLATED_FILES.includes(file);

  it('every file that replaces a module with vi.mock runs in a process of its own, not among files sharing modules', () => {
    const mocking = files.filter((file) => /\bvi\.(?:mock|doMock)\(/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(mocking.length).toBeGreaterThan(0);
    expect(mocking.filter((file) => !isolated(file))).toEqual([]);
  });

  it('names only files that exist', () => {
    expect(ISOLATED_FILES.filter((file) => !files.includes(file))).toEqual([]);
  });
});
