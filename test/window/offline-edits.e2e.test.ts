import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startService, type RunningService } from '../../service/server/start-service';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { ownAction } from './own-design-menu';
import { openWindow, type WindowFixture } from '../../harness/window';
import { until } from '../../harness/until';

let app: WindowFixture;
let page: Page;
let hingeId: number;
let restarted: RunningService | null = null;
const dataDir = mkdtempSync(join(tmpdir(), 'design-sync-window-offline-edits-'));
const row = (name: string) => page.getByTestId('own-design').filter({ has: page.getByRole('link', { name, exact: true }) });

describe.skipIf(chromiumSkipReason !== undefined)('an edit made in the window while the service is stopped, in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async (service, makerToken) => {
      hingeId = (await clientFor(service.url, makerToken).createDesign({ name: 'Hinge', excerpt: 'A draft hinge', license: 'cc0' })).id;
    }, { serviceDataDir: dataDir });
    page = app.page;
    // As `design-sync ui` does: the engine works in the background (the queue sends by itself), the policy accepted.
    app.engine.sync.acceptContentPolicy();
    await app.engine.startBackground();
    await page.getByRole('link', { name: 'My designs' }).click();
    await row('Hinge').waitFor();
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await restarted?.close().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is saved here and says so, is listed in Sync, publishing is not offered until the service is back, and the service holds the edit once it is back', async () => {
    const port = app.service.port;
    await app.service.stop();

    await (await ownAction(row('Hinge'), 'Edit')).click();
    const form = page.getByRole('form', { name: /Edit “Hinge”/ });
    await form.getByLabel('Name').fill('Hinge offline');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await row('Hinge offline').getByTestId('own-note').filter({ hasText: 'Saved here; it is sent when the service is back.' }).waitFor();

    // Publishing needs the service at once: not offered while it cannot be reached, and the row says why.
    const publish = await ownAction(row('Hinge offline'), 'Publish…');
    await until('Publish… turned off', async () => await publish.isDisabled());
    expect(await row('Hinge offline').getByTestId('action-reason').textContent()).toMatch(/Publishing and deleting need the service, which cannot be reached now\./);

    await page.getByRole('link', { name: 'Sync', exact: true }).click();
    const queued = page.getByTestId('queue-item').filter({ hasText: 'Edit of a design: “Hinge offline”' });
    await queued.waitFor();

    restarted = await startService({ dataDir, port });
    const api = clientFor(restarted.url, app.makerToken);
    await until('the service holds the edit', async () => (await api.getDesign(hingeId)).name === 'Hinge offline');
    await queued.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'My designs' }).click();
    await row('Hinge offline').waitFor();
    await until('the note gone', async () => (await row('Hinge offline').getByTestId('own-note').count()) === 0);
    await until('Publish… offered again', async () => await (await ownAction(row('Hinge offline'), 'Publish…')).isEnabled());
    expect((await api.getDesign(hingeId)).state).not.toBe('published');
  }, 90_000);
});
