import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SyncView } from '../../../shared';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import type { EventMessage } from '../../../electron/engine/contract/contract-endpoint';
import { subscribeToEngine } from '../../../electron/engine/contract/engine-events';
import { syncView } from '../../../electron/engine/contract/views/sync-view';
import type { Engine } from '../../../electron/engine/runtime/engine';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { memorySettingsStore, type SettingsStore } from '../../../electron/engine/settings/settings-store';
import { startService, type RunningService } from '../../../service/server/start-service';
import { startTestService, type TestService } from '../../../harness/local-service';
import { until } from '../../../harness/until';
import { tempDir } from '../cache/cache-fixtures';
import { clientFor } from '../../../harness/sync-computers';
import { servicesOf } from '../../../electron/engine/composition/engine-services';

let service: TestService;
let token: string;
const cleanups: (() => Promise<void> | void)[] = [];
const accepted = () => memorySettingsStore({ contentPolicyAcceptedAt: new Date().toISOString() });

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  token = service.addUser('status').token;
});
afterAll(async () => service.stop());
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await service.request('DELETE', '/__admin/faults');
});

async function open(options: { url?: string; token?: string | null; settings?: SettingsStore; root?: boolean } = {}): Promise<{ engine: Engine; root: string }> {
  const profile = tempDir('status-profile');
  const root = join(tempDir('status-root'), 'Designs');
  cleanups.push(() => rmSync(profile, { recursive: true, force: true }), () => rmSync(join(root, '..'), { recursive: true, force: true }));
  const engine = await openEngine({
    profileDir: profile, serviceUrl: options.url ?? service.url, userAgent: 'design-sync-test', settleMs: 100, trash: 'folder',
    tokenStore: () => new MemoryTokenStore(options.token === undefined ? token : options.token),
    settingsStore: () => options.settings ?? accepted(),
  });
  cleanups.push(() => engine.close());
  if (options.root !== false) await engine.sync.chooseFolder(root);
  return { engine, root };
}

/** A window on the engine: the contract's subscriber, with every sync view it was told. */
function windowOn(engine: Engine): { views: SyncView[]; last: () => SyncView | undefined } {
  const views: SyncView[] = [];
  const off = subscribeToEngine(servicesOf(engine), (event: EventMessage) => {
    if (event.name === 'sync.changed') views.push(event.payload);
  });
  cleanups.push(off);
  return { views, last: () => views.at(-1) };
}

describe('the sync status, from the facts of the running engine', () => {
  it('says "waiting for you", never offline, while the content policy waits and 50 files come down from the service', async () => {
    const api = clientFor(service.url, token);
    const design = await api.createDesign({ name: 'Fifty parts', excerpt: 'x', license: 'cc0' });
    const files = mkdtempSync(join(tmpdir(), 'status-files-'));
    cleanups.push(() => rmSync(files, { recursive: true, force: true }));
    for (let i = 0; i < 50; i++) {
      const path = join(files, `part-${i}.stl`);
      writeFileSync(path, `solid part${i}\nendsolid part${i}\n`);
      await api.uploadDocument(design.id, { path });
    }
    const { engine, root } = await open({ settings: memorySettingsStore() });
    const window = windowOn(engine);
    await engine.startBackground();

    await until('the 50 files in the design folder', () => {
      const folder = engine.sync.syncParts().sync.folders.ofDesign(design.id);
      // The folder is named in the sync state a moment before it is made on disk.
      return folder && existsSync(join(root, folder.folder)) && readdirSync(join(root, folder.folder)).filter((name) => name.endsWith('.stl')).length === 50;
    }, 60_000);
    const status = await until('waiting for you', () => {
      const view = syncView(servicesOf(engine));
      return view.state === 'attention' && view;
    });
    expect(status).toMatchObject({ reasonCode: 'content-policy', reason: expect.stringMatching(/right to publish/) as string });
    expect(window.views.length).toBeGreaterThan(0);
    expect(window.views.filter((view) => view.state === 'offline')).toEqual([]);
  });

  it('says up to date once in step, and sending with counts while uploads go', async () => {
    const api = clientFor(service.url, token);
    const design = await api.createDesign({ name: 'Counted hinge', excerpt: 'x', license: 'cc0' });
    const { engine, root } = await open();
    const window = windowOn(engine);
    await engine.startBackground();
    const folder = await until('the design folder', () => engine.sync.syncParts().sync.folders.ofDesign(design.id));
    await until('up to date', () => syncView(servicesOf(engine)).state === 'up-to-date');
    expect(syncView(servicesOf(engine))).toMatchObject({ reasonCode: 'in-step', reason: null });

    await service.request('POST', '/__admin/faults', { json: { kind: 'latency', ms: 1500, method: 'POST', path: `^/v1/designs/${design.id}/documents$`, count: 1 } });
    writeFileSync(join(root, folder.folder, 'hinge.stl'), 'solid hinge');
    const sending = await until('sending', () => window.views.find((view) => view.reasonCode === 'sending'));
    expect(sending).toMatchObject({ state: 'syncing', reason: '1 change to send.' });
    await until('up to date again', () => window.last()?.state === 'up-to-date' && (engine.queue.status().counts.done === 1));
  });

  it('says offline within 10 s of the service stopping while a window is open, and back by itself once it returns', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'status-service-'));
    let own: RunningService | TestService = await startTestService({ dataDir });
    const ownToken = (own as TestService).addUser('roamer').token;
    const port = own.port;
    cleanups.push(async () => {
      await own.close().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    });
    const { engine } = await open({ url: own.url, token: ownToken });
    const window = windowOn(engine);
    await engine.startBackground();
    await until('up to date', () => window.last()?.state === 'up-to-date');

    await own.close();
    const stoppedAt = Date.now();
    const offline = await until('offline', () => window.views.find((view) => view.state === 'offline'), 12_000);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    expect(offline).toMatchObject({ reasonCode: 'service-unreachable', reason: `The service at ${own.url} cannot be reached. Changes are kept and sent when it is back.` });
    expect(offline.reason).not.toMatch(/ECONNREFUSED|\(The service/);

    own = await startService({ dataDir, port });
    await until('up to date again, by itself', () => window.last()?.state === 'up-to-date', 20_000);
    expect(engine.connection.connectivity.isOnline()).toBe(true);
  });

  it('says signed out when nobody is signed in, whatever else waits', async () => {
    const { engine } = await open({ token: null });
    await engine.startBackground();
    expect(syncView(servicesOf(engine))).toMatchObject({ state: 'signed-out', reasonCode: 'signed-out', reason: 'Sign in to sync your designs.' });
  });

  it('says paused while uploads are paused, and up to date once resumed', async () => {
    const { engine } = await open();
    await engine.startBackground();
    await until('up to date', () => syncView(servicesOf(engine)).state === 'up-to-date');
    engine.queue.setQueuePaused(true);
    expect(syncView(servicesOf(engine))).toMatchObject({ state: 'paused', reasonCode: 'uploads-paused', reason: 'Uploads are paused: resume to send your changes.' });
    engine.queue.setQueuePaused(false);
    await until('up to date again', () => syncView(servicesOf(engine)).state === 'up-to-date');
  });

  it('says error, with the folder, when the sync folder goes away', async () => {
    const { engine, root } = await open();
    const window = windowOn(engine);
    await engine.startBackground();
    await until('up to date', () => syncView(servicesOf(engine)).state === 'up-to-date');
    rmSync(root, { recursive: true, force: true });
    const error = await until('the error', () => window.views.find((view) => view.state === 'error'), 15_000);
    expect(error).toMatchObject({ reasonCode: 'folder-unavailable', runState: 'stopped', reason: expect.stringContaining(root) as string });
  });

  it('follows the sync engine of the service chosen now, and lets go of the one before', async () => {
    const { engine } = await open({ token: null, root: false });
    const before = engine.syncStatus.followed;
    const old = engine.sync.syncParts();
    expect(engine.syncStatus.followed).toBe(before + 1);
    expect(old.sync.listenerCount('state')).toBeGreaterThan(0);

    await engine.setServiceUrl('http://127.0.0.1:9');
    expect(old.sync.listenerCount('state')).toBe(0);
    expect(old.sync.listenerCount('event')).toBe(0);
    expect(old.runner.listenerCount('blocked')).toBe(0);
    expect(engine.syncStatus.followed).toBe(before);

    const now = engine.sync.syncParts();
    expect(now.sync).not.toBe(old.sync);
    let changes = 0;
    engine.syncStatus.on('change', () => changes++);
    now.sync.emit('state');
    expect(changes).toBe(1);
    old.sync.emit('state');
    expect(changes).toBe(1);
  });

  it('is not set up without a sync folder', async () => {
    const { engine } = await open({ root: false });
    expect(syncView(servicesOf(engine))).toMatchObject({ state: 'not-set-up', reasonCode: 'no-folder', reason: 'Choose a sync folder to sync your designs with.' });
  });
});
