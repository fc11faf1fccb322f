import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import type { Engine } from '../../../electron/engine/runtime/engine';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { memorySettingsStore, type SettingsStore } from '../../../electron/engine/settings/settings-store';
import { startTestService, type TestService } from '../../../harness/local-service';
import { tempDir } from '../cache/cache-fixtures';
import { clientFor } from '../../../harness/sync-computers';
import { until } from '../../../harness/until';

let service: TestService;
let token: string;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  token = service.addUser('runner').token;
  // Someone else's published designs: the public catalogue.
  const other = clientFor(service.url, service.addUser('other').token);
  for (let i = 0; i < 3; i++) await other.publishDesign((await other.createDesign({ name: `Public ${i}`, excerpt: 'x', license: 'cc0' })).id);
});
afterAll(async () => service.stop());
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await service.request('DELETE', '/__admin/faults');
});

async function open(profileDir: string, settings: SettingsStore): Promise<Engine> {
  const engine = await openEngine({
    profileDir, serviceUrl: service.url, userAgent: 'design-sync-test', settleMs: 100,
    tokenStore: () => new MemoryTokenStore(token), settingsStore: () => settings, trash: 'folder',
  });
  cleanups.push(() => engine.close());
  return engine;
}

describe('the opened engine in the background', () => {
  it('refreshes the catalogue on its own, with no sync folder chosen', async () => {
    const profile = tempDir('engine-catalogue');
    cleanups.push(() => rmSync(profile, { recursive: true, force: true }));
    const engine = await open(profile, memorySettingsStore());
    const finished = new Promise((resolve) => engine.catalogue.once('finished', resolve));
    await engine.startBackground();
    await finished;
    expect(engine.catalogue.lastPullAt()).not.toBeNull();
    expect(engine.catalogue.isStale()).toBe(false);
  });

  it('makes its sync engine and queue runner once, however often a front end asks for them', async () => {
    const profile = tempDir('engine-parts');
    cleanups.push(() => rmSync(profile, { recursive: true, force: true }));
    const engine = await open(profile, memorySettingsStore());
    const first = engine.sync.syncParts();
    for (let i = 0; i < 20; i++) expect(engine.sync.syncParts()).toBe(first);
    expect(first.sync.listenerCount('event')).toBe(1);
    expect(first.runner.listenerCount('blocked')).toBe(1);
  });

  it('holds every upload until the content policy is accepted, then sends what the folder holds', async () => {
    const api = clientFor(service.url, token);
    const design = await api.createDesign({ name: 'Policy bracket', excerpt: 'x', license: 'cc0' });
    const profile = tempDir('engine-policy');
    const root = join(tempDir('engine-policy-root'), 'Designs');
    cleanups.push(() => rmSync(profile, { recursive: true, force: true }), () => rmSync(join(root, '..'), { recursive: true, force: true }));
    const engine = await open(profile, memorySettingsStore());
    await engine.sync.chooseFolder(root);
    await engine.startBackground();
    // The folder is recorded, then made on disk: the file goes in once both are done.
    const folder = await until('the design folder', () => {
      const linked = engine.sync.syncParts().sync.folders.ofDesign(design.id);
      return linked && existsSync(join(root, linked.folder)) ? linked : null;
    });
    expect(folder.folder).toBe('policy-bracket');
    writeFileSync(join(root, 'policy-bracket', 'bracket.stl'), 'solid bracket');
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });

    await until('the queue to wait for the person', () => engine.sync.syncParts().runner.blockedBy?.kind === 'content-policy');
    expect(engine.syncStatus.current()).toMatchObject({ state: 'attention', reasonCode: 'content-policy' });
    expect(engine.queue.status().counts.waiting).toBe(1);
    expect(await api.listDocuments(design.id)).toEqual([]);

    engine.sync.acceptContentPolicy();
    await until('the upload', async () => (await api.listDocuments(design.id)).length === 1);
    expect((await api.listDocuments(design.id)).map((d) => d.name)).toEqual(['bracket.stl']);
  });

  it('closes with an upload in flight by letting it finish: nothing lost, nothing sent twice', async () => {
    const api = clientFor(service.url, token);
    const design = await api.createDesign({ name: 'Slow hinge', excerpt: 'x', license: 'cc0' });
    const profile = tempDir('engine-close');
    const root = join(tempDir('engine-close-root'), 'Designs');
    cleanups.push(() => rmSync(profile, { recursive: true, force: true }), () => rmSync(join(root, '..'), { recursive: true, force: true }));
    const settings = memorySettingsStore({ contentPolicyAcceptedAt: new Date().toISOString() });
    const engine = await open(profile, settings);
    await engine.sync.chooseFolder(root);
    await engine.sync.syncParts().sync.syncOnce({ settle: 'wait' });
    writeFileSync(join(root, 'slow-hinge', 'hinge.stl'), 'solid hinge');
    await service.request('POST', '/__admin/faults', { json: { kind: 'latency', ms: 1500, method: 'POST', path: `^/v1/designs/${design.id}/documents$`, count: 1 } });
    await engine.startBackground();
    const running = await until('the upload to start', () => engine.queue.list({ states: ['running'] })[0]);

    // The service takes 1.5 s to answer: close lets the upload finish, so its outcome is known, not guessed.
    await engine.close();
    expect(engine.queue.db.open).toBe(false);
    const reopened = await open(profile, settings);
    expect(reopened.queue.get(running.id)!.state).toBe('done');
    await reopened.startBackground();
    await reopened.sync.syncParts().sync.syncOnce({ settle: 'wait' });
    await reopened.sync.syncParts().runner.waitForIdle({ timeoutMs: 10_000 });
    expect(reopened.queue.status().counts).toMatchObject({ waiting: 0, running: 0, failed: 0, attention: 0 });
    expect((await api.listDocuments(design.id)).map((d) => d.name)).toEqual(['hinge.stl']);
  });
});
