import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureProfile, ProfileError } from '../../../electron/engine/profile/profile';
import { runCliCapturing } from '../../support/cli';
import { canMountPrivately, IS_ROOT, mountTmpfs, NOBODY, permissionsApply, RAW_OUTPUT, runCliChild } from '../../support/cli-child';

/**
 * A --profile that cannot be used is said plainly, naming the folder, the problem and what to do: never a raw EEXIST,
 * EACCES or EROFS, never a stack. Run through the CLI, as a person meets them.
 */

const scratch = mkdtempSync(join(tmpdir(), 'design-sync-profile-folder-'));
// Readable by every user, so that a CLI run as `nobody` reaches the folders below it.
chmodSync(scratch, 0o755);
afterAll(() => {
  chmodTree(scratch);
  rmSync(scratch, { recursive: true, force: true });
});

function chmodTree(path: string): void {
  try {
    chmodSync(path, 0o755);
  } catch {
    // gone already
  }
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** As a person with no special rights runs it: in this process, or as `nobody` where the tests run as root. */
async function asOrdinaryUser(profile: string, argv: string[]): Promise<{ code: number | null; out: string; err: string }> {
  if (!IS_ROOT) return runCliCapturing(profile, argv);
  return runCliChild(['--profile', profile, ...argv], { as: NOBODY });
}

// As root, the permission cases run the CLI as `nobody`, which needs a checkout readable by others (not one in a 0700 temp dir).
const NO_PERMISSIONS = 'permissions do not apply here (root, and the checkout is not readable by nobody): skipped';
const ROOT_WITHOUT_UNSHARE = 'a read-only file system needs root with unshare here (a private tmpfs mount): not available, skipped';

describe('--profile that cannot be used', () => {
  it('a file: says it is a file, not a folder, and to choose another --profile', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'not a folder');
    const run = await runCliCapturing(file, ['whoami']);
    expect(run.code).toBe(1);
    expect(run.err).toBe(`The profile folder ${file} is a file, not a folder: choose another --profile.`);
    expect(run.err).not.toMatch(RAW_OUTPUT);
    expect(run.out).toBe('');
  });

  it('inside a file: names the file that stands in the way', async () => {
    const file = join(scratch, 'in-the-way');
    writeFileSync(file, 'x');
    const profile = join(file, 'profile');
    const run = await runCliCapturing(profile, ['status']);
    expect(run.code).toBe(1);
    expect(run.err).toBe(`The profile folder ${profile} cannot be used: ${file} is a file, not a folder: choose another --profile.`);
    expect(run.err).not.toMatch(RAW_OUTPUT);
  });

  it('holding a file where its files folder should be: names that file', async () => {
    const profile = join(scratch, 'files-is-a-file');
    mkdirSync(profile);
    writeFileSync(join(profile, 'files'), 'x');
    const run = await runCliCapturing(profile, ['whoami']);
    expect(run.code).toBe(1);
    expect(run.err).toBe(`The profile folder ${profile} cannot be used: ${join(profile, 'files')} is a file, not a folder: choose another --profile.`);
  });

  it.skipIf(!permissionsApply())(`a folder without write permission: says so and what to do, makes nothing (${NO_PERMISSIONS} when skipped)`, async () => {
    const profile = join(scratch, 'read-only-folder');
    mkdirSync(profile);
    chmodSync(profile, 0o500);
    const run = await asOrdinaryUser(profile, ['whoami']);
    expect(run.code).toBe(1);
    expect(run.err.trim()).toBe(`The profile folder ${profile} cannot be written: you have no permission to write in ${profile}: choose another --profile, or give yourself write access to it.`);
    expect(run.err).not.toMatch(RAW_OUTPUT);
    expect(existsSync(join(profile, 'files'))).toBe(false);
  });

  it.skipIf(!permissionsApply())(`a new folder in a folder without write permission: names the folder it cannot write in (${NO_PERMISSIONS} when skipped)`, async () => {
    const parent = join(scratch, 'closed-parent');
    mkdirSync(parent);
    chmodSync(parent, 0o555);
    const profile = join(parent, 'profile');
    const run = await asOrdinaryUser(profile, ['status']);
    expect(run.code).toBe(1);
    expect(run.err.trim()).toBe(`The profile folder ${profile} cannot be written: you have no permission to write in ${parent}: choose another --profile, or give yourself write access to it.`);
    expect(existsSync(profile)).toBe(false);
  });

  describe.skipIf(!canMountPrivately())(`on a read-only disk (${ROOT_WITHOUT_UNSHARE} when skipped)`, () => {
    it('a new folder on it: says the disk is read-only', async () => {
      const mount = join(scratch, 'ro-new');
      mkdirSync(mount);
      const profile = join(mount, 'profile');
      const run = await runCliChild(['--profile', profile, 'whoami'], { inMountNamespace: mountTmpfs(mount, 'ro,size=64k') });
      expect(run.code).toBe(1);
      expect(run.err.trim()).toBe(`The profile folder ${profile} is on a read-only disk (${mount}): choose another --profile, on a disk that can be written.`);
      expect(run.err).not.toMatch(RAW_OUTPUT);
    });

    it('an existing folder that is itself read-only: says so', async () => {
      const mount = join(scratch, 'ro-existing');
      mkdirSync(mount);
      const run = await runCliChild(['--profile', mount, 'status'], { inMountNamespace: mountTmpfs(mount, 'ro,size=64k') });
      expect(run.code).toBe(1);
      expect(run.err.trim()).toMatch(new RegExp(`^The profile folder ${escape(mount)} is on a read-only disk: choose another --profile, on a disk that can be written\\.$`));
    });
  });

  it('the engine says the same without the CLI\'s words (the window and the Electron app)', () => {
    const file = join(scratch, 'engine-file');
    writeFileSync(file, 'x');
    let caught: unknown;
    try {
      ensureProfile(file);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProfileError);
    expect((caught as ProfileError).message).toBe(`The profile folder ${file} is a file, not a folder: choose another profile folder.`);
    expect((caught as ProfileError).code).toBe('ENOTDIR');
  });
});
