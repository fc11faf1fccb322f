#!/usr/bin/env node
/**
 * `npm run rebuild:electron`: builds better-sqlite3 for the Electron in node_modules into
 * build/native/electron-<abi>-<platform>-<arch>/better_sqlite3.node, beside (never over) the Node build that npm made
 * in node_modules and that `npm test` keeps using. The engine loads it when it runs under Electron
 * (electron/engine/sqlite/native-binding.ts); `npm run package` runs this first and ships the result unpacked.
 * See docs/native-modules.md.
 *
 * @electron/rebuild rebuilds a node_modules folder in place, so it is pointed at a scratch copy of better-sqlite3.
 * It needs Electron's headers (downloaded once from electronjs.org, then cached) and a C++ toolchain.
 */
import { cp, mkdir, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(join(ROOT, 'package.json'));

async function versionOf(name) {
  return JSON.parse(await readFile(require.resolve(`${name}/package.json`), 'utf8')).version;
}

function fail(message) {
  process.stderr.write(`rebuild:electron: ${message}\n`);
  process.exit(1);
}

const electronVersion = await versionOf('electron');
const sqliteVersion = await versionOf('better-sqlite3');
// The ABI table of the @electron/rebuild that does the build, so both agree on the folder's name.
const { getAbi } = createRequire(require.resolve('@electron/rebuild'))('node-abi');
let abi;
try {
  abi = getAbi(electronVersion, 'electron');
} catch (error) {
  fail(`node-abi does not know Electron ${electronVersion}'s ABI (${error.message}); update electron-builder (it brings node-abi).`);
}
const tag = `electron-${abi}-${process.platform}-${process.arch}`;
const output = join(ROOT, 'build', 'native', tag, 'better_sqlite3.node');
const work = join(ROOT, 'build', 'native', `.work-${tag}`);

process.stdout.write(`Building better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (ABI ${abi}, ${process.platform}-${process.arch})...\n`);
await rm(work, { recursive: true, force: true });
try {
  const source = dirname(require.resolve('better-sqlite3/package.json'));
  await cp(source, join(work, 'node_modules', 'better-sqlite3'), {
    recursive: true,
    filter: (path) => relative(source, path).split(/[\\/]/)[0] !== 'build',
  });
  await writeFile(join(work, 'package.json'), JSON.stringify({ name: 'design-sync-native-build', version: '0.0.0', private: true, dependencies: { 'better-sqlite3': sqliteVersion } }));
  const { rebuild } = await import('@electron/rebuild');
  await rebuild({ buildPath: work, electronVersion, arch: process.arch, onlyModules: ['better-sqlite3'], force: true, buildFromSource: true, mode: 'sequential' });
  await mkdir(dirname(output), { recursive: true });
  await copyFile(join(work, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), output);
  process.stdout.write(`${relative(ROOT, output)}\n`);
} catch (error) {
  process.exitCode = 1;
  process.stderr.write(
    `rebuild:electron: could not build better-sqlite3 for Electron ${electronVersion}: ${error instanceof Error ? error.message : String(error)}\n` +
    'It needs Electron\'s headers (downloaded from https://www.electronjs.org/headers on first use, then cached) and a C++ toolchain ' +
    '(python3, make and g++ on Linux; the Xcode command line tools on macOS; Visual Studio Build Tools on Windows).\n',
  );
} finally {
  await rm(work, { recursive: true, force: true });
}
