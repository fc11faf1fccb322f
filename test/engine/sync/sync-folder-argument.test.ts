import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../../harness/local-service';
import { canMountPrivately, chownTree, escapeRegExp, IS_ROOT, mountTmpfs, NOBODY, permissionsApply, profileDir, RAW_OUTPUT, removeTree, runCli, type CliOptions } from '../../support/cli-child';

let service: TestService;
const dirs: string[] = [];

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
  for (const dir of dirs) removeTree(dir);
});

/** chmod does not stop root: as root, the CLI runs as `nobody` (who owns the profile, not the folders tested). */
const asUser: CliOptions = IS_ROOT ? { as: NOBODY } : {};

/** A folder of the test's own, that the CLI's user may look into (only the folders tested are closed). */
function workDir(prefix: string): string {
  const dir = profileDir(prefix);
  chmodSync(dir, 0o755);
  dirs.push(dir);
  return dir;
}

/** `design-sync sync <folder>` on a fresh profile (the folder is checked before signing in matters). */
async function chooseFolder(folder: string, options: CliOptions = {}) {
  const profile = workDir('folder-arg-profile');
  if (options.as) chownTree(profile, options.as);
  const run = await runCli(profile, ['--service', service.url, 'sync', folder], options);
  expect(run.out).not.toMatch(/sync folder:/);
  expect(run.err, 'no raw system error, no stack').not.toMatch(RAW_OUTPUT);
  return run;
}

describe('design-sync sync <folder>: a folder that cannot be the sync folder says what is wrong and what to do', () => {
  it('a file instead of a folder (EEXIST before)', async () => {
    const file = join(workDir('folder-arg-file'), 'notes.txt');
    writeFileSync(file, 'not a folder');
    const { code, err } = await chooseFolder(file);
    expect(code).toBe(1);
    expect(err).toMatch(new RegExp(`^${escapeRegExp(file)} is a file, not a folder: give the path of a folder for your designs \\(it is made when missing\\)`, 'm'));
  }, 30_000);

  it('a path through a file (ENOTDIR before)', async () => {
    const file = join(workDir('folder-arg-through'), 'notes.txt');
    writeFileSync(file, 'not a folder');
    const { code, err } = await chooseFolder(join(file, 'Designs'));
    expect(code).toBe(1);
    expect(err).toMatch(new RegExp(`${escapeRegExp(join(file, 'Designs'))} cannot be made: ${escapeRegExp(file)} is a file, not a folder\\. Give a path made of folders`));
  }, 30_000);

  it.skipIf(!permissionsApply())('a new folder inside one without write permission (EACCES on mkdir before)', async () => {
    const locked = join(workDir('folder-arg-locked'), 'locked');
    mkdirSync(locked, { mode: 0o555 });
    chmodSync(locked, 0o555);
    const { code, err } = await chooseFolder(join(locked, 'Designs'), asUser);
    expect(code).toBe(1);
    expect(err).toMatch(new RegExp(`The sync folder ${escapeRegExp(join(locked, 'Designs'))} cannot be made in ${escapeRegExp(locked)} because permission is denied\\. Give your user permission to read and write it, or choose a folder of your own\\.`));
    expect(existsSync(join(locked, 'Designs'))).toBe(false);
  }, 30_000);

  it.skipIf(!permissionsApply())('a read-only folder (EACCES writing the marker before)', async () => {
    const readOnly = join(workDir('folder-arg-readonly'), 'Designs');
    mkdirSync(readOnly);
    chmodSync(readOnly, 0o555);
    const { code, err } = await chooseFolder(readOnly, asUser);
    expect(code).toBe(1);
    expect(err).toMatch(new RegExp(`${escapeRegExp(readOnly)} cannot be the sync folder: it cannot be read and written because permission is denied \\(sync keeps its marker \\.design-sync\\.json and your designs' files there\\)\\. Give your user permission`));
    expect(existsSync(join(readOnly, '.design-sync.json'))).toBe(false);
  }, 30_000);

  it.skipIf(!permissionsApply())('a folder without any permission (mode 000)', async () => {
    const closed = join(workDir('folder-arg-closed'), 'Designs');
    mkdirSync(closed);
    chmodSync(closed, 0o000);
    const { code, err } = await chooseFolder(closed, asUser);
    expect(code).toBe(1);
    expect(err).toMatch(new RegExp(`${escapeRegExp(closed)} cannot be the sync folder: it cannot be read and written because permission is denied`));
  }, 30_000);

  it.skipIf(!canMountPrivately())('a folder on a read-only disk, and a new folder on one (EROFS before)', async () => {
    const mounted = join(workDir('folder-arg-rofs'), 'Designs');
    mkdirSync(mounted);
    const readOnlyDisk: CliOptions = { inMountNamespace: mountTmpfs(mounted, 'ro,size=64k') };

    const existing = await chooseFolder(mounted, readOnlyDisk);
    expect(existing.code).toBe(1);
    expect(existing.err).toMatch(new RegExp(`${escapeRegExp(mounted)} cannot be the sync folder: it cannot be read and written because it is on a read-only disk .*Choose a folder on a disk you can write to, or mount the disk read-write\\.`));

    const inside = await chooseFolder(join(mounted, 'More'), readOnlyDisk);
    expect(inside.code).toBe(1);
    expect(inside.err).toMatch(new RegExp(`The sync folder ${escapeRegExp(join(mounted, 'More'))} cannot be made in ${escapeRegExp(mounted)} because it is on a read-only disk\\. Choose a folder on a disk you can write to`));
  }, 30_000);
});
