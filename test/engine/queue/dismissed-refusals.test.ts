import { copyFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../../electron/engine/contract/create-contract-endpoint';
import type { ContractEndpoint } from '../../../electron/engine/contract/contract-endpoint';
import type { Engine } from '../../../electron/engine/runtime/engine';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../../electron/engine/settings/settings-store';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { startTestService, type TestService } from '../../../harness/local-service';
import { until } from '../../../harness/until';
import { tempDir } from '../cache/cache-fixtures';
import { FIXTURES } from './queue-fixtures';

let service: TestService;
let token: string;
let api: ServiceClient;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  token = service.addUser('dismisser').token;
  api = new ServiceClient({ baseUrl: service.url, token: () => token });
});
afterAll(() => service.stop());
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await service.request('DELETE', '/__admin/faults');
});

/** The production engine of a profile with a sync folder, the content policy accepted; the design's folder made. */
async function engineWithFolder(designName: string): Promise<{ engine: Engine; window: ContractEndpoint; folder: string; designId: number }> {
  const design = await api.createDesign({ name: designName, excerpt: 'x' });
  const profile = tempDir('dismissed-profile');
  const root = join(tempDir('dismissed-root'), 'Designs');
  cleanups.push(() => rmSync(profile, { recursive: true, force: true }), () => rmSync(join(root, '..'), { recursive: true, force: true }));
  const engine = await openEngine({
    profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test', settleMs: 50,
    tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore(), trash: 'folder',
  });
  cleanups.push(() => engine.close());
  const window = createContractEndpoint(engine);
  cleanups.push(() => window.close());
  await engine.sync.chooseFolder(root);
  engine.sync.acceptContentPolicy();
  await engine.sync.syncParts().sync.syncOnce();
  const linked = await until('the design folder', () => engine.sync.syncParts().sync.folders.ofDesign(design.id));
  return { engine, window, folder: join(root, linked.folder), designId: design.id };
}

const itemsOf = (engine: Engine, path: string) => engine.queue.list().filter((item) => item.path === path);

/** Sends what waits, then stops the runner: the test sees the queue as the next scan leaves it. */
async function sendAll(engine: Engine): Promise<void> {
  const { runner } = engine.sync.syncParts();
  runner.start();
  await runner.waitForIdle({ timeoutMs: 15_000 });
  await runner.stop();
}

async function cancelFromWindow(window: ContractEndpoint, id: number): Promise<void> {
  const outcome = await window.handle('queue.cancel', { target: id });
  expect(outcome).toMatchObject({ ok: true });
}

describe('a refusal the person dismissed', () => {
  it('stays dismissed at the next scans and passes until the file changes; then the new version is sent', async () => {
    const { engine, window, folder, designId } = await engineWithFolder('Dismissed gear');
    const name = folder.split('/').at(-1)!;
    const path = `${name}/gear.png`;
    copyFileSync(join(FIXTURES, 'images/invalid-truncated.png'), join(folder, 'gear.png'));
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    await sendAll(engine);
    const [refused] = itemsOf(engine, path);
    expect(refused).toMatchObject({ state: 'attention', attention: 'invalid-file', reason: expect.stringMatching(/could not read gear\.png as an image/) });

    await cancelFromWindow(window, refused!.id);
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    await engine.sync.syncParts().sync.syncOnce();
    expect(itemsOf(engine, path).map((item) => [item.id, item.state])).toEqual([[refused!.id, 'cancelled']]);

    copyFileSync(join(FIXTURES, 'images/png-sample.png'), join(folder, 'gear.png'));
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    const again = itemsOf(engine, path).filter((item) => item.id !== refused!.id);
    expect(again.map((item) => [item.kind, item.state])).toEqual([['upload', 'waiting']]);
    await sendAll(engine);
    expect(engine.queue.get(again[0]!.id)!.state).toBe('done');
    expect((await api.listImages(designId)).map((image) => image.name)).toEqual(['gear.png']);
  });

  it('a failed update of a synced file, dismissed, is not sent again until the file is saved again', async () => {
    const { engine, window, folder, designId } = await engineWithFolder('Dismissed bracket');
    const name = folder.split('/').at(-1)!;
    const path = `${name}/bracket.stl`;
    writeFileSync(join(folder, 'bracket.stl'), 'solid bracket\nendsolid bracket\n');
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    await sendAll(engine);
    expect(itemsOf(engine, path).map((item) => item.state)).toEqual(['done']);

    const refuse = await service.request('POST', '/__admin/faults', { json: { kind: 'status', status: 400, method: 'PATCH', path: '/documents/' } });
    expect(refuse.status).toBe(201);
    writeFileSync(join(folder, 'bracket.stl'), 'solid bracket v2\nendsolid bracket\n');
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    await sendAll(engine);
    const failed = itemsOf(engine, path).find((item) => item.kind === 'replace')!;
    expect(failed).toMatchObject({ state: 'failed', reason: `The service refused ${path}: Injected fault: HTTP 400.` });
    await service.request('DELETE', '/__admin/faults');

    await cancelFromWindow(window, failed.id);
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    expect(itemsOf(engine, path).filter((item) => item.state !== 'done' && item.state !== 'cancelled')).toEqual([]);

    const later = Date.now() / 1000 + 2;
    utimesSync(join(folder, 'bracket.stl'), later, later);
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    const replace = itemsOf(engine, path).find((item) => item.state === 'waiting');
    expect(replace).toMatchObject({ kind: 'replace' });
    await sendAll(engine);
    expect(engine.queue.get(replace!.id)!.state).toBe('done');
    const [document] = await api.listDocuments(designId);
    expect(document!.name).toBe('bracket.stl');
  });
});
