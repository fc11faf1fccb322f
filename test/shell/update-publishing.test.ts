/**
 * The update feed built into the app: electron-builder's `publish` configuration (a generic feed whose address is given
 * when the app is built, GitHub releases as the documented alternative), expanded by electron-builder's own macro
 * code, and read back the way the app reads the app-update.yml electron-builder writes from it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { dump } from 'js-yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readBuiltInFeed } from '../../electron/shell/updates/electron-updater-source';

// The code under test needs none of Electron; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

const config = JSON.parse(readFileSync(resolve('build/electron-builder.json'), 'utf8')) as { publish: Record<string, string>[] };
const requireHere = createRequire(import.meta.url);
const requireFromBuilder = createRequire(requireHere.resolve('app-builder-lib/package.json'));
const { expandMacro } = requireFromBuilder('./out/util/macroExpander') as { expandMacro(pattern: string, arch: string | null, appInfo: object): string };
const appInfo = { version: '0.1.0', productName: 'design-sync', productFilename: 'design-sync', channel: null, buildNumber: undefined, sanitizedName: 'design-sync' };

let scratch: string | null = null;
const savedUrl = process.env.DESIGN_SYNC_UPDATE_URL;
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = null;
  if (savedUrl === undefined) delete process.env.DESIGN_SYNC_UPDATE_URL;
  else process.env.DESIGN_SYNC_UPDATE_URL = savedUrl;
});

/** What electron-builder writes to resources/app-update.yml for the first publish entry, its macros expanded. */
function appUpdateYml(entry: Record<string, string>): string {
  const expanded = Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, expandMacro(value, 'x64', appInfo)]));
  scratch = mkdtempSync(join(tmpdir(), 'design-sync-publish-'));
  const path = join(scratch, 'app-update.yml');
  writeFileSync(path, dump({ ...expanded, updaterCacheDirName: 'design-sync-updater' }));
  return path;
}

describe('the update feed built into the app', () => {
  it('is a generic feed whose address is given when the app is built (DESIGN_SYNC_UPDATE_URL), on the stable channel', () => {
    expect(config.publish).toEqual([{ provider: 'generic', url: '${env.DESIGN_SYNC_UPDATE_URL}', channel: 'latest' }]);
    process.env.DESIGN_SYNC_UPDATE_URL = 'https://updates.design-sync.example/releases/';
    expect(readBuiltInFeed(appUpdateYml(config.publish[0]!))).toEqual({ feed: 'https://updates.design-sync.example/releases/', channel: 'latest' });
  });

  it('refuses to build without the feed\'s address, naming the variable', () => {
    delete process.env.DESIGN_SYNC_UPDATE_URL;
    expect(() => appUpdateYml(config.publish[0]!)).toThrow(/env DESIGN_SYNC_UPDATE_URL is not defined/);
  });

  it('reads the documented alternative, GitHub releases, as that repository\'s releases page', () => {
    expect(readBuiltInFeed(appUpdateYml({ provider: 'github', owner: 'design-sync', repo: 'design-sync' }))).toEqual({ feed: 'https://github.com/design-sync/design-sync/releases', channel: 'latest' });
  });

  it('says so when the file names a provider the app does not use, or is not a configuration', () => {
    expect(() => readBuiltInFeed(appUpdateYml({ provider: 's3', bucket: 'x' }))).toThrow(/update provider design-sync does not use \(s3\)/);
    writeFileSync(join(scratch!, 'app-update.yml'), 'just words');
    expect(() => readBuiltInFeed(join(scratch!, 'app-update.yml'))).toThrow(/is not an update configuration/);
    expect(readBuiltInFeed(join(scratch!, 'absent.yml'))).toBeNull();
  });
});
