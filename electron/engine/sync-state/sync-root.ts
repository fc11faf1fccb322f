import { randomUUID } from 'node:crypto';
import { accessSync, closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, parse, relative, resolve, sep } from 'node:path';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import { englishOf } from '../../../shared/i18n/worded-error';
import { statementsOf, type SyncDatabase } from './sync-database';

/** The file in the sync folder's root that names it (so another folder at the same path is never taken for it). */
export const MARKER_FILE = '.design-sync.json';

export interface SyncRoot {
  path: string;
  /** The id written into <root>/.design-sync.json. */
  marker: string;
  createdAt: number;
}

/** The folder checked: there and ours, or why not, in English (`reason`) and as facts a front end words (`words`). */
export type RootCheck = { ok: true; root: SyncRoot } | { ok: false; reason: string; words: EngineWords };

/** A folder that cannot be the sync folder, with the reason in words. */
export class SyncRootError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SyncRootError';
  }
}

/**
 * A failure of the file system in words a person can act on: what is wrong and what to do, never a raw code
 * (EACCES, EROFS, ENOSPC…). `problem` reads after "because", `todo` is a sentence of its own.
 */
export function fileSystemProblem(error: unknown): { problem: string; todo: string } {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return { problem: 'permission is denied', todo: 'Give your user permission to read and write it, or choose a folder of your own.' };
    case 'EROFS':
      return { problem: 'it is on a read-only disk', todo: 'Choose a folder on a disk you can write to, or mount the disk read-write.' };
    case 'ENOSPC':
      return { problem: 'the disk is full', todo: 'Free some space on the disk, then sync again.' };
    case 'EDQUOT':
      return { problem: 'your disk quota is used up', todo: 'Free some space (or ask for a larger quota), then sync again.' };
    case 'ENAMETOOLONG':
      return { problem: 'the path is too long for the file system', todo: 'Choose a shorter path.' };
    case 'ELOOP':
      return { problem: 'it goes through too many symbolic links', todo: 'Give the real path of the folder.' };
    case 'EIO':
      return { problem: 'the disk reported a read or write error', todo: 'Check the disk (it may be failing or disconnected), then sync again.' };
    case 'EBUSY':
      return { problem: 'it is in use by the system', todo: 'Try again in a moment, or choose another folder.' };
    default:
      return { problem: `the system refused (${code ?? (error instanceof Error ? error.message : String(error))})`, todo: 'Check the folder, then try again.' };
  }
}

/** The file system's refusal as a select key of the catalogs' messages (`problem`), and its code for 'other'. */
export function fileSystemProblemKey(error: unknown): { problem: string; code: string } {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const problem = code === 'EACCES' || code === 'EPERM' ? 'permission'
    : code === 'EROFS' ? 'readOnly'
    : code === 'ENOSPC' ? 'diskFull'
    : code === 'EDQUOT' ? 'quota'
    : code === 'ENAMETOOLONG' ? 'pathTooLong'
    : code === 'ELOOP' ? 'linkLoop'
    : code === 'EIO' ? 'diskError'
    : code === 'EBUSY' ? 'busy'
    : 'other';
  return { problem, code: code ?? (error instanceof Error ? error.message : String(error)) };
}

/** A failed check: its facts, and their English. */
function notThere(words: EngineWords): RootCheck {
  return { ok: false, reason: englishOf(words), words };
}

type MarkerRead = { found: { rootId: string; createdAt: number } } | { found: null; unreadable: NodeJS.ErrnoException | null };

function readMarker(root: string): MarkerRead {
  try {
    const value = JSON.parse(readFileSync(join(root, MARKER_FILE), 'utf8')) as { rootId?: unknown; createdAt?: unknown };
    return typeof value.rootId === 'string' ? { found: { rootId: value.rootId, createdAt: Number(value.createdAt) || 0 } } : { found: null, unreadable: null };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Missing, or not JSON: no marker. Anything else (permission, a failing disk): the marker cannot be read.
    return { found: null, unreadable: code && code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EISDIR' ? error as NodeJS.ErrnoException : null };
  }
}

function writeMarker(root: string, marker: { rootId: string; createdAt: number }): void {
  const temp = join(root, `${MARKER_FILE}.${process.pid}.tmp`);
  try {
    const fd = openSync(temp, 'w', 0o644);
    try {
      writeSync(fd, `${JSON.stringify({ ...marker, note: 'design-sync: this folder is a sync folder. Do not remove this file.' }, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, join(root, MARKER_FILE));
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // never made
    }
    const { problem, todo } = fileSystemProblem(error);
    throw new SyncRootError(`${root} cannot be the sync folder: design-sync could not write its marker ${MARKER_FILE} in it because ${problem} (sync writes your designs' files there too). ${todo}`);
  }
}

/** The nearest of `path` and the folders around it that exists (to say where a folder could not be made). */
function nearestExisting(path: string): { path: string; isDirectory: boolean } | null {
  for (let at = path; ; at = dirname(at)) {
    try {
      return { path: at, isDirectory: lstatSync(at).isDirectory() };
    } catch {
      if (dirname(at) === at) return null;
    }
  }
}

/** Makes the folder `wanted` (and those around it) when missing, or says in words why it cannot be. */
function makeFolder(wanted: string): void {
  try {
    mkdirSync(wanted, { recursive: true });
    return;
  } catch (first) {
    let error = first;
    let near = nearestExisting(wanted);
    if (near?.isDirectory && near.path !== wanted) {
      // Node's recursive mkdir reports some failures as ENOENT (a read-only disk): making the first missing folder
      // alone gives the real reason (or works, and the rest is made).
      try {
        mkdirSync(join(near.path, relative(near.path, wanted).split(sep)[0]!));
        mkdirSync(wanted, { recursive: true });
        return;
      } catch (again) {
        error = again;
        near = nearestExisting(wanted);
      }
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (near && !near.isDirectory) {
      throw new SyncRootError(near.path === wanted
        ? `${wanted} is a file, not a folder: give the path of a folder for your designs (it is made when missing), for example ${join(dirname(wanted), 'Designs')}.`
        : `${wanted} cannot be made: ${near.path} is a file, not a folder. Give a path made of folders (it is made when missing).`);
    }
    if (code === 'EEXIST' || code === 'ENOTDIR') throw new SyncRootError(`${wanted} is not a folder: give the path of a folder for your designs (it is made when missing).`);
    const { problem, todo } = fileSystemProblem(error);
    const where = near && near.path !== wanted ? ` in ${near.path}` : '';
    throw new SyncRootError(`The sync folder ${wanted} cannot be made${where} because ${problem}. ${todo}`);
  }
}

/** Refuses, in words, a folder this user cannot list or write in (the marker and the designs' files go there). */
function checkAccess(folder: string): void {
  try {
    accessSync(folder, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    const { problem, todo } = fileSystemProblem(error);
    throw new SyncRootError(`${folder} cannot be the sync folder: it cannot be read and written because ${problem} (sync keeps its marker ${MARKER_FILE} and your designs' files there). ${todo}`);
  }
}

const inside = (child: string, parent: string) => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !parse(rel).root);
};

/**
 * The profile's one sync folder. Choosing it writes a marker with a fresh id into the folder and keeps the id;
 * every scan first checks that the folder still exists and holds that same marker, so an unmounted disk, an
 * empty mount point or a moved folder stops sync instead of looking like "every file was deleted".
 */
export class SyncFolder {
  constructor(private readonly db: SyncDatabase, private readonly now: () => number = Date.now) {}

  current(): SyncRoot | null {
    const row = statementsOf(this.db)('SELECT path, marker, created_at FROM sync_root WHERE id = 1').get() as
      { path: string; marker: string; created_at: number } | undefined;
    return row ? { path: row.path, marker: row.marker, createdAt: row.created_at } : null;
  }

  /**
   * Makes `path` the sync folder (created when missing). Choosing the same folder again is a no-op. Refused:
   * another folder while one is chosen (no silent switch), a folder another profile syncs (its marker), the
   * profile's own directory or one around it, the home directory or a file-system root.
   */
  choose(path: string, options: { profileDir?: string } = {}): SyncRoot {
    const wanted = resolve(path);
    const existing = this.current();
    if (existing) {
      if (resolve(existing.path) === wanted || (safeRealpath(wanted) ?? wanted) === (safeRealpath(existing.path) ?? existing.path)) return existing;
      throw new SyncRootError(
        `This profile already syncs ${existing.path}; it will not switch to ${wanted} by itself. ` +
        'Use another profile (--profile) for a second sync folder.',
      );
    }
    makeFolder(wanted);
    let real: string;
    try {
      real = realpathSync(wanted);
    } catch (error) {
      const { problem, todo } = fileSystemProblem(error);
      throw new SyncRootError(`The sync folder ${wanted} cannot be opened because ${problem}. ${todo}`);
    }
    if (!lstatSync(real).isDirectory()) throw new SyncRootError(`${wanted} is not a folder: give the path of a folder for your designs (it is made when missing).`);
    if (real === parse(real).root || real === safeRealpath(homedir())) {
      throw new SyncRootError(`${real} is too wide to be a sync folder (every folder in it would become a design): choose or create a folder for design-sync.`);
    }
    if (options.profileDir) {
      const profile = safeRealpath(options.profileDir) ?? resolve(options.profileDir);
      if (inside(real, profile) || inside(profile, real)) {
        throw new SyncRootError(`${real} holds or is inside the profile directory ${profile}: choose a folder apart from it.`);
      }
    }
    checkAccess(real);
    const read = readMarker(real);
    if (read.found === null && read.unreadable) {
      const { problem, todo } = fileSystemProblem(read.unreadable);
      throw new SyncRootError(`${real} cannot be the sync folder: its ${MARKER_FILE} cannot be read because ${problem}. ${todo}`);
    }
    const found = read.found;
    if (found) {
      throw new SyncRootError(
        `${real} is already the sync folder of another design-sync profile (it holds ${MARKER_FILE} with id ${found.rootId}). ` +
        `Choose another folder; if that profile is gone for good, remove ${join(real, MARKER_FILE)} first.`,
      );
    }
    const root: SyncRoot = { path: real, marker: randomUUID(), createdAt: this.now() };
    writeMarker(real, { rootId: root.marker, createdAt: root.createdAt });
    this.db.prepare('INSERT INTO sync_root (id, path, marker, created_at) VALUES (1, ?, ?, ?)').run(root.path, root.marker, root.createdAt);
    return root;
  }

  /** Whether the chosen folder is there and is ours; the reason says what to check when it is not. */
  verify(): RootCheck {
    const root = this.current();
    if (!root) return notThere({ id: 'sync.detail.noFolder' });
    const folder = root.path;
    let isDirectory = false;
    try {
      isDirectory = lstatSync(folder).isDirectory();
    } catch (error) {
      if (!isGone(error)) return notThere({ id: 'sync.detail.folderUnreadable', values: { folder, ...fileSystemProblemKey(error) } });
      return notThere({ id: 'sync.detail.folderMissing', values: { folder, parentGone: exists(dirname(folder)) ? 'no' : 'yes' } });
    }
    if (!isDirectory) return notThere({ id: 'sync.detail.notAFolder', values: { folder } });
    const read = readMarker(folder);
    if (read.found === null && read.unreadable) return notThere({ id: 'sync.detail.folderUnreadable', values: { folder, ...fileSystemProblemKey(read.unreadable) } });
    const marker = read.found;
    if (!marker) return notThere({ id: 'sync.detail.markerMissing', values: { folder, marker: MARKER_FILE } });
    if (marker.rootId !== root.marker) return notThere({ id: 'sync.detail.markerDiffers', values: { folder } });
    return { ok: true, root };
  }
}

function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function safeRealpath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
