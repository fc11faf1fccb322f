import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, parse, relative, resolve, sep } from 'node:path';
import { statementsOf, type SyncDatabase } from './sync-database';

/** The file in the sync folder's root that names it (so another folder at the same path is never taken for it). */
export const MARKER_FILE = '.design-sync.json';

export interface SyncRoot {
  path: string;
  /** The id written into <root>/.design-sync.json. */
  marker: string;
  createdAt: number;
}

export type RootCheck = { ok: true; root: SyncRoot } | { ok: false; reason: string };

/** A folder that cannot be the sync folder, with the reason in words. */
export class SyncRootError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SyncRootError';
  }
}

function readMarker(root: string): { rootId: string; createdAt: number } | null {
  try {
    const value = JSON.parse(readFileSync(join(root, MARKER_FILE), 'utf8')) as { rootId?: unknown; createdAt?: unknown };
    return typeof value.rootId === 'string' ? { rootId: value.rootId, createdAt: Number(value.createdAt) || 0 } : null;
  } catch {
    return null;
  }
}

function writeMarker(root: string, marker: { rootId: string; createdAt: number }): void {
  const temp = join(root, `${MARKER_FILE}.${process.pid}.tmp`);
  const fd = openSync(temp, 'w', 0o644);
  try {
    writeSync(fd, `${JSON.stringify({ ...marker, note: 'design-sync: this folder is a sync folder. Do not remove this file.' }, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, join(root, MARKER_FILE));
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
    mkdirSync(wanted, { recursive: true });
    const real = realpathSync(wanted);
    if (!lstatSync(real).isDirectory()) throw new SyncRootError(`${wanted} is not a folder.`);
    if (real === parse(real).root || real === safeRealpath(homedir())) {
      throw new SyncRootError(`${real} is too wide to be a sync folder (every folder in it would become a design): choose or create a folder for design-sync.`);
    }
    if (options.profileDir) {
      const profile = safeRealpath(options.profileDir) ?? resolve(options.profileDir);
      if (inside(real, profile) || inside(profile, real)) {
        throw new SyncRootError(`${real} holds or is inside the profile directory ${profile}: choose a folder apart from it.`);
      }
    }
    const found = readMarker(real);
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
    if (!root) return { ok: false, reason: 'No sync folder has been chosen yet.' };
    const unchanged = 'Sync is stopped; nothing was changed on the service.';
    let isDirectory = false;
    try {
      isDirectory = lstatSync(root.path).isDirectory();
    } catch {
      const parentGone = !exists(dirname(root.path));
      return { ok: false, reason: `The sync folder ${root.path} is missing (${parentGone ? 'disk unmounted?' : 'disk unmounted or folder moved?'}). ${unchanged}` };
    }
    if (!isDirectory) return { ok: false, reason: `The sync folder ${root.path} is no longer a folder. ${unchanged}` };
    const marker = readMarker(root.path);
    if (!marker) {
      return {
        ok: false,
        reason: `The sync folder ${root.path} no longer holds its marker ${MARKER_FILE} (an empty mount point, or another folder put in its place?). ${unchanged}`,
      };
    }
    if (marker.rootId !== root.marker) {
      return { ok: false, reason: `The folder at ${root.path} is not the sync folder this profile chose (its marker id differs: another profile's folder, or a copy?). ${unchanged}` };
    }
    return { ok: true, root };
  }
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
