import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { chooseNativeBinding, type SqliteRuntime } from './native-binding';

/** This process's runtime, as the choice needs it. Under `npm start` the engine process runs in the checkout. */
export function currentSqliteRuntime(): SqliteRuntime {
  return {
    versions: process.versions,
    platform: process.platform,
    arch: process.arch,
    resourcesPath: (process as { resourcesPath?: string }).resourcesPath,
    appRoot: process.cwd(),
  };
}

let chosen: { readonly binding: string | undefined } | undefined;

/** The native build this process loads, chosen once (the process's runtime does not change). */
export function sqliteNativeBinding(): string | undefined {
  chosen ??= { binding: chooseNativeBinding(currentSqliteRuntime(), existsSync) };
  return chosen.binding;
}

/**
 * A worker thread takes the build its process chose (the thread's own `process` may not say it runs under Electron),
 * before it opens a database.
 */
export function adoptSqliteNativeBinding(binding: string | undefined): void {
  chosen = { binding };
}

/**
 * Every database the engine opens goes through here, so that under Electron it loads the Electron build of
 * better-sqlite3; under Node the options are passed on unchanged.
 */
export function openSqlite(path: string, options: Database.Options = {}): Database.Database {
  const nativeBinding = sqliteNativeBinding();
  return new Database(path, nativeBinding === undefined ? options : { ...options, nativeBinding });
}
