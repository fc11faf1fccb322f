import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Programs run from source (`design-sync`, `npm start`, the local service, tests' child processes) run from a bundle
 * of their modules that is kept until a file it was made from changes (electron/launcher/source-bundle.mjs).
 */

const REPO = join(import.meta.dirname, '../../..');
const RUN_SOURCE = join(REPO, 'electron/launcher/run-source.mjs');
const BUNDLES = join(REPO, 'node_modules/.cache/design-sync/bundles');
// Inside the checkout (bundles are made of its files), in its ignored tmp/ folder.
const dir = join(REPO, 'tmp', `source-bundle-${process.pid}-${Date.now()}`);
mkdirSync(dir, { recursive: true });

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const name of readdirSync(BUNDLES)) if (name.startsWith('program-with-a-part-')) rmSync(join(BUNDLES, name), { force: true });
});

const run = async (...args: string[]) => (await promisify(execFile)(process.execPath, [RUN_SOURCE, join(dir, 'program-with-a-part.ts'), ...args], { cwd: REPO })).stdout;

function writePart(value: number, at: Date): void {
  const part = join(dir, 'part.ts');
  writeFileSync(part, `export const value: number = ${value};\nexport const partFile = import.meta.filename;\n`);
  utimesSync(part, at, at);
}

describe('a program run from its source', () => {
  it('sees itself and its arguments as from source, finds files beside its modules, and runs a change to any of them', async () => {
    writeFileSync(join(dir, 'program-with-a-part.ts'), [
      "import { readFileSync } from 'node:fs';",
      "import { value, partFile } from './part.ts';",
      'const beside = readFileSync(new URL(\'./beside.txt\', import.meta.url), \'utf8\');',
      'console.log(JSON.stringify({ argv: process.argv.slice(1), value, partFile, file: import.meta.filename, dir: import.meta.dirname, beside }));',
    ].join('\n'));
    writeFileSync(join(dir, 'beside.txt'), 'found');
    writePart(1, new Date(Date.now() - 60_000));

    const first = JSON.parse(await run('one', '--two')) as Record<string, unknown>;
    expect(first).toEqual({
      argv: [join(dir, 'program-with-a-part.ts'), 'one', '--two'], value: 1, partFile: join(dir, 'part.ts'),
      file: join(dir, 'program-with-a-part.ts'), dir, beside: 'found',
    });
    const bundle = readdirSync(BUNDLES).find((name) => name.startsWith('program-with-a-part-') && name.endsWith('.mjs'))!;
    expect(bundle).toBeDefined();
    const madeAt = statSync(join(BUNDLES, bundle)).mtimeMs;

    // Run again unchanged: the kept bundle, not a new one.
    expect((JSON.parse(await run()) as { value: number }).value).toBe(1);
    expect(statSync(join(BUNDLES, bundle)).mtimeMs).toBe(madeAt);

    // A module it imports changed: made again, and the change runs.
    writePart(2, new Date());
    expect((JSON.parse(await run()) as { value: number }).value).toBe(2);
  });
});
