import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

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

export function ensureProfile(root: string): ProfilePaths {
  const paths = profilePaths(root);
  mkdirSync(paths.root, { recursive: true, mode: 0o700 });
  mkdirSync(paths.fileCache, { recursive: true });
  return paths;
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
