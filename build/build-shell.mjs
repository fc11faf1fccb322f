#!/usr/bin/env node
// Bundles the Electron shell into dist/shell/: the main process and the engine's utility process (ESM), and the
// sandboxed preload (one CommonJS file: a sandboxed preload cannot load modules of its own). Native modules
// (better-sqlite3) and electron stay outside the bundle. `npm run build:shell`
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const outIndex = process.argv.indexOf('--out');
const out = outIndex === -1 ? join(root, 'dist', 'shell') : process.argv[outIndex + 1];
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const common = { bundle: true, platform: 'node', target: 'node22', sourcemap: 'linked', logLevel: 'warning', absWorkingDir: root, legalComments: 'none' };
// CommonJS dependencies bundled into ESM still call require() for Node's own modules.
const esmBanner = { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" };

await Promise.all([
  build({ ...common, entryPoints: ['electron/shell/main/main.ts'], outfile: join(out, 'main.mjs'), format: 'esm', external: ['electron', 'better-sqlite3', 'electron-store'], banner: esmBanner }),
  // kerberos: http-proxy-agent's optional Negotiate support imports it only when a proxy asks for Negotiate; it is not
  // shipped (Basic proxy authentication only: docs/security.md), and its absence is said in words.
  build({ ...common, entryPoints: ['electron/shell/engine-process/engine-process.ts'], outfile: join(out, 'engine-process.mjs'), format: 'esm', external: ['electron', 'better-sqlite3', 'kerberos'], banner: esmBanner }),
  // A large pull's checkpoint thread (a worker_threads Worker needs a file of its own): electron/engine/cache/checkpoint-thread.ts
  // starts it from beside the engine's bundle, as checkpoint-thread-worker.mjs.
  build({ ...common, entryPoints: ['electron/engine/cache/checkpoint-thread-worker.ts'], outfile: join(out, 'checkpoint-thread-worker.mjs'), format: 'esm', external: ['better-sqlite3'], banner: esmBanner }),
  // The library's exact counts (electron/engine/cache/count-thread.ts), as count-thread-worker.mjs.
  build({ ...common, entryPoints: ['electron/engine/cache/count-thread-worker.ts'], outfile: join(out, 'count-thread-worker.mjs'), format: 'esm', external: ['better-sqlite3'], banner: esmBanner }),
  // The indexes a bulk fill set aside, made again behind the pull (electron/engine/cache/index-thread.ts), as index-thread-worker.mjs.
  build({ ...common, entryPoints: ['electron/engine/cache/index-thread-worker.ts'], outfile: join(out, 'index-thread-worker.mjs'), format: 'esm', external: ['better-sqlite3'], banner: esmBanner }),
  build({ ...common, entryPoints: ['electron/preload/preload.ts'], outfile: join(out, 'preload.cjs'), format: 'cjs', platform: 'browser', external: ['electron'], minify: true }),
]);
cpSync(join(root, 'electron', 'shell', 'tray', 'icons'), join(out, 'tray-icons'), { recursive: true, filter: (path) => !path.endsWith('.ts') });
process.stdout.write(`shell built in ${out}\n`);
