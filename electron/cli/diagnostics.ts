import { accessSync, closeSync, constants, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { engineLogPath, readLogTail } from '../engine/log/engine-log';
import { redactSecrets } from '../engine/log/redact';
import type { ProfilePaths } from '../engine/profile/profile';
import { openSqlite } from '../engine/sqlite/open-sqlite';
import type { MessageId } from '../../shared/i18n/messages';
import { updateDiagnostics } from './update-diagnostics';
import { startAtLoginDiagnostics } from './start-at-login-diagnostics';
import { bandwidthDiagnostics } from './bandwidth-diagnostics';
import { ENGLISH_INTL, type Words } from '../../shared/i18n/create-intl';
import { formatBytes } from '../../shared/i18n/format';

/** How many of the log's last lines `status --diagnostics` prints. */
export const DIAGNOSTICS_LOG_LINES = 20;


const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * A database file as diagnostics show it: its size and schema version, read from its header without opening it
 * (opening a WAL database read-only would leave WAL files behind; SQLite's own check is the engine's to run).
 */
function describeDatabase(path: string, words: Words): string {
  if (!existsSync(path)) return words.formatMessage({ id: 'cli.diagnostics.databaseNotMade' }, { path });
  const stat = statSync(path);
  if (!stat.isFile()) return words.formatMessage({ id: 'cli.diagnostics.databaseNotFile' }, { path });
  const size = formatBytes(words, stat.size);
  const header = Buffer.alloc(100);
  const fd = openSync(path, 'r');
  let read: number;
  try {
    read = readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  if (read < header.length || !header.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER)) return words.formatMessage({ id: 'cli.diagnostics.databaseNotSqlite' }, { path, size });
  // PRAGMA user_version is the big-endian integer at offset 60 of the header.
  return words.formatMessage({ id: 'cli.diagnostics.database' }, { path, size, version: header.readInt32BE(60) });
}

/** Why the engine cannot write its log there (its folder is a file, or not writable), or null. */
function logProblem(log: string, words: Words): string | null {
  let dir = dirname(log);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  if (!statSync(dir).isDirectory()) return words.formatMessage({ id: 'cli.diagnostics.logFolderNotFolder' }, { folder: dir });
  try {
    accessSync(dir, constants.W_OK);
    return null;
  } catch (error) {
    return words.formatMessage({ id: 'cli.diagnostics.logNotWritable' }, { problem: (error as Error).message });
  }
}

/** design-sync's version, from its package.json. */
export function appVersion(words: Words = ENGLISH_INTL): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? words.formatMessage({ id: 'cli.diagnostics.versionUnknown' });
  } catch (error) {
    return words.formatMessage({ id: 'cli.diagnostics.versionUnknownWhy' }, { problem: (error as Error).message });
  }
}

function sqliteVersion(words: Words): string {
  try {
    const db = openSqlite(':memory:');
    try {
      return String((db.prepare('SELECT sqlite_version() AS version').get() as { version: string }).version);
    } finally {
      db.close();
    }
  } catch (error) {
    return words.formatMessage({ id: 'cli.diagnostics.sqliteUnavailable' }, { problem: (error as Error).message });
  }
}

/**
 * What someone helping with a problem needs, without opening the engine (so that it works on a profile whose
 * databases cannot be opened): where the log and the profile's files are, the versions, and the log's last lines,
 * secrets taken out (`secrets`: the stored token, when it can be read).
 */
export function diagnosticsText(profile: ProfilePaths, secrets: string[], tokenProblem: string | null = null, proxyLine: string | null = null, words: Words = ENGLISH_INTL): string {
  const log = engineLogPath(profile.root);
  const unwritable = logProblem(log, words);
  const tail = readLogTail(log, DIAGNOSTICS_LOG_LINES).map((line) => `  ${redactSecrets(line, secrets)}`);
  const say = (id: MessageId, values?: Record<string, string | number>) => words.formatMessage({ id }, values);
  const token = existsSync(profile.tokenFile) ? 'present' : 'absent';
  return [
    say(existsSync(log) ? 'cli.diagnostics.log' : 'cli.diagnostics.logNotYet', { path: log }),
    ...(unwritable ? [`  ${unwritable}`] : []),
    say('cli.diagnostics.profile', { path: profile.root }),
    `  ${say('cli.diagnostics.settings', { path: profile.settingsFile })}`,
    `  ${tokenProblem ? say('cli.diagnostics.tokenFileUnusable', { path: profile.tokenFile, state: token, problem: tokenProblem }) : say('cli.diagnostics.tokenFile', { path: profile.tokenFile, state: token })}`,
    `  ${say('cli.diagnostics.cacheDatabase', { database: describeDatabase(profile.cacheDatabase, words) })}`,
    `  ${say('cli.diagnostics.fileCache', { path: profile.fileCache })}`,
    `  ${say('cli.diagnostics.syncDatabase', { database: describeDatabase(profile.syncDatabase, words) })}`,
    ...startAtLoginDiagnostics(profile, undefined, words),
    ...bandwidthDiagnostics(profile, words),
    ...updateDiagnostics(undefined, words),
    // The proxy the service's requests take, and the setting (never a password: cli/proxy-diagnostics.ts).
    ...(proxyLine ? [proxyLine] : []),
    say('cli.diagnostics.versions', { app: appVersion(words), node: process.versions.node, sqlite: sqliteVersion(words), platform: process.platform, arch: process.arch }),
    // The engine's own (engine-node-flags.ts) are missing when `design-sync` was started some other way than its command.
    process.execArgv.length > 0 ? say('cli.diagnostics.nodeFlags', { flags: process.execArgv.join(' ') }) : say('cli.diagnostics.nodeFlagsNone'),
    tail.length ? say('cli.diagnostics.logTail', { count: tail.length }) : say('cli.diagnostics.logTailNone'),
    ...tail,
  ].join('\n');
}
