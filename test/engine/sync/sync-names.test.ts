import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSyncDatabase } from '../../../electron/engine/sync-state/sync-database';
import {
  conflictCopyName, designFolderName, isConflictCopy, isIgnoredName, localNameFor, nameKey, safeName, uniqueName,
} from '../../../electron/engine/sync/sync-names';
import { SyncFolder, SyncRootError } from '../../../electron/engine/sync-state/sync-root';
import { tempDir } from '../cache/cache-fixtures';

describe('names in the sync folder', () => {
  it.each([
    '.DS_Store', 'Thumbs.db', 'desktop.ini', 'gear.stl.part', 'model.crdownload', 'x.tmp', '~$report.docx', 'notes.txt~',
    '.gear.stl.swp', 'gear.swx', '.~lock.sheet.ods#', '.design-sync-ab12.tmp', '.design-sync.json', '.design-sync-trash',
  ])('ignores %s', (name) => expect(isIgnoredName(name)).toBe(true));

  it.each(['gear.stl', 'photo.JPG', 'readme', 'part-list.csv', 'a~b.txt'])('syncs %s', (name) => expect(isIgnoredName(name)).toBe(false));

  it('names conflict copies like Nextcloud, in local time, and recognizes them', () => {
    const at = new Date(2026, 10, 22, 9, 36);
    expect(conflictCopyName('gear.stl', at)).toBe('gear (conflicted copy 2026-11-22 0936).stl');
    expect(conflictCopyName('README', at, 2)).toBe('README (conflicted copy 2026-11-22 0936 2)');
    expect(isConflictCopy('gear (conflicted copy 2026-11-22 0936).stl')).toBe(true);
    expect(isConflictCopy('gear (copy).stl')).toBe(false);
  });

  it('makes folder names safe on Windows, macOS and Linux', () => {
    expect(safeName('con', 'x')).toBe('con-file');
    expect(safeName('LPT1.txt', 'x')).toBe('LPT1-txt');
    expect(safeName('a<b>:c"d|e?f*g/h\\i', 'x')).toBe('a-b--c-d-e-f-g-h-i');
    expect(safeName('trailing dots...', 'x')).toBe('trailing dots');
    expect(safeName('...', 'fallback')).toBe('fallback');
    expect(safeName('.hidden', 'x')).toBe('hidden');
    expect(safeName('cafe\u0301', 'x')).toBe('café');
    expect(designFolderName({ id: 7, slug: '', name: '' })).toBe('design-7');
    expect(designFolderName({ id: 7, slug: 'spur-gear' })).toBe('spur-gear');
  });

  it('makes names unique without regard to case or normalization', () => {
    const taken = new Set(['gear', 'gear-2', 'café.stl'].map(nameKey));
    expect(uniqueName('Gear', (k) => taken.has(k), false)).toBe('Gear-3');
    expect(uniqueName('CAFE\u0301.stl', (k) => taken.has(k), true)).toBe('CAFE\u0301 (2).stl');
  });

  it('keeps an image an image locally even when renamed without an extension on the service', () => {
    expect(localNameFor('image', { id: 1, name: 'Front view', url: '/uploads/image/file/1/front.png' })).toBe('Front view.png');
    expect(localNameFor('image', { id: 1, name: 'front.png', url: '/uploads/image/file/1/front.png' })).toBe('front.png');
    expect(localNameFor('document', { id: 2, name: 'Gear', url: '/uploads/document/file/2/gear.stl' })).toBe('Gear.stl');
    expect(localNameFor('document', { id: 2, name: 'a/b.stl', url: null })).toBe('a-b.stl');
  });
});

describe('the sync root', () => {
  const dirs: string[] = [];
  const dir = (prefix: string) => {
    const d = tempDir(prefix);
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('writes a marker, and stops when the folder is gone, replaced or loses its marker', () => {
    const profile = dir('root-profile');
    const db = openSyncDatabase(join(profile, 'sync.sqlite'));
    const folder = new SyncFolder(db);
    const rootPath = join(dir('root'), 'Designs');
    const root = folder.choose(rootPath, { profileDir: profile });
    expect(folder.verify()).toEqual({ ok: true, root });
    expect(folder.choose(rootPath)).toEqual(root);

    rmSync(join(rootPath, '.design-sync.json'));
    expect(folder.verify()).toMatchObject({ ok: false, reason: expect.stringMatching(/no longer holds its marker .*Sync is stopped; nothing was changed on the service/) });
    writeFileSync(join(rootPath, '.design-sync.json'), JSON.stringify({ rootId: 'someone-else' }));
    expect(folder.verify()).toMatchObject({ ok: false, reason: expect.stringMatching(/not the sync folder this profile chose/) });
    rmSync(rootPath, { recursive: true });
    expect(folder.verify()).toMatchObject({ ok: false, reason: expect.stringMatching(/^The sync folder .*Designs is missing \(disk unmounted or folder moved\?\)/) });
    db.close();
  });

  it('refuses another profile\'s folder, its own profile directory, and a silent switch', () => {
    const profileA = dir('root-a');
    const profileB = dir('root-b');
    const a = openSyncDatabase(join(profileA, 'sync.sqlite'));
    const b = openSyncDatabase(join(profileB, 'sync.sqlite'));
    const shared = join(dir('root-shared'), 'Designs');
    new SyncFolder(a).choose(shared, { profileDir: profileA });
    expect(() => new SyncFolder(b).choose(shared, { profileDir: profileB })).toThrow(/already the sync folder of another design-sync profile/);
    expect(() => new SyncFolder(b).choose(join(profileB, 'inside'), { profileDir: profileB })).toThrow(SyncRootError);
    expect(() => new SyncFolder(b).choose(profileB + '/..', { profileDir: profileB })).toThrow(/holds or is inside the profile directory|too wide/);
    const other = join(dir('root-other'), 'Elsewhere');
    mkdirSync(other);
    expect(() => new SyncFolder(a).choose(other)).toThrow(/will not switch/);
    a.close();
    b.close();
  });
});
