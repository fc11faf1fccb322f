/**
 * The real download-and-verify path of updates: electron-updater (its AppImage updater, its generic provider and its
 * Electron HTTP executor) against a release feed served on loopback, through the shell's update source and controller.
 * No Electron exists here: the `electron` module electron-updater requires is a stand-in whose `net.request` is Node's
 * http.request (the same request/response shape) and whose `app` is a packaged app at version 0.1.0.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type RequestOptions, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpdatesView } from '../../shared/updates/updates-view';
import { electronUpdaterSource } from '../../electron/shell/updates/electron-updater-source';
import { UpdateController } from '../../electron/shell/updates/update-controller';

vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

/** What electron-updater reaches of Electron: the app, its network stack, its autoUpdater's event. */
const fakeElectron = {
  app: Object.assign(new EventEmitter(), {
    isPackaged: true,
    getVersion: (): string => '0.1.0',
    getName: () => 'design-sync',
    getAppPath: () => '/nonexistent',
    getPath: (name: string) => join(scratch, name),
    whenReady: () => Promise.resolve(),
    quit: vi.fn(),
    relaunch: vi.fn(),
  }),
  net: {
    request: ({ session: _session, redirect: _redirect, ...options }: RequestOptions & { session?: unknown; redirect?: unknown }) => httpRequest(options),
  },
  session: { fromPartition: () => ({}) },
  autoUpdater: new EventEmitter(),
};
const requireHere = createRequire(import.meta.url);
const electronId = requireHere.resolve('electron');
requireHere.cache[electronId] = { id: electronId, filename: electronId, loaded: true, exports: fakeElectron } as never;
const { AppImageUpdater } = requireHere('electron-updater') as typeof import('electron-updater');

let scratch = '';
let server: Server | null = null;
const saved = { resourcesPath: (process as { resourcesPath?: string }).resourcesPath, APPIMAGE: process.env.APPIMAGE, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME };

/** The release 0.2.0 as a feed publishes it: its channel file names the file, its size and its sha512. */
const release = Buffer.from(Array.from({ length: 4096 }, (_, i) => `design-sync 0.2.0 AppImage payload line ${i}\n`).join(''));
const sha512 = createHash('sha512').update(release).digest('base64');
const channelFile = [
  'version: 0.2.0',
  'files:',
  '  - url: design-sync-0.2.0.AppImage',
  `    sha512: ${sha512}`,
  `    size: ${release.length}`,
  'path: design-sync-0.2.0.AppImage',
  `sha512: ${sha512}`,
  "releaseDate: '2026-11-01T00:00:00.000Z'",
  '',
].join('\n');

/** Serves the feed on 127.0.0.1; `served` is what the release's address answers (the real bytes, or others). */
async function serveFeed(served: Buffer): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/latest-linux.yml') {
      res.writeHead(200, { 'content-type': 'text/yaml' }).end(channelFile);
    } else if (path === '/design-sync-0.2.0.AppImage') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': served.length }).end(served);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests };
}

/** A packaged AppImage at 0.1.0 whose built-in feed (app-update.yml, as electron-builder writes it) is `feed`. */
function packagedApp(feed: string) {
  const resources = join(scratch, 'resources');
  mkdirSync(resources, { recursive: true });
  writeFileSync(join(resources, 'app-update.yml'), `provider: generic\nurl: ${feed}\nupdaterCacheDirName: design-sync-updater\n`);
  (process as { resourcesPath?: string }).resourcesPath = resources;
  process.env.APPIMAGE = join(scratch, 'design-sync-0.1.0.AppImage');
  writeFileSync(process.env.APPIMAGE, 'the running 0.1.0 AppImage');
  process.env.XDG_CACHE_HOME = join(scratch, 'cache');
  const log: string[] = [];
  const updater = new AppImageUpdater();
  const source = electronUpdaterSource({ updater: () => updater, isPackaged: true, platform: 'linux', resourcesPath: resources, env: process.env, log: (line) => log.push(line) });
  const views: UpdatesView[] = [];
  const timers: { ms: number }[] = [];
  const controller = new UpdateController({
    source, currentVersion: fakeElectron.app.getVersion(), now: () => new Date('2026-11-29T08:00:00.000Z'),
    schedule: (_callback, ms) => { timers.push({ ms }); return () => undefined; },
    restart: vi.fn(), log: (line) => log.push(line), changed: (view) => views.push(view),
  });
  return { controller, views, timers, log, pendingDir: join(scratch, 'cache', 'design-sync-updater', 'pending') };
}

const pendingFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((name) => !name.startsWith('.')) : []);

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'design-sync-updates-'));
});

afterEach(async () => {
  if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
  server = null;
  (process as { resourcesPath?: string }).resourcesPath = saved.resourcesPath;
  for (const key of ['APPIMAGE', 'XDG_CACHE_HOME'] as const) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  rmSync(scratch, { recursive: true, force: true });
});

describe('updates from a release feed', () => {
  it('downloads a newer version in the background, checks its sha512 against the feed, and has it ready to install', async () => {
    const feed = await serveFeed(release);
    const app = packagedApp(feed.url);
    expect(app.controller.view()).toMatchObject({ state: 'idle', feed: feed.url, channel: 'latest', currentVersion: '0.1.0' });

    await app.controller.checkNow();

    expect(app.controller.view()).toMatchObject({ state: 'ready', version: '0.2.0', reason: null, lastCheckedAt: '2026-11-29T08:00:00.000Z' });
    expect(app.views.map((view) => view.state)).toEqual(expect.arrayContaining(['checking', 'downloading', 'ready']));
    expect(feed.requests.some((url) => url.startsWith('/latest-linux.yml'))).toBe(true);
    expect(feed.requests.some((url) => url.startsWith('/design-sync-0.2.0.AppImage'))).toBe(true);
    const [downloaded] = pendingFiles(app.pendingDir).filter((name) => name.endsWith('.AppImage'));
    expect(downloaded).toBe('design-sync-0.2.0.AppImage');
  });

  it('refuses a download whose bytes do not match the sha512 the feed published: deleted, not installed, tried again later', async () => {
    const tampered = Buffer.from(release);
    tampered.write('tampered', 1000);
    const feed = await serveFeed(tampered);
    const app = packagedApp(feed.url);

    await app.controller.checkNow();

    expect(app.controller.view()).toMatchObject({ state: 'failed', version: null, reason: expect.stringContaining('did not match the checksum (sha512)') });
    expect(app.controller.view().nextCheckAt).not.toBeNull();
    expect(app.timers.at(-1)).toEqual({ ms: 15 * 60 * 1000 });
    expect(pendingFiles(app.pendingDir).filter((name) => name.endsWith('.AppImage'))).toEqual([]);
    expect(app.log.join('\n')).toMatch(/sha512 checksum mismatch/);
  });

  it('says the feed could not be reached when it is down, and asks again later without failing anything else', async () => {
    const feed = await serveFeed(release);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = null;
    const app = packagedApp(feed.url);

    await app.controller.checkNow();

    expect(app.controller.view()).toMatchObject({ state: 'failed', reason: expect.stringContaining(`The update feed at ${feed.url} could not be reached`) });
    expect(app.timers.at(-1)).toEqual({ ms: 15 * 60 * 1000 });
    // A second failure waits longer.
    await app.controller.checkNow();
    expect(app.timers.at(-1)).toEqual({ ms: 60 * 60 * 1000 });
  });

  it('says the feed has no release information when it answers 404 for the channel file', async () => {
    const feed = await serveFeed(release);
    const app = packagedApp(`${feed.url}missing/`);

    await app.controller.checkNow();

    expect(app.controller.view()).toMatchObject({ state: 'failed', reason: expect.stringMatching(/did not have the release information/) });
  });

  it('is up to date when the feed offers the version already running, and asks again a day later', async () => {
    const feed = await serveFeed(release);
    fakeElectron.app.getVersion = () => '0.2.0';
    try {
      const app = packagedApp(feed.url);
      await app.controller.checkNow();
      expect(app.controller.view()).toMatchObject({ state: 'up-to-date', version: null, nextCheckAt: '2026-11-30T08:00:00.000Z' });
      expect(app.timers.at(-1)).toEqual({ ms: 24 * 60 * 60 * 1000 });
      expect(feed.requests.some((url) => url.includes('.AppImage'))).toBe(false);
    } finally {
      fakeElectron.app.getVersion = () => '0.1.0';
    }
  });

  it('is unavailable, without asking anything, in a development build or a copy built without a feed', () => {
    const resources = join(scratch, 'resources');
    mkdirSync(resources, { recursive: true });
    const updater = new AppImageUpdater();
    const dev = electronUpdaterSource({ updater: () => updater, isPackaged: false, platform: 'linux', resourcesPath: resources, env: { APPIMAGE: '/x.AppImage' }, log: () => undefined });
    expect(dev.unavailableReason()).toMatch(/development build/);
    const noFeed = electronUpdaterSource({ updater: () => updater, isPackaged: true, platform: 'linux', resourcesPath: resources, env: { APPIMAGE: '/x.AppImage' }, log: () => undefined });
    expect(noFeed.unavailableReason()).toMatch(/built without an update feed/);
    writeFileSync(join(resources, 'app-update.yml'), 'provider: github\nowner: design-sync\nrepo: design-sync\n');
    const notAppImage = electronUpdaterSource({ updater: () => updater, isPackaged: true, platform: 'linux', resourcesPath: resources, env: {}, log: () => undefined });
    expect(notAppImage).toMatchObject({ feed: 'https://github.com/design-sync/design-sync/releases', channel: 'latest' });
    expect(notAppImage.unavailableReason()).toMatch(/AppImage/);
  });
});
