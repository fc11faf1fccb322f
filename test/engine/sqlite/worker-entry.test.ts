import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { workerEntry } from '../../../electron/engine/sqlite/worker-entry';

const dir = mkdtempSync(join(tmpdir(), 'worker-entry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A worker of two TypeScript modules: it posts what the second one says, and where it runs from. */
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
    setGreeting('hello');
    const first = await startGreeter();
    expect(first.greeting).toBe('hello');
    expect(first.from).toMatch(/\/node_modules\/\.cache\/design-sync\/workers\/greeter-worker-[0-9a-f]+\.mjs$/);
    const bundle = new URL(first.from);
    const madeAt = statSync(bundle).mtimeMs;

    expect(await startGreeter()).toEqual(first);
    expect(statSync(bundle).mtimeMs).toBe(madeAt);

    setGreeting('hello again, and longer');
    expect(await startGreeter()).toEqual({ greeting: 'hello again, and longer', from: first.from });
    rmSync(bundle);
    rmSync(new URL(bundle.href.replace(/\.mjs$/, '.inputs.json')));
  });
});
