import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SyncView } from '../../../shared';
import { createContractEndpoint } from '../../../electron/engine/contract/create-contract-endpoint';
import { trayView } from '../../../electron/shell/tray/tray-state';
import { startTestService, type TestService } from '../../../harness/local-service';
import { openProfile } from '../../../harness/profile';
import { until } from '../../../harness/until';
import { tempDir } from '../cache/cache-fixtures';
import { clientFor } from '../../../harness/sync-computers';

// The tray's state is a pure module of the shell: the real electron module (which would download its binary) must not load.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

let service: TestService;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await service.stop();
});

describe('the window and the tray while the sync folder is gone', () => {
  it('show the stop with the folder named (error, tray icon), then up to date again once it is back', async () => {
    const { token } = service.addUser('window-folder');
    const api = clientFor(service.url, token);
    const design = await api.createDesign({ name: 'Pulley', excerpt: 'A pulley', license: 'cc0' });
    const parent = tempDir('window-folder-root');
    const root = join(parent, 'Designs');
    cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
    const { engine, close } = await openProfile({ serviceUrl: service.url, settleMs: 100, token });
    cleanups.push(close);
    const endpoint = createContractEndpoint(engine);
    cleanups.push(() => endpoint.close());
    const views: SyncView[] = [];
    endpoint.subscribe((event) => {
      if (event.name === 'sync.changed') views.push(event.payload);
    });
    const status = async () => {
      const outcome = await endpoint.handle('sync.status', {});
      if (!outcome.ok) throw new Error(outcome.problem.message);
      return outcome.value as SyncView;
    };

    engine.sync.acceptContentPolicy();
    await engine.sync.chooseFolder(root);
    await engine.startBackground();
    await until('the design folder', () => readdirSync(root).some((name) => name.startsWith('pulley')));
    const folder = join(root, readdirSync(root).find((name) => name.startsWith('pulley'))!);
    await until('up to date', async () => (await status()).state === 'up-to-date');

    renameSync(root, `${root}-elsewhere`);
    const stopped = await until('the stop shown', () => views.find((view) => view.state === 'error'));
    expect(stopped).toMatchObject({ runState: 'stopped', reason: expect.stringContaining(`The sync folder ${root} is missing`) as string });
    expect(await status()).toMatchObject({ state: 'error', reason: stopped.reason });
    const tray = trayView(stopped);
    expect(tray).toMatchObject({ state: 'error', iconName: 'tray-error' });
    expect(tray.tooltip).toMatch(/^design-sync: Error — The sync folder /);

    // Something else made at the path is not the folder: still stopped, the new reason shown.
    mkdirSync(root);
    await until('the marker reason shown', () => views.some((view) => view.state === 'error' && /no longer holds its marker/.test(view.reason ?? '')));
    rmSync(root, { recursive: true });

    renameSync(`${root}-elsewhere`, root);
    await until('up to date again', async () => (await status()).state === 'up-to-date', 20_000);
    expect(engine.queue.recentActivity(50).map((line) => line.message)).toContain('The sync folder is back as it was: sync resumed.');
    writeFileSync(join(folder, 'after.stl'), 'solid after');
    await until('after.stl on the service', async () => (await api.listDocuments(design.id)).some((d) => d.name === 'after.stl'));
  }, 60_000);
});
