// @ts-check
/**
 * A worker thread's bundle, made from its TypeScript source when the engine runs from source (tsx, vitest): loaded
 * through tsx, a worker's modules took about 1 s of CPU to start (each one resolved and transpiled through tsx's
 * loader thread), against 0.16 s for one file (0.31 s the first time, while the file is made). The bundle is kept in
 * node_modules/.cache and made again only when a file it was made from changed. Plain JavaScript: it runs in the
 * worker before any TypeScript can be loaded.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'design-sync', 'workers');

/** Node's own modules and better-sqlite3 (the build the engine loaded, given to the worker) stay outside the bundle. */
const EXTERNAL = ['better-sqlite3'];
// CommonJS dependencies bundled into ESM still call require() for Node's own modules (as build/build-shell.mjs does).
const BANNER = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/** @param {string} path */
const stamp = (path) => {
  const stats = statSync(path);
  return `${stats.size}:${stats.mtimeMs}`;
};

/**
 * Whether the bundle recorded in `inputsFile` was made from the files as they are now.
 * @param {string} inputsFile
 */
function upToDate(inputsFile) {
  try {
    /** @type {Record<string, string>} */
    const inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
    return Object.entries(inputs).every(([path, recorded]) => stamp(join(ROOT, path)) === recorded);
  } catch {
    return false;
  }
}

/**
 * Written beside, then renamed into place: another process making the same bundle never reads half of one.
 * @param {string} path
 * @param {string} text
 */
function writeWhole(path, text) {
  const partial = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, path);
}

/**
 * The file URL of a bundle of the worker whose source is `sourceUrl`, made now unless one made from the same files is
 * kept.
 * @param {string} sourceUrl
 * @returns {Promise<string>}
 */
export async function bundledWorker(sourceUrl) {
  const source = fileURLToPath(sourceUrl);
  const name = `${basename(source, '.ts')}-${createHash('sha1').update(source).digest('hex').slice(0, 10)}`;
  const bundleFile = join(CACHE, `${name}.mjs`);
  const inputsFile = join(CACHE, `${name}.inputs.json`);
  if (upToDate(inputsFile)) return pathToFileURL(bundleFile).href;

  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [source], absWorkingDir: ROOT, bundle: true, platform: 'node', format: 'esm', target: 'node20', write: false,
    metafile: true, external: EXTERNAL, banner: { js: BANNER }, logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild made no bundle of ${source}`);
  /** @type {Record<string, string>} */
  const inputs = {};
  for (const path of Object.keys(result.metafile.inputs)) inputs[path] = stamp(join(ROOT, path));
  mkdirSync(CACHE, { recursive: true });
  writeWhole(bundleFile, output.text);
  writeWhole(inputsFile, JSON.stringify(inputs));
  return pathToFileURL(bundleFile).href;
}
