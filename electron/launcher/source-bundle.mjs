// @ts-check
/**
 * Running the TypeScript source without a build step, fast: a program's modules (the command line, a worker thread of
 * the cache) bundled by esbuild into one file, kept in node_modules/.cache/design-sync/bundles and made again only
 * when a file it was made from changed. Through tsx's loader every module is resolved and transpiled on its own: the
 * command line took about 1.5 s of CPU to start that way, against about 0.3 s from its bundle (workers: about 1 s
 * against 0.15–0.3 s). Should a bundle fail to be made, the source runs through tsx as before.
 *
 * The bundle behaves as its source does: `import.meta.url`, `import.meta.dirname` and `import.meta.filename` in the
 * project's own files are written in as their source file's, so a module that finds files beside itself (the window's
 * build, package.json, a worker's source) finds them as from source. Plain JavaScript: it runs before any TypeScript
 * can be loaded.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * Packages loaded from node_modules as they are, not bundled: native modules (better-sqlite3: a worker gets the build
 * the engine loaded; sharp), what only Electron has, http-proxy-agent's optional Negotiate support (kerberos, not
 * shipped), and the tools that find files of their own (Chromium's driver, the bundler, tsx). Bundling the other
 * packages too saves about 0.15 s of CPU at each start of the command line.
 */
const EXTERNAL = ['better-sqlite3', 'sharp', 'electron', 'kerberos', 'fsevents', 'playwright-core', 'esbuild', 'tsx', 'vitest'];
const THIS_FILE = fileURLToPath(import.meta.url);
const CACHE = join(ROOT, 'node_modules', '.cache', 'design-sync', 'bundles');

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
 * @param {string | Uint8Array} text
 */
function writeWhole(path, text) {
  const partial = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, path);
}

/** Writes each of the project's own modules' `import.meta` facts in as its source file's. */
const importMetaAsSource = {
  name: 'import-meta-as-source',
  /** @param {import('esbuild').PluginBuild} build */
  setup(build) {
    build.onLoad({ filter: /\.(ts|tsx|mts|js|mjs)$/ }, (args) => {
      if (args.path.split(sep).includes('node_modules')) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta')) return undefined;
      const contents = text
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      const extension = args.path.slice(args.path.lastIndexOf('.') + 1);
      return { contents, loader: /** @type {'ts' | 'tsx' | 'js'} */ (extension === 'tsx' ? 'tsx' : extension.endsWith('ts') ? 'ts' : 'js') };
    });
  },
};

/**
 * The file URL of a bundle of the program whose entry is `sourceUrl`, made now unless one made from the same files is
 * kept.
 * @param {string} sourceUrl
 * @returns {Promise<string>}
 */
export async function bundledSource(sourceUrl) {
  const source = fileURLToPath(sourceUrl);
  const name = `${basename(source).replace(/\.[^.]+$/, '')}-${createHash('sha1').update(source).digest('hex').slice(0, 10)}`;
  const bundleFile = join(CACHE, `${name}.mjs`);
  const inputsFile = join(CACHE, `${name}.inputs.json`);
  if (upToDate(inputsFile)) return pathToFileURL(bundleFile).href;

  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [source], absWorkingDir: ROOT, bundle: true, platform: 'node', format: 'esm', target: 'node20', write: false,
    outfile: bundleFile, sourcemap: 'linked', metafile: true, external: EXTERNAL, banner: { js: BANNER }, logLevel: 'silent',
    plugins: [importMetaAsSource],
  });
  const code = result.outputFiles.find((file) => file.path.endsWith('.mjs'));
  const map = result.outputFiles.find((file) => file.path.endsWith('.map'));
  if (!code) throw new Error(`esbuild made no bundle of ${source}`);
  /** @type {Record<string, string>} */
  const inputs = {};
  for (const path of Object.keys(result.metafile.inputs)) inputs[path] = stamp(join(ROOT, path));
  // This file too: a bundle made another way is made again.
  inputs[relative(ROOT, THIS_FILE)] = stamp(THIS_FILE);
  mkdirSync(CACHE, { recursive: true });
  if (map) writeWhole(`${bundleFile}.map`, map.contents);
  writeWhole(bundleFile, code.contents);
  writeWhole(inputsFile, JSON.stringify(inputs));
  return pathToFileURL(bundleFile).href;
}

/**
 * The module `sourceUrl` (TypeScript), loaded from its bundle, or through tsx should the bundle fail to be made.
 * Only a failure to make or find the bundle falls back: a program whose bundle failed as it ran is not run twice.
 * @param {string | URL} sourceUrl
 * @returns {Promise<any>}
 */
export async function importFromSource(sourceUrl) {
  const href = String(sourceUrl);
  let bundle;
  try {
    bundle = await bundledSource(href);
  } catch (error) {
    if (process.env.DESIGN_SYNC_DEBUG) process.stderr.write(`design-sync: running ${href} through tsx (no bundle: ${String(error)})\n`);
    const { register } = await import('tsx/esm/api');
    register();
    return import(href);
  }
  return import(bundle);
}
