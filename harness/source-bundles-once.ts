import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const REPO = join(import.meta.dirname, '..');

/**
 * The test run's global setup: the bundles the command line and the local service run from (kept until a file
 * changes, electron/launcher/source-bundle.mjs) made once before the test files start, instead of by the first dozen
 * child processes at the same time. Each process still makes one itself should it be missing or stale.
 */
export default async function makeSourceBundles(): Promise<void> {
  const { bundledSource } = await import(pathToFileURL(join(REPO, 'electron/launcher/source-bundle.mjs')).href) as { bundledSource(source: string): Promise<string> };
  await Promise.all(['electron/cli/main.ts', 'service/cli.ts'].map((source) => bundledSource(pathToFileURL(join(REPO, source)).href)));
}
