import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Whether this code runs from its TypeScript source (tsx, vitest) rather than from the shell's bundle. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

/**
 * A worker thread's entry, for `new Worker(entry, { eval })`: in the Electron shell, the bundle's sibling file
 * `bundledName` (build/build-shell.mjs writes each worker beside the engine's bundle); elsewhere a bundle of its
 * TypeScript `source` that the worker makes or finds kept (electron/launcher/source-bundle.mjs), or, should that fail,
 * the source itself through tsx (a worker does not inherit the TypeScript loader, so it registers tsx itself first).
 */
export function workerEntry(source: URL, bundledName: string): { entry: string | URL; eval: boolean } {
  if (!FROM_SOURCE) return { entry: new URL(`./${bundledName}`, import.meta.url), eval: false };
  const bundler = JSON.stringify(new URL('../../launcher/source-bundle.mjs', import.meta.url).href);
  const tsx = JSON.stringify(tsxRegisterUrl());
  const sourceHref = JSON.stringify(source.href);
  // Only a failure to make or find the bundle falls back to tsx: a worker whose bundle failed as it ran is not run twice.
  return {
    entry: `import(${bundler}).then((bundler) => bundler.bundledSource(${sourceHref})).then(
      (bundle) => import(bundle),
      () => import(${tsx}).then((tsx) => { tsx.register(); return import(${sourceHref}); }),
    );`,
    eval: true,
  };
}

/** tsx's ESM API, as its package exports it to `import` (the path is absolute: a worker may run in any folder). */
function tsxRegisterUrl(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(manifestPath), manifest.exports['./esm/api']!.import.default)).href;
}
