import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OwnDesignView, RequestName } from '../../../shared';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../../electron/engine/contract/create-contract-endpoint';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import type { Engine } from '../../../electron/engine/runtime/engine';
import { memorySettingsStore } from '../../../electron/engine/settings/settings-store';
import { startTestService, type TestService } from '../../../harness/local-service';

/**
 * My designs says of each own design its folder's state (in step, uploading n, waiting for you, conflict, no folder
 * yet), its files on the service and when its folder last synced: from the real sync database and queue.
 */

const IMAGES = join(import.meta.dirname, '../../fixtures/images');
let service: TestService;
let users = 0;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openApp() {
  const { token } = service.addUser(`owner${++users}`);
  const dirs = [mkdtempSync(join(tmpdir(), 'own-folder-states-')), mkdtempSync(join(tmpdir(), 'own-folder-root-'))];
  const engine: Engine = await openEngine({
    profileDir: dirs[0]!, serviceUrl: service.url, userAgent: 'design-sync-test', settleMs: 50, trash: 'folder',
    tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore(),
  });
  const endpoint = createContractEndpoint(engine);
  cleanups.push(async () => {
    await endpoint.close();
    await engine.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  async function ok<T>(name: RequestName, input: unknown): Promise<T> {
    const outcome = await endpoint.handle(name, input);
    if (!outcome.ok) throw new Error(`${name}: ${JSON.stringify(outcome.problem)}`);
    return outcome.value as T;
  }
  const viewOf = async (id: number) => (await ok<OwnDesignView[]>('own.list', {})).find((view) => view.card.id === id)!;
  return { engine, ok, viewOf, root: dirs[1]! };
}

describe("an own design's folder facts", () => {
  it('says "no folder yet", no files and no sync while there is no sync folder', async () => {
    const { ok, viewOf } = await openApp();
    const created = await ok<OwnDesignView>('own.create', { name: 'Cable clip', excerpt: 'Holds a cable', license: 'cc0' });
    expect(created).toMatchObject({ folderState: 'no-folder', uploading: 0, needsYou: 0, files: { images: 0, documents: 0 }, lastSyncedAt: null });
    expect((await viewOf(created.card.id)).folderState).toBe('no-folder');
  });

  it('counts a new file as uploading, then in step with its image counted and the time it synced', async () => {
    const { engine, ok, viewOf, root } = await openApp();
    const created = await ok<OwnDesignView>('own.create', { name: 'Hinge pin', excerpt: 'A pin', license: 'cc0' });
    await engine.sync.chooseFolder(root);
    engine.sync.acceptContentPolicy();
    const { sync, runner } = engine.sync.syncParts();
    const scanned = Date.now();
    await sync.syncOnce({ settle: 'wait' });
    const folder = sync.folders.ofDesign(created.card.id)!.folder;
    const inStep = await viewOf(created.card.id);
    expect(inStep).toMatchObject({ folder, folderState: 'in-step', uploading: 0, files: { images: 0, documents: 0 } });
    // The pass's scan found its (empty) folder in step: that is its last sync.
    expect(Date.parse(inStep.lastSyncedAt!)).toBeGreaterThanOrEqual(scanned - 1000);

    copyFileSync(join(IMAGES, 'png-sample.png'), join(root, folder, 'photo.png'));
    await sync.scan({ settle: 'wait' });
    // Not in step: no file of it synced yet, and the scan that found the new file is no sync of it.
    expect(await viewOf(created.card.id)).toMatchObject({ folderState: 'uploading', uploading: 1, lastSyncedAt: null });

    const before = Date.now();
    runner.start();
    await runner.waitForIdle({ timeoutMs: 20_000 });
    await runner.stop();
    const synced = await viewOf(created.card.id);
    expect(synced).toMatchObject({ folderState: 'in-step', uploading: 0, files: { images: 1, documents: 0 } });
    expect(Date.parse(synced.lastSyncedAt!)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('says a conflict, or that it waits for you, from the items of its folder that wait for the person', async () => {
    const { engine, ok, viewOf, root } = await openApp();
    const created = await ok<OwnDesignView>('own.create', { name: 'Knob', excerpt: 'A knob', license: 'cc0' });
    await engine.sync.chooseFolder(root);
    const { sync } = engine.sync.syncParts();
    await sync.syncOnce({ settle: 'wait' });
    const folder = sync.folders.ofDesign(created.card.id)!.folder;
    copyFileSync(join(IMAGES, 'png-sample.png'), join(root, folder, 'front.png'));
    copyFileSync(join(IMAGES, 'png-sample.png'), join(root, folder, 'back.png'));
    await sync.scan({ settle: 'wait' });
    const [front, back] = engine.queue.list({ states: ['waiting'] }).filter((item) => item.folder === folder);

    engine.queue.needsAttention(front!.id, 'refused', 'The service refused this file.');
    expect(await viewOf(created.card.id)).toMatchObject({ folderState: 'waiting-for-you', needsYou: 1, uploading: 1 });
    engine.queue.needsAttention(back!.id, 'conflict', 'Changed here and on the service.');
    expect(await viewOf(created.card.id)).toMatchObject({ folderState: 'conflict', needsYou: 2, uploading: 0 });
  });

  it('says an edit of its fields on its way as "sending", and a change that failed as failed', async () => {
    const { engine, ok, viewOf, root } = await openApp();
    const created = await ok<OwnDesignView>('own.create', { name: 'Spacer', excerpt: 'A spacer', license: 'cc0' });
    await engine.sync.chooseFolder(root);
    await engine.sync.syncParts().sync.syncOnce({ settle: 'wait' });
    const edit = engine.queue.enqueueDesignEdit(created.card.id, { name: 'Spacer 2' }, 'Spacer');
    expect(await viewOf(created.card.id)).toMatchObject({ folderState: 'sending', uploading: 0, needsYou: 0 });
    engine.queue.failed(edit.id, 'The service refused the edit.');
    expect(await viewOf(created.card.id)).toMatchObject({ folderState: 'failed', needsYou: 0 });
  });
});
