import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCliCapturing } from '../../support/cli';
import { startTestService, type TestService } from '../../../harness/local-service';
import { tempDir } from '../cache/cache-fixtures';
import { canMountPrivately, chownTree, escapeRegExp, IS_ROOT, mountTmpfs, NOBODY, permissionsApply, profileDir, RAW_OUTPUT, removeTree, runCli, type CliOptions } from '../../support/cli-child';
import { clientFor } from '../../../harness/sync-computers';

let service: TestService;
const dirs: string[] = [];
let users = 0;

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
});
beforeEach(async () => {
  await service.request('DELETE', '/__admin/faults');
});
afterAll(async () => {
  await service.stop();
  for (const dir of dirs) removeTree(dir);
});

/**
 * A user with a design holding `part.stl` on the service, and a signed-in profile (owned by `owner` when given, so the
 * CLI can run as that user). The sync folder is not chosen yet.
 */
async function setUp(owner?: { uid: number; gid: number }, partBytes = 64) {
  const { token } = service.addUser(`exit${++users}`);
  const api = clientFor(service.url, token);
  const design = await api.createDesign({ name: 'Latch', excerpt: 'A latch', license: 'cc0' });
  const source = join(tempDir('exit-source'), 'part.stl');
  dirs.push(join(source, '..'));
  writeFileSync(source, Buffer.alloc(partBytes, 's'));
  const part = await api.uploadDocument(design.id, { path: source });
  const profile = profileDir('exit-profile');
  const parent = tempDir('exit-root');
  dirs.push(profile, parent);
  expect((await runCliCapturing(profile, ['--service', service.url, 'login', '--with-token'], token)).code).toBe(0);
  if (owner) chownTree(profile, owner);
  if (owner) chownTree(parent, owner);
  const fileUrl = new URL((part.file as { url: string }).url, service.url);
  return { api, design, profile, root: join(parent, 'Designs'), parent, filePath: fileUrl.pathname };
}

/** The design's folder in the sync folder (named from its slug, unique on the service: latch, latch-2…). */
const designFolder = (root: string) => readdirSync(root).find((name) => name.startsWith('latch'))!;

const sync = (profile: string, root: string, options: CliOptions = {}) => runCli(profile, ['sync', root, '--accept-content-policy', '--settle-ms', '100'], options);

describe('design-sync sync exit status: not 0 whenever the job was not done', () => {
  it('a download the service fails (HTTP 500) exits 1 naming the file and what to do; once it works, 0', async () => {
    const { profile, root, filePath } = await setUp();
    await service.request('POST', '/__admin/faults', { json: { kind: 'status', status: 500, method: 'GET', path: `^${escapeRegExp(filePath)}$` } });

    const failed = await sync(profile, root);
    expect(failed.code).toBe(1);
    expect(failed.err).toMatch(/Not everything could be synced:/);
    const folder = designFolder(root);
    expect(failed.err).toMatch(new RegExp(`${folder}/part\\.stl: could not bring the service's change into the folder \\(.*HTTP 500.*\\)`));
    expect(failed.err).toMatch(/then run `design-sync sync` again/);
    expect(failed.out).not.toMatch(/in sync\./);
    expect(existsSync(join(root, folder, 'part.stl'))).toBe(false);

    await service.request('DELETE', '/__admin/faults');
    const fixed = await sync(profile, root);
    expect(fixed.err).toBe('');
    expect(fixed.code).toBe(0);
    expect(fixed.out).toMatch(new RegExp(`downloaded: ${folder}/part\\.stl`));
    expect(fixed.out).toMatch(/in sync\./);
  }, 60_000);

  it('the service failing to list the own designs (HTTP 500) exits 1: the service was not checked', async () => {
    const { profile, root } = await setUp();
    await service.request('POST', '/__admin/faults', { json: { kind: 'status', status: 500, method: 'GET', path: '^/v1/users/[^/]+/designs$' } });

    const failed = await sync(profile, root);
    expect(failed.code).toBe(1);
    const problem = 'The service had a problem when it was asked for changes, so nothing was brought from it this time: it is asked again later.';
    expect(failed.err).toContain(`Not everything could be synced:\n  ${problem}`);
    // Said as it happened and in the summary that fails the command: never more, never nested in itself.
    expect(failed.err.split(problem)).toHaveLength(3);
    expect(failed.err).toMatch(/then run `design-sync sync` again/);
    expect(failed.out).not.toMatch(/in sync\./);
  }, 60_000);

  it.skipIf(!permissionsApply())('a design folder that cannot be written (read-only) exits 1 in words, never EACCES; made writable again, 0', async () => {
    // chmod does not stop root: as root, the CLI runs as `nobody`, who owns the profile and the folder.
    const owner = IS_ROOT ? NOBODY : undefined;
    const options: CliOptions = owner ? { as: owner } : {};
    const { profile, root, api, design } = await setUp(owner);
    const first = await sync(profile, root, options);
    expect(first.code, first.err).toBe(0);
    const name = designFolder(root);
    const folder = join(root, name);
    expect(readdirSync(folder)).toEqual(['part.stl']);

    const source = join(tempDir('exit-source'), 'more.stl');
    dirs.push(join(source, '..'));
    writeFileSync(source, 'solid more');
    await api.uploadDocument(design.id, { path: source });
    chmodSync(folder, 0o555);

    const failed = await sync(profile, root, options);
    expect(failed.code).toBe(1);
    expect(failed.err).toMatch(new RegExp(`${name}/more\\.stl: could not bring the service's change into the folder \\(cannot write in ${escapeRegExp(folder)}: permission is denied; make the folder writable for your user`));
    expect(failed.err).toMatch(/then run `design-sync sync` again/);
    expect(failed.err).not.toMatch(RAW_OUTPUT);

    chmodSync(folder, 0o755);
    const fixed = await sync(profile, root, options);
    expect(fixed.code, fixed.err).toBe(0);
    expect(readdirSync(folder).sort()).toEqual(['more.stl', 'part.stl']);
  }, 60_000);

  it.skipIf(!canMountPrivately())('a full disk (a 64 KiB file system of its own) exits 1 saying the disk is full, never ENOSPC', async () => {
    const { profile, parent } = await setUp(undefined, 256 * 1024);
    const mountPoint = join(parent, 'Small');
    mkdirSync(mountPoint);

    const failed = await sync(profile, mountPoint, { inMountNamespace: mountTmpfs(mountPoint, 'size=64k') });
    expect(failed.code).toBe(1);
    expect(failed.err).toMatch(/latch[^/]*\/part\.stl: could not bring the service's change into the folder \(cannot write in .*\/Small\/latch[^/]*: the disk is full; free some space on the disk, then sync again\)/);
    expect(failed.err).toMatch(/then run `design-sync sync` again/);
    expect(failed.err).not.toMatch(RAW_OUTPUT);
  }, 60_000);
});
