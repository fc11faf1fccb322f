import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { startService, type RunningService } from '../../service/server/start-service';
import { chromiumSkipReason } from '../../harness/chromium';
import { tempDir } from '../engine/cache/cache-fixtures';
import { openWindow, type WindowFixture } from '../../harness/window';
import { showView } from './views';

let app: WindowFixture;
let page: Page;
let restarted: RunningService | null = null;
const serviceData = mkdtempSync(join(tmpdir(), 'window-status-service-'));
const rootParent = tempDir('window-status-root');

describe.skipIf(chromiumSkipReason !== undefined)('the window\'s status pill in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async () => {}, { serviceDataDir: serviceData });
    page = app.page;
    await app.engine.sync.chooseFolder(join(rootParent, 'Designs'));
    app.engine.sync.acceptContentPolicy();
    await app.engine.startBackground();
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await restarted?.close();
    rmSync(serviceData, { recursive: true, force: true });
    rmSync(rootParent, { recursive: true, force: true });
  });

  const pill = (state: RegExp) => page.getByRole('button', { name: state });

  it('says the service is offline within 10 s of it stopping, and up to date again by itself once it is back', async () => {
    await showView(page, app.host.origin, '#/');
    await pill(/^Up to date/).waitFor({ timeout: 20_000 });
    const port = app.service.port;
    await app.service.close();
    const stoppedAt = Date.now();
    await pill(/^Offline/).waitFor({ timeout: 12_000 });
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    // The banner says it in the same words, once, without the network's codes.
    const banner = page.getByRole('status').filter({ hasText: /^Offline: / });
    await expect(banner.textContent()).resolves.toMatch(new RegExp(`^Offline: The service at ${app.service.url.replace(/[.]/g, '\\.')} cannot be reached\\. Everything cached still works`));
    expect(await page.locator('body').textContent()).not.toMatch(/ECONNREFUSED|\(The service/);

    restarted = await startService({ dataDir: serviceData, port });
    await pill(/^Up to date/).waitFor({ timeout: 20_000 });
    await banner.waitFor({ state: 'detached' });
  });

  it('gives its reason on focus, and opens Sync when clicked', async () => {
    await showView(page, app.host.origin, '#/');
    app.engine.queue.setQueuePaused(true);
    // Uploads resumed after this test, whatever its outcome: the other one waits for "Up to date".
    onTestFinished(() => app.engine.queue.setQueuePaused(false));
    const paused = pill(/^Paused/);
    await paused.focus();
    await page.getByRole('tooltip').filter({ hasText: 'Uploads are paused: resume to send your changes.' }).waitFor();
    await paused.click();
    await page.getByRole('heading', { name: 'Sync', level: 2 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/sync');
    // The Sync view's header says the same words as the pill.
    await page.getByRole('region', { name: 'Sync folder' }).getByText('Uploads are paused: resume to send your changes.').waitFor();
    app.engine.queue.setQueuePaused(false);
    await pill(/^Up to date/).waitFor();
  });
});
