import { existsSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { profilePaths } from '../../../electron/engine/profile/profile';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { BaseFiles } from '../../../electron/engine/sync-state/base-files';
import { runCliCapturing } from '../../support/cli';
import { tempDir } from '../cache/cache-fixtures';
import { damagePages, leafPages, namesStartingWith } from '../cache/damaged-storage-fixtures';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const SERVICE = 'http://127.0.0.1:9';

/**
 * A profile whose sync database holds a queue (two uploads, a replaced file, a design edit waiting; one upload done,
 * one cancelled: history, not to rescue) and the last synced state of `synced` files. The engine is closed after, so
 * the WAL is in the file.
 */
async function profileWithQueue(options: { synced?: number; uploads?: number } = {}): Promise<string> {
  const profile = tempDir('damaged-sync');
  dirs.push(profile);
  const engine = await openEngine({ profileDir: profile, tokenStore: () => new MemoryTokenStore(), userAgent: 'test', serviceUrl: SERVICE });
  try {
    const { queue } = engine;
    queue.enqueue({ kind: 'upload', folder: 'Gear', path: 'Gear/gear.stl', designId: 5, fileKind: 'document', file: { size: 10, mtimeMs: 1 } });
    queue.enqueue({ kind: 'upload', folder: 'Gear', path: 'Gear/photo.jpg', designId: 5, fileKind: 'image', file: { size: 20, mtimeMs: 2 } });
    queue.enqueue({ kind: 'replace', folder: 'Clamp', path: 'Clamp/clamp.obj', designId: 6, fileKind: 'document', remoteId: 77, file: { size: 30, mtimeMs: 3 } });
    queue.enqueueDesignEdit(5, { name: 'Spur gear' }, 'Gear');
    queue.done(queue.enqueue({ kind: 'upload', folder: 'Gear', path: 'Gear/sent.stl', designId: 5, fileKind: 'document' }).id);
    queue.cancel(queue.enqueue({ kind: 'upload', folder: 'Gear', path: 'Gear/cancelled.stl', designId: 5, fileKind: 'document' }).id);
    for (let i = 0; i < (options.uploads ?? 0); i++) {
      queue.enqueue({ kind: 'upload', folder: 'Bulk', path: `Bulk/${'a long folder name/'.repeat(4)}part-${String(i).padStart(4, '0')}.stl`, designId: 9, fileKind: 'document' });
    }
    const base = new BaseFiles(engine.syncDb);
    for (let i = 0; i < (options.synced ?? 0); i++) {
      base.record({
        path: `Synced/file-${i}.stl`, folder: 'Synced', designId: 8, kind: 'document', remoteId: 1000 + i, remoteName: `file-${i}.stl`, remoteUpdatedAt: null,
        size: i, mtimeMs: i, inode: `1:${i}`, sha1: `${i}`.padStart(40, '0'), syncedAt: 1,
      });
    }
  } finally {
    await engine.close();
  }
  return profile;
}

const syncFile = (profile: string) => profilePaths(profile).syncDatabase;
const rescueFiles = (profile: string) => namesStartingWith(profile, 'sync-queue-rescued-');

interface RescueDocument {
  database: string;
  damage: string;
  complete: boolean;
  items: { id: number; kind: string; state: string; path: string | null; fileKind: string | null; designId: number | null; payload: unknown }[];
}

const readRescue = (profile: string, name: string) => JSON.parse(readFileSync(join(profile, name), 'utf8')) as RescueDocument;

function expectRefusal(profile: string, err: string): void {
  expect(err).toContain(`The sync database ${syncFile(profile)} is damaged (`);
  expect(err).toContain('Your files and the service are untouched.');
  expect(err).toContain('Move it aside (with its -wal and -shm files, if any) to start sync afresh (your folder will be compared with the service again;');
  expect(err).toMatch(/or restore it from a backup\.$/);
}

const UNREADABLE: [string, (path: string) => void, RegExp][] = [
  ['garbage over the whole file', (path) => writeFileSync(path, Buffer.alloc(statSync(path).size, 0x5a)), /\(file is not a database\)/],
  ['a text file in its place', (path) => writeFileSync(path, 'my notes\n'), /\(file is not a database\)/],
  ['truncated inside its first page', (path) => truncateSync(path, 100), /\(database disk image is malformed\)/],
  ['emptied (0 bytes)', (path) => truncateSync(path, 0), /\(the file is empty \(0 bytes\)\)/],
  ['a folder in its place', (path) => {
    rmSync(path);
    mkdirSync(path);
  }, /\(it is a folder, not a database file\)/],
];

describe('a damaged sync database', () => {
  it.each(UNREADABLE)('%s: status and sync refuse, naming the file and how to recover; nothing is recreated', async (_name, damage, reason) => {
    const profile = await profileWithQueue();
    damage(syncFile(profile));
    const before = statSync(syncFile(profile)).isFile() ? readFileSync(syncFile(profile)) : null;

    const status = await runCliCapturing(profile, ['status']);
    expect(status.code).toBe(1);
    expectRefusal(profile, status.err);
    expect(status.err).toMatch(reason);
    expect(status.err).toContain('the changes waiting to be sent could not be read from it');

    const folder = join(profile, 'Designs');
    const sync = await runCliCapturing(profile, ['--service', SERVICE, 'sync', folder]);
    expect(sync.code).toBe(1);
    expect(sync.err).toBe(status.err);

    // Never repaired, replaced or set aside: the person decides.
    if (before) expect(readFileSync(syncFile(profile)).equals(before)).toBe(true);
    else expect(statSync(syncFile(profile)).isDirectory()).toBe(true);
    expect(namesStartingWith(profile, 'sync.sqlite')).toEqual(['sync.sqlite']);
    expect(existsSync(folder)).toBe(false);
    expect(rescueFiles(profile)).toEqual([]);
  });

  it('partly readable (a page of the synced state damaged): the waiting changes are rescued to a file the message names', async () => {
    const profile = await profileWithQueue({ synced: 300 });
    damagePages(syncFile(profile), ['base_files'], (pages) => pages.slice(1, 2));
    const before = readFileSync(syncFile(profile));

    const status = await runCliCapturing(profile, ['status']);
    expect(status.code).toBe(1);
    expectRefusal(profile, status.err);
    const [rescued] = rescueFiles(profile);
    expect(rescued).toMatch(/^sync-queue-rescued-.*\.json$/);
    expect(status.err).toContain(`the 4 changes waiting to be sent are listed in ${join(profile, rescued!)}`);

    const document = readRescue(profile, rescued!);
    expect(document).toMatchObject({ database: syncFile(profile), complete: true });
    expect(document.items.map(({ kind, state, path, fileKind }) => ({ kind, state, path, fileKind }))).toEqual([
      { kind: 'upload', state: 'waiting', path: 'Gear/gear.stl', fileKind: 'document' },
      { kind: 'upload', state: 'waiting', path: 'Gear/photo.jpg', fileKind: 'image' },
      { kind: 'replace', state: 'waiting', path: 'Clamp/clamp.obj', fileKind: 'document' },
      { kind: 'update-design', state: 'waiting', path: null, fileKind: null },
    ]);
    expect(document.items[3]).toMatchObject({ designId: 5, payload: { fields: { name: 'Spur gear' }, designName: 'Gear' } });

    // Asked again (sync this time): refused the same way, the same rescue named, no second file; the database as it was.
    const sync = await runCliCapturing(profile, ['--service', SERVICE, 'sync', join(profile, 'Designs')]);
    expect(sync.code).toBe(1);
    expect(sync.err).toBe(status.err);
    expect(rescueFiles(profile)).toEqual([rescued]);
    expect(readFileSync(syncFile(profile)).equals(before)).toBe(true);
  });

  it('a damaged page inside the queue itself: what can be read on both sides of it is rescued, and the message says some may be missing', async () => {
    const profile = await profileWithQueue({ uploads: 300 });
    const leaves = leafPages(syncFile(profile), 'queue_items');
    expect(leaves.length).toBeGreaterThan(4);
    damagePages(syncFile(profile), ['queue_items'], () => [leaves[Math.floor(leaves.length / 2)]!]);

    const status = await runCliCapturing(profile, ['status']);
    expect(status.code).toBe(1);
    const [rescued] = rescueFiles(profile);
    const document = readRescue(profile, rescued!);
    expect(document.complete).toBe(false);
    expect(status.err).toContain(`the ${document.items.length} changes waiting to be sent that could still be read are listed in ${join(profile, rescued!)} (others may be missing)`);
    const paths = document.items.map((item) => item.path);
    // Read from the start up to the damaged page, and from the end back to it.
    expect(paths.slice(0, 3)).toEqual(['Gear/gear.stl', 'Gear/photo.jpg', 'Clamp/clamp.obj']);
    expect(paths.at(-1)).toMatch(/part-0299\.stl$/);
    expect(document.items.length).toBeGreaterThan(100);
    expect(document.items.length).toBeLessThan(304);
  });

  it('from a newer design-sync: refused, naming the file, never touched', async () => {
    const profile = await profileWithQueue();
    const db = new Database(syncFile(profile));
    db.pragma('user_version = 99');
    db.close();
    const before = readFileSync(syncFile(profile));
    const status = await runCliCapturing(profile, ['status']);
    expect(status.code).toBe(1);
    expect(status.err).toContain(`${syncFile(profile)} has sync schema version 99, newer than this design-sync knows`);
    expect(status.err).toContain('Use the newer design-sync with this profile');
    expect(readFileSync(syncFile(profile)).equals(before)).toBe(true);
    expect(rescueFiles(profile)).toEqual([]);
  });

  it('an intact one, however large its synced state, opens as before', async () => {
    const profile = await profileWithQueue({ synced: 2_000, uploads: 50 });
    const status = await runCliCapturing(profile, ['status', '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.out)).toBeTruthy();
    expect(rescueFiles(profile)).toEqual([]);
  });
});
