import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  chooseNativeBinding,
  electronBuildPath,
  ElectronSqliteBuildMissingError,
  REBUILD_COMMAND,
  type SqliteRuntime,
} from '../../../electron/engine/sqlite/native-binding';
import { currentSqliteRuntime, openSqlite, sqliteNativeBinding } from '../../../electron/engine/sqlite/open-sqlite';

const CHECKOUT = '/home/me/design-sync';
const RESOURCES = '/opt/design-sync/resources';

const underNode: SqliteRuntime = { versions: { modules: '115' }, platform: 'linux', arch: 'x64', appRoot: CHECKOUT };
const underElectron = (extra: Partial<SqliteRuntime> = {}): SqliteRuntime => ({
  versions: { electron: '45.4.1', modules: '150' },
  platform: 'linux',
  arch: 'x64',
  resourcesPath: join(CHECKOUT, 'node_modules/electron/dist/resources'),
  appRoot: CHECKOUT,
  ...extra,
});
const filesPresent = (...paths: string[]) => (path: string) => paths.includes(path);

describe('choosing the better-sqlite3 build', () => {
  it('leaves Node to its own build (no nativeBinding) and looks at no file', () => {
    const looked: string[] = [];
    expect(chooseNativeBinding(underNode, (path) => (looked.push(path), true))).toBeUndefined();
    expect(looked).toEqual([]);
  });

  it("under Electron from a checkout, loads the checkout's Electron build for this ABI, platform and architecture", () => {
    const build = join(CHECKOUT, 'build/native/electron-150-linux-x64/better_sqlite3.node');
    expect(chooseNativeBinding(underElectron(), filesPresent(build))).toBe(build);
  });

  it('reads the ABI from process.versions.modules, so a build for another Electron is never loaded', () => {
    const oldBuild = join(CHECKOUT, 'build/native/electron-150-linux-x64/better_sqlite3.node');
    const runtime = underElectron({ versions: { electron: '46.0.0', modules: '143' } });
    expect(() => chooseNativeBinding(runtime, filesPresent(oldBuild))).toThrow(/electron-143-linux-x64/);
    const newBuild = join(CHECKOUT, 'build/native/electron-143-linux-x64/better_sqlite3.node');
    expect(chooseNativeBinding(runtime, filesPresent(oldBuild, newBuild))).toBe(newBuild);
  });

  it('keeps platforms and architectures apart', () => {
    const runtime = underElectron({ platform: 'darwin', arch: 'arm64' });
    expect(chooseNativeBinding(runtime, filesPresent(join(CHECKOUT, 'build/native/electron-150-darwin-arm64/better_sqlite3.node'))))
      .toBe(join(CHECKOUT, 'build/native/electron-150-darwin-arm64/better_sqlite3.node'));
  });

  it('under Electron without the build, says which command makes it and where it is expected', () => {
    let error: unknown;
    try {
      chooseNativeBinding(underElectron(), filesPresent());
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ElectronSqliteBuildMissingError);
    const missing = error as ElectronSqliteBuildMissingError;
    expect(missing.message).toContain(REBUILD_COMMAND);
    expect(REBUILD_COMMAND).toBe('npm run rebuild:electron');
    expect(missing.message).toContain('Electron 45.4.1 (ABI 150)');
    expect(missing.expectedPath).toBe(join(CHECKOUT, 'build/native/electron-150-linux-x64/better_sqlite3.node'));
    expect(missing.packaged).toBe(false);
  });

  it('in a packaged app, loads the build unpacked beside app.asar, never one from the working directory', () => {
    const unpacked = join(RESOURCES, 'app.asar.unpacked/build/native/electron-150-linux-x64/better_sqlite3.node');
    const fromCwd = join('/', 'build/native/electron-150-linux-x64/better_sqlite3.node');
    const runtime = underElectron({ resourcesPath: RESOURCES, appRoot: '/' });
    expect(chooseNativeBinding(runtime, filesPresent(join(RESOURCES, 'app.asar'), unpacked, fromCwd))).toBe(unpacked);
  });

  it('in a packaged app without its build, says the installation is incomplete (not a developer command)', () => {
    const runtime = underElectron({ resourcesPath: RESOURCES, appRoot: '/' });
    const fromCwd = join('/', 'build/native/electron-150-linux-x64/better_sqlite3.node');
    expect(() => chooseNativeBinding(runtime, filesPresent(join(RESOURCES, 'app.asar'), fromCwd))).toThrow(/incomplete.*Reinstall design-sync/);
  });

  it('uses the same path below the app root in the checkout and in the package (what build/electron-builder.json ships)', () => {
    expect(electronBuildPath('/root', 'electron-150-win32-x64')).toBe(join('/root', 'build/native/electron-150-win32-x64/better_sqlite3.node'));
  });
});

describe('opening a database under Node', () => {
  const dir = mkdtempSync(join(tmpdir(), 'open-sqlite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("uses Node's own build (no nativeBinding)", () => {
    expect(currentSqliteRuntime().versions.electron).toBeUndefined();
    expect(sqliteNativeBinding()).toBeUndefined();
    const path = join(dir, 'x.sqlite');
    const db = openSqlite(path, { timeout: 1000 });
    db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    expect(db.prepare('SELECT x FROM t').pluck().get()).toBe(1);
    db.close();
    expect(existsSync(path)).toBe(true);
  });

  it('passes the options on unchanged (a read-only database refuses writes)', () => {
    const path = join(dir, 'ro.sqlite');
    openSqlite(path).close();
    const db = openSqlite(path, { readonly: true });
    expect(() => db.exec('CREATE TABLE t (x)')).toThrow(/readonly/);
    db.close();
  });
});

/**
 * A Node process that says it is Electron (process.versions.electron set before the engine loads): the engine must
 * then load the build at build/native/electron-<abi>-<platform>-<arch>/ below its working directory, and nothing else.
 * The Node build stands in for the Electron one (same ABI as this Node), so the whole path runs for real.
 */
describe('opening a database in a process that runs under Electron', () => {
  const OPEN_SQLITE = resolve('electron/engine/sqlite/open-sqlite.ts');
  const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const CHILD = `
    Object.defineProperty(process.versions, 'electron', { value: '45.4.1', enumerable: true });
    const { createRequire } = await import('node:module');
    const { openSqlite } = await import(${JSON.stringify(OPEN_SQLITE)});
    try {
      const db = openSqlite(':memory:');
      const one = db.prepare('SELECT 1').pluck().get();
      db.close();
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((path) => path.endsWith('.node'));
      console.log(JSON.stringify({ one, loaded }));
    } catch (error) {
      console.log(JSON.stringify({ error: error.name, message: error.message }));
    }`;
  const appRoot = mkdtempSync(join(tmpdir(), 'electron-app-root-'));
  afterAll(() => rmSync(appRoot, { recursive: true, force: true }));

  const runChild = async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', TSX_LOADER, '--input-type=module', '-e', CHILD], {
      cwd: appRoot,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as { one?: number; loaded?: string[]; error?: string; message?: string };
  };

  it('without the Electron build, fails to open and names the command that makes it', async () => {
    const result = await runChild();
    expect(result.error).toBe('ElectronSqliteBuildMissingError');
    expect(result.message).toContain('npm run rebuild:electron');
  });

  it('with the Electron build in place, loads that one (not the Node build in node_modules)', async () => {
    const nodeBuild = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'build/Release/better_sqlite3.node');
    const electronBuild = join(appRoot, `build/native/electron-${process.versions.modules}-${process.platform}-${process.arch}/better_sqlite3.node`);
    mkdirSync(dirname(electronBuild), { recursive: true });
    copyFileSync(nodeBuild, electronBuild);
    const result = await runChild();
    expect(result).toEqual({ one: 1, loaded: [electronBuild] });
  });
});
