import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { tempDir } from '../engine/cache/cache-fixtures';
import { openWindow, type WindowFixture } from '../../harness/window';
import { showView } from './views';

let app: WindowFixture;
let page: Page;
const rootParent = tempDir('window-bandwidth-root');

describe.skipIf(chromiumSkipReason !== undefined)('bandwidth limits and timed pauses in the window, in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async () => {});
    page = app.page;
    await page.setViewportSize({ width: 1400, height: 900 });
    await app.engine.sync.chooseFolder(join(rootParent, 'Designs'));
    app.engine.sync.acceptContentPolicy();
  }, 90_000);

  afterAll(() => app?.close());

  it('sets the upload and download limits in Settings, applied at once; empty is no limit; a wrong one is named', async () => {
    onTestFinished(() => app.engine.appSettings.setBandwidthLimits({ maxUploadKBps: 0, maxDownloadKBps: 0 }));
    await showView(page, app.host.origin, '#/settings');
    const panel = page.getByRole('form', { name: 'Bandwidth' });
    await panel.waitFor();
    await expect(panel.getByLabel('Upload limit (KB/s)').inputValue()).resolves.toBe('');
    await panel.getByLabel('Upload limit (KB/s)').fill('64');
    await panel.getByLabel('Download limit (KB/s)').fill('1500');
    await panel.getByRole('button', { name: 'Save the limits' }).click();
    await page.getByText('The bandwidth limits saved.').waitFor();
    expect(app.engine.appSettings.bandwidthLimits()).toEqual({ maxUploadKBps: 64, maxDownloadKBps: 1500 });
    expect(app.engine.connection.bandwidth.upload.rate).toBe(64 * 1024);
    expect(app.engine.connection.bandwidth.download.rate).toBe(1500 * 1024);

    await panel.getByLabel('Download limit (KB/s)').fill('fast');
    await panel.getByRole('button', { name: 'Save the limits' }).click();
    await panel.getByRole('alert').filter({ hasText: 'The download limit must be a whole number of KB/s, up to 10,000,000; leave it empty for no limit.' }).waitFor();
    expect(app.engine.appSettings.bandwidthLimits()).toEqual({ maxUploadKBps: 64, maxDownloadKBps: 1500 });

    await panel.getByLabel('Download limit (KB/s)').fill('');
    await panel.getByRole('button', { name: 'Save the limits' }).click();
    await panel.getByRole('alert').waitFor({ state: 'detached' });
    await expect.poll(() => app.engine.appSettings.bandwidthLimits(), { timeout: 10_000 }).toEqual({ maxUploadKBps: 64, maxDownloadKBps: 0 });
    expect(app.engine.connection.bandwidth.download.unlimited).toBe(true);
  });

  it('pauses uploads for 1 hour from the Sync view, says until when, and resumes them on request', async () => {
    onTestFinished(() => app.engine.queue.setQueuePaused(false));
    await showView(page, app.host.origin, '#/sync');
    const panel = page.getByRole('region', { name: 'Sync folder' });
    await panel.getByRole('button', { name: 'Pause until tomorrow (8:00)' }).waitFor();
    await panel.getByRole('button', { name: 'Pause for 1 hour' }).click();
    await panel.getByRole('button', { name: 'Resume uploads' }).waitFor();
    const until = app.engine.queue.status().queuePausedUntil!;
    expect(until - Date.now()).toBeGreaterThan(59 * 60_000);
    const at = new Date(until);
    const time = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
    await panel.getByText(new RegExp(`^Paused until (tomorrow )?${time}, then uploads resume by themselves\\.$`)).waitFor();
    await panel.getByRole('button', { name: 'Resume uploads' }).click();
    await panel.getByRole('button', { name: 'Pause for 1 hour' }).waitFor();
    expect(app.engine.queue.status().queuePaused).toBe(false);
  });

  it('pauses until tomorrow 08:00 from the Sync view', async () => {
    onTestFinished(() => app.engine.queue.setQueuePaused(false));
    await showView(page, app.host.origin, '#/sync');
    const panel = page.getByRole('region', { name: 'Sync folder' });
    await panel.getByRole('button', { name: 'Pause until tomorrow (8:00)' }).click();
    await panel.getByText(/^Paused until (tomorrow )?08:00, then uploads resume by themselves\.$/).waitFor();
    const until = new Date(app.engine.queue.status().queuePausedUntil!);
    expect([until.getHours(), until.getMinutes()]).toEqual([8, 0]);
  });
});
