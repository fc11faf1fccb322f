import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { EngineWords, EngineWordValue } from '../../../shared/i18n/engine-words';
import type { MessageId } from '../../../shared/i18n/messages';
import { englishOf } from '../../../shared/i18n/worded-error';

/**
 * The spec names no address for the real service ({base_url}), so there is no built-in default: a profile
 * remembers the service it was first used with (settings.json), and --service changes it.
 */
/**
 * Where one profile keeps its state: a profile is one signed-in account on one service, as on one computer.
 * Two profiles on the same account behave like two computers.
 */
export interface ProfilePaths {
  root: string;
  /** The token, for the Node CLI: a file only its user can read. The Electron shell uses safeStorage instead. */
  tokenFile: string;
  /** The SQLite cache of designs (and, later, the upload queue). */
  cacheDatabase: string;
  /** Content-addressed downloaded files (image renditions). */
  fileCache: string;
  /** The sync folder's state and the upload queue (synchronous=FULL). */
  syncDatabase: string;
  settingsFile: string;
  /** Files dropped on a design in the window, staged here by the host until the engine moves them into the sync folder. */
  incomingDir: string;
}

export function profilePaths(root: string): ProfilePaths {
  const dir = resolve(root);
  return {
    root: dir,
    tokenFile: join(dir, 'token'),
    cacheDatabase: join(dir, 'cache.sqlite'),
    fileCache: join(dir, 'files'),
    syncDatabase: join(dir, 'sync.sqlite'),
    settingsFile: join(dir, 'settings.json'),
    incomingDir: join(dir, 'incoming'),
  };
}

/**
 * A profile folder that cannot be used: a file in its place, no permission, a read-only disk… The message names the
 * folder, the problem and what to do, never a system error code.
 */
export class ProfileError extends Error {
  constructor(readonly path: string, readonly code: string | undefined, readonly words: EngineWords) {
    super(englishOf(words));
    this.name = 'ProfileError';
  }
}

/**
 * How the person is told to choose another profile folder: 'app' in the app ("choose another profile
 * folder"), 'cli' on the command line ("choose another --profile").
 */
export type ProfileAdvice = 'app' | 'cli';

/**
 * Makes the profile's folders (0700) and checks that they can be written. A folder that cannot be is a ProfileError
 * saying why, with `advice` (what to do) at its end.
 */
export function ensureProfile(root: string, advice: ProfileAdvice = 'app'): ProfilePaths {
  const paths = profilePaths(root);
  makeFolder(paths.root, paths.root, advice, 0o700);
  try {
    accessSync(paths.root, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw profileError(paths.root, paths.root, error, advice);
  }
  makeFolder(paths.fileCache, paths.root, advice);
  return paths;
}

/**
 * mkdir -p, one folder at a time: a recursive mkdirSync reports a read-only disk or a refused permission as ENOENT (it
 * looks at the folder it could not make), so each missing folder is made on its own and its own error is kept.
 */
function makeFolder(folder: string, root: string, advice: ProfileAdvice, mode?: number): void {
  const missing: string[] = [];
  let at = folder;
  for (;;) {
    let stats;
    try {
      stats = statSync(at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') throw profileError(fileOnTheWay(at), root, error, advice);
      // EACCES here: the folder it is in cannot be looked into.
      if (code !== 'ENOENT') throw profileError(code === 'EACCES' ? dirname(at) : at, root, error, advice);
      missing.unshift(at);
      const parent = dirname(at);
      if (parent === at) break;
      at = parent;
      continue;
    }
    if (!stats.isDirectory()) throw profileError(at, root, Object.assign(new Error('not a folder'), { code: 'ENOTDIR' }), advice);
    break;
  }
  for (const path of missing) {
    try {
      mkdirSync(path, mode === undefined ? {} : { mode });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && isFolder(path)) continue;
      // Permission and read-only disks are about the folder it is made in.
      throw profileError(code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? dirname(path) : path, root, error, advice);
    }
  }
}

/** The file that stands where a folder of `path` should be (a path component that is not a folder). */
function fileOnTheWay(path: string): string {
  let at = path;
  for (;;) {
    const parent = dirname(at);
    if (parent === at) return path;
    try {
      if (!statSync(parent).isDirectory()) {
        at = parent;
        continue;
      }
      return at;
    } catch {
      at = parent;
    }
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The words for a profile folder (`root`) that cannot be made or written because of `at`, as facts. */
function profileError(at: string, root: string, error: unknown, advice: ProfileAdvice): ProfileError {
  const code = (error as NodeJS.ErrnoException).code;
  const where = at === root ? 'root' : 'inside';
  const said = (id: MessageId, todo: MessageId, values: Record<string, EngineWordValue> = {}) =>
    new ProfileError(root, code, { id, values: { root, at, where, ...values, advice: { id: todo, values: { advice } } } });
  switch (code) {
    case 'ENOTDIR':
    case 'EEXIST':
      return said('profile.problem.notAFolder', 'profile.problem.advice.choose');
    case 'EACCES':
    case 'EPERM':
      return said('profile.problem.noPermission', 'profile.problem.advice.permission');
    case 'EROFS':
      return said('profile.problem.readOnly', 'profile.problem.advice.readOnly');
    case 'ENOSPC':
    case 'EDQUOT':
      return said('profile.problem.diskFull', 'profile.problem.advice.diskFull');
    case 'ENAMETOOLONG':
      return said('profile.problem.nameTooLong', 'profile.problem.advice.choose');
    case 'ELOOP':
      return said('profile.problem.linkLoop', 'profile.problem.advice.choose');
    default:
      return said('profile.problem.unusable', 'profile.problem.advice.choose', { problem: describeCode(code, error) });
  }
}

function describeCode(code: string | undefined, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // "EIO: i/o error, mkdir '/x'" → "i/o error"
  const words = message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
  return words || (code ?? 'unknown error');
}

/** Normalizes a service address given by a person: trims, drops a trailing slash, refuses what is not http(s). */
export function normalizeServiceUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`Not a web address: ${JSON.stringify(raw)} (expected e.g. http://127.0.0.1:4010)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`The service address must start with http:// or https://, got ${JSON.stringify(raw)}`);
  return url.origin + url.pathname.replace(/\/+$/, '');
}
