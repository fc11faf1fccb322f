import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../electron/launcher/electron-binary';
import { tempDir } from '../engine/cache/cache-fixtures';

const ROOT = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function electronPackage(files: Record<string, string>): string {
  const dir = tempDir('electron-package');
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

describe('finding Electron\'s binary without requiring electron (which would download it)', () => {
  it('says why there is none: no package, never downloaded, or the binary gone', () => {
    expect(findElectronBinary(join(tempDir('nothing'), 'electron'))).toMatchObject({ ok: false, reason: expect.stringMatching(/not installed/) });
    expect(findElectronBinary(electronPackage({ 'package.json': '{}' }))).toMatchObject({ ok: false, reason: expect.stringMatching(/never downloaded/) });
    expect(findElectronBinary(electronPackage({ 'package.json': '{}', 'path.txt': 'electron' }))).toMatchObject({ ok: false, reason: expect.stringMatching(/missing/) });
  });

  it('finds it where electron\'s own index.js would, or under ELECTRON_OVERRIDE_DIST_PATH', () => {
    const dir = electronPackage({ 'package.json': '{}', 'path.txt': 'electron', 'dist/electron': '#!' });
    expect(findElectronBinary(dir)).toEqual({ ok: true, path: join(dir, 'dist', 'electron') });
    const override = electronPackage({ 'electron': '#!' });
    expect(findElectronBinary(dir, { ELECTRON_OVERRIDE_DIST_PATH: override })).toEqual({ ok: true, path: join(override, 'electron') });
  });
});

describe('the shell\'s bundles', () => {
  const out = tempDir('shell-build');
  dirs.push(out);
  execFileSync(process.execPath, [join(ROOT, 'build', 'build-shell.mjs'), '--out', out], { cwd: ROOT });
  const imported = (file: string) => {
    // Lines of code only: bundled JSDoc keeps example imports of other packages.
    const text = readFileSync(join(out, file), 'utf8').split('\n').filter((line) => !/^\s*(\*|\/\/)/.test(line)).join('\n');
    const names = new Set<string>();
    for (const match of text.matchAll(/(?:require\(|from\s*|import\()\s*["']([^"'./$][^"']*)["']/g)) names.add(match[1]!);
    return [...names].filter((name) => !name.startsWith('node:') && !builtinModules.includes(name)).sort();
  };

  it('give the sandboxed preload nothing to load but electron', () => {
    expect(imported('preload.cjs')).toEqual(['electron']);
  });

  it('leave electron and electron-store outside main, and only the native SQLite module outside the engine (which never loads electron)', () => {
    expect(imported('main.mjs')).toEqual(['electron', 'electron-store']);
    // kerberos is imported only by http-proxy-agent's optional Negotiate support, when a proxy asks for it (not shipped).
    expect(imported('engine-process.mjs')).toEqual(['better-sqlite3', 'kerberos']);
    expect(readFileSync(join(out, 'engine-process.mjs'), 'utf8')).not.toMatch(/^\s*import\s[^;]*["']kerberos["']/m);
    expect(imported('checkpoint-thread-worker.mjs')).toEqual(['better-sqlite3']);
    expect(imported('count-thread-worker.mjs')).toEqual(['better-sqlite3']);
    expect(imported('index-thread-worker.mjs')).toEqual(['better-sqlite3']);
    expect(readFileSync(join(out, 'engine-process.mjs'), 'utf8')).not.toMatch(/from\s*["']electron["']/);
  });
});
