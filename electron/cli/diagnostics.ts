import { accessSync, closeSync, constants, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { engineLogPath, readLogTail } from '../engine/log/engine-log';
import { redactSecrets } from '../engine/log/redact';
import type { ProfilePaths } from '../engine/profile/profile';
import { openSqlite } from '../engine/sqlite/open-sqlite';
import { updateDiagnostics } from './update-diagnostics';
import { startAtLoginDiagnostics } from './start-at-login-diagnostics';
import { bandwidthDiagnostics } from './bandwidth-diagnostics';

/** How many of the log's last lines `status --diagnostics` prints. */
export const DIAGNOSTICS_LOG_LINES = 20;

function sizeOf(path: string): string {
  const bytes = statSync(path).size;
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * A database file as diagnostics show it: its size and schema version, read from its header without opening it
 * (opening a WAL database read-only would leave WAL files behind; SQLite's own check is the engine's to run).
 */
function describeDatabase(path: string): string {
  if (!existsSync(path)) return `${path} (not made yet)`;
  const stat = statSync(path);
  if (!stat.isFile()) return `${path} (not a file)`;
  const header = Buffer.alloc(100);
  const fd = openSync(path, 'r');
  let read: number;
  try {
    read = readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  if (read < header.length || !header.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER)) return `${path} (${sizeOf(path)}; not a SQLite database)`;
  // PRAGMA user_version is the big-endian integer at offset 60 of the header.
  return `${path} (${sizeOf(path)}, schema version ${header.readInt32BE(60)})`;
}

/** Why the engine cannot write its log there (its folder is a file, or not writable), or null. */
function logProblem(log: string): string | null {
  let dir = dirname(log);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  if (!statSync(dir).isDirectory()) return `The engine log cannot be written: ${dir} is not a folder.`;
  try {
    accessSync(dir, constants.W_OK);
    return null;
  } catch (error) {
    return `The engine log cannot be written: ${(error as Error).message}`;
  }
}

function appVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch (error) {
    return `unknown (${(error as Error).message})`;
  }
}

function sqliteVersion(): string {
  try {
    const db = openSqlite(':memory:');
    try {
      return String((db.prepare('SELECT sqlite_version() AS version').get() as { version: string }).version);
    } finally {
      db.close();
    }
  } catch (error) {
    return `unavailable (${(error as Error).message})`;
  }
}

/**
 * What someone helping with a problem needs, without opening the engine (so that it works on a profile whose
 * databases cannot be opened): where the log and the profile's files are, the versions, and the log's last lines,
 * secrets taken out (`secrets`: the stored token, when it can be read).
 */
export function diagnosticsText(profile: ProfilePaths, secrets: string[], tokenProblem: string | null = null, proxyLine: string | null = null): string {
  const log = engineLogPath(profile.root);
  const unwritable = logProblem(log);
  const tail = readLogTail(log, DIAGNOSTICS_LOG_LINES).map((line) => `  ${redactSecrets(line, secrets)}`);
  return [
    `Engine log: ${log}${existsSync(log) ? '' : ' (nothing logged yet)'}`,
    ...(unwritable ? [`  ${unwritable}`] : []),
    `Profile: ${profile.root}`,
    `  settings: ${profile.settingsFile}`,
    `  token file: ${profile.tokenFile} (${existsSync(profile.tokenFile) ? 'present' : 'absent'}${tokenProblem ? `; cannot be used: ${tokenProblem}` : ''})`,
    `  cache database: ${describeDatabase(profile.cacheDatabase)}`,
    `  downloaded files: ${profile.fileCache}`,
    `  sync database: ${describeDatabase(profile.syncDatabase)}`,
    ...startAtLoginDiagnostics(profile),
    ...bandwidthDiagnostics(profile),
    ...updateDiagnostics(),
    // The proxy the service's requests take, and the setting (never a password: cli/proxy-diagnostics.ts).
    ...(proxyLine ? [proxyLine] : []),
    `Versions: design-sync ${appVersion()}, Node ${process.versions.node}, SQLite ${sqliteVersion()}, ${process.platform} ${process.arch}`,
    // The engine's own (engine-node-flags.ts) are missing when `design-sync` was started some other way than its command.
    `Node flags: ${process.execArgv.join(' ') || 'none'}`,
    tail.length ? `Last ${tail.length} line${tail.length === 1 ? '' : 's'} of the engine log:` : 'The engine log is empty.',
    ...tail,
  ].join('\n');
}
