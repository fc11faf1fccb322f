import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QueueEntry, SyncView } from '../../../shared';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import type { EventMessage } from '../../../electron/engine/contract/contract-endpoint';
import { subscribeToEngine } from '../../../electron/engine/contract/engine-events';
import { syncView } from '../../../electron/engine/contract/views/sync-view';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../../electron/engine/settings/settings-store';
import { syncUploadWords } from '../../../shared/sync/upload-progress-words';
import { startTestService, type TestService } from '../../../harness/local-service';
import { until } from '../../../harness/until';
import { tempDir } from '../cache/cache-fixtures';
import { clientFor } from '../../../harness/sync-computers';
import { servicesOf } from '../../../electron/engine/composition/engine-services';

const MB = 1024 * 1024;
let service: TestService;
let token: string;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  token = service.addUser('progress').token;
});
afterAll(async () => service.stop());
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await service.request('DELETE', '/__admin/faults');
});

describe('upload progress told to a window', () => {
  it('tells the burst\'s files and bytes with the sync status, and a file\'s smoothed rate with its queue item', async () => {
    const api = clientFor(service.url, token);
    const design = await api.createDesign({ name: 'Heavy part', excerpt: 'x', license: 'cc0' });
    const profile = tempDir('progress-profile');
    const root = join(tempDir('progress-root'), 'Designs');
    cleanups.push(() => rmSync(profile, { recursive: true, force: true }), () => rmSync(join(root, '..'), { recursive: true, force: true }));
    const engine = await openEngine({
      profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test', settleMs: 100, trash: 'folder',
      tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore({ contentPolicyAcceptedAt: new Date().toISOString() }),
    });
    cleanups.push(() => engine.close());
    await engine.sync.chooseFolder(root);
    const views: SyncView[] = [];
    const items: QueueEntry[] = [];
    cleanups.push(subscribeToEngine(servicesOf(engine), (event: EventMessage) => {
      if (event.name === 'sync.changed') views.push(event.payload);
      if (event.name === 'queue.item') items.push(event.payload);
    }));
    await engine.startBackground();
    const folder = await until('the design folder', () => engine.sync.syncParts().sync.folders.ofDesign(design.id));
    await until('up to date', () => syncView(servicesOf(engine)).state === 'up-to-date');

    // The service reads each upload only after a while: the first bytes wait, the rest follow at once.
    await service.request('POST', '/__admin/faults', { json: { kind: 'latency', ms: 2_500, method: 'POST', path: `^/v1/designs/${design.id}/documents$` } });
    writeFileSync(join(root, folder.folder, 'heavy.stl'), randomBytes(32 * MB));
    writeFileSync(join(root, folder.folder, 'light.stl'), randomBytes(64 * 1024));
    await until('both on the service', async () => (await api.listDocuments(design.id)).length === 2, 60_000);
    await until('up to date again', () => views.at(-1)?.state === 'up-to-date');

    const during = views.filter((view) => view.uploads);
    expect(during.length).toBeGreaterThan(0);
    expect(during.every((view) => view.uploads!.filesTotal === 2 && view.uploads!.bytesTotal >= 32 * MB + 64 * 1024)).toBe(true);
    expect(during.map((view) => syncUploadWords(view)).filter(Boolean)).toContainEqual(expect.stringMatching(/^Uploading [12] of 2 · [\d.]+ (B|KB|MB) of 32 MB/));
    expect(views.at(-1)!.uploads).toBeNull();

    // Its rate is known once it has been sent for a few seconds.
    const heavy = items.filter((item) => item.path?.endsWith('heavy.stl') && item.state === 'running');
    expect(heavy.some((item) => (item.bytesPerSecond ?? 0) > 0)).toBe(true);
    expect(items.filter((item) => item.state !== 'running').every((item) => item.bytesPerSecond === null)).toBe(true);
  }, 90_000);
});
