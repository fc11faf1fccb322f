import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { workerEntry } from '../../../electron/engine/sqlite/worker-entry';

const dir = mkdtempSync(join(tmpdir(), 'worker-entry-'));
const BUNDLES = join(import.meta.dirname, '../../../node_modules/.cache/design-sync/bundles');
const bundles = () => readdirSync(BUNDLES).filter((name) => /^greeter-worker-[0-9a-f]+\.mjs$/.test(name));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const name of readdirSync(BUNDLES)) if (name.startsWith('greeter-worker-')) rmSync(join(BUNDLES, name), { force: true });
});

/** A worker of two TypeScript modules: it posts what the second one says, and where it sees itself (its source). */
const source = join(dir, 'greeter-worker.ts');
writeFileSync(source, `import { parentPort } from 'node:worker_threads';
import { greeting } from './greeting.ts';
const message: { greeting: string; from: string } = { greeting, from: import.meta.url };
parentPort!.postMessage(message);
`);
const setGreeting = (text: string) => writeFileSync(join(dir, 'greeting.ts'), `export const greeting: string = ${JSON.stringify(text)};\n`);

async function startGreeter(): Promise<{ greeting: string; from: string }> {
  const { entry, eval: isEval } = workerEntry(pathToFileURL(source), 'greeter-worker.mjs');
  const worker = new Worker(entry, { eval: isEval });
  try {
    return await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

describe('a worker thread started from source', () => {
  it('runs from one bundle of its modules, kept between starts and made again when one of its files changed', async () => {
    const before = bundles();
    setGreeting('hello');
    const first = await startGreeter();
    expect(first).toEqual({ greeting: 'hello', from: pathToFileURL(source).href });
    const [made] = bundles().filter((name) => !before.includes(name));
    expect(made).toBeDefined();
    const madeAt = statSync(join(BUNDLES, made!)).mtimeMs;

    expect(await startGreeter()).toEqual(first);
    expect(statSync(join(BUNDLES, made!)).mtimeMs).toBe(madeAt);

    setGreeting('hello again, and longer');
    expect(await startGreeter()).toEqual({ greeting: 'hello again, and longer', from: first.from });
    expect(bundles().filter((name) => !before.includes(name))).toEqual([made]);
    expect(statSync(join(BUNDLES, made!)).mtimeMs).not.toBe(madeAt);
  });
});
