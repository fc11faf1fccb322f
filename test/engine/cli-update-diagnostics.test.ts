import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { updateDiagnostics } from '../../electron/cli/update-diagnostics';
import { runCliCapturing } from '../support/cli';
import { tempDir } from './cache/cache-fixtures';

/** `design-sync status --diagnostics` says where the desktop app's updates come from and on which channel. */
const saved = process.env.DESIGN_SYNC_UPDATE_URL;
const scratch: string[] = [];
afterEach(() => {
  if (saved === undefined) delete process.env.DESIGN_SYNC_UPDATE_URL;
  else process.env.DESIGN_SYNC_UPDATE_URL = saved;
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const BUILDER_CONFIG = resolve('build/electron-builder.json');

describe('design-sync status --diagnostics: updates', () => {
  it('shows the channel and the feed a desktop app built here follows', async () => {
    const profile = tempDir('cli-update-diagnostics');
    scratch.push(profile);
    process.env.DESIGN_SYNC_UPDATE_URL = 'https://updates.design-sync.example/stable/';
    const run = await runCliCapturing(profile, ['status', '--diagnostics']);
    expect(run.code).toBe(0);
    expect(run.out).toContain('Updates: channel latest, feed https://updates.design-sync.example/stable/ (a desktop app built here now); the desktop app checks at start and daily and keeps a download only when it matches the sha512 the feed publishes\n');
  });

  it('names the variable that gives the feed when it is not set', () => {
    expect(updateDiagnostics({ resourcesPath: undefined, builderConfig: BUILDER_CONFIG, env: {} })).toEqual([
      expect.stringMatching(/^Updates: channel latest, feed given by DESIGN_SYNC_UPDATE_URL when the desktop app is built \(not set here\)/),
    ]);
  });

  it('reads the feed built into an app (its app-update.yml) first, and says when there is none or it cannot be read', () => {
    const resources = tempDir('cli-update-resources');
    scratch.push(resources);
    mkdirSync(resources, { recursive: true });
    writeFileSync(join(resources, 'app-update.yml'), 'provider: github\nowner: design-sync\nrepo: design-sync\nchannel: beta\n');
    expect(updateDiagnostics({ resourcesPath: resources, builderConfig: BUILDER_CONFIG, env: {} })[0]).toMatch(/^Updates: channel beta, feed https:\/\/github.com\/design-sync\/design-sync\/releases \(built into this app: /);
    writeFileSync(join(resources, 'app-update.yml'), 'provider: s3\n');
    expect(updateDiagnostics({ resourcesPath: resources, builderConfig: BUILDER_CONFIG, env: {} })[0]).toMatch(/^Updates: the update configuration cannot be read: .*does not use \(s3\)/);
    expect(updateDiagnostics({ resourcesPath: undefined, builderConfig: join(resources, 'absent.json'), env: {} })).toEqual(['Updates: this installation has no update feed: update design-sync the way you installed it']);
  });
});
