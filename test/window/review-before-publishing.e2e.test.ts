import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { until } from '../../harness/until';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { seriousViolations } from './axe-check';
import { openWindow, type WindowFixture } from '../../harness/window';

let app: WindowFixture;
let page: Page;
let lampId: number;
const rootParent = tempDir('window-review');
const root = join(rootParent, 'Designs');
const onService = async () => (await clientFor(app.service.url, app.makerToken).listDocuments(lampId)).map((document) => document.name).sort();

describe.skipIf(chromiumSkipReason !== undefined)('review before publishing, in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async (service, makerToken) => {
      const api = clientFor(service.url, makerToken);
      lampId = (await api.createDesign({ name: 'Lamp', excerpt: 'A lamp', license: 'cc0' })).id;
      await api.publishDesign(lampId);
    });
    page = app.page;
    await app.engine.sync.chooseFolder(root);
    app.engine.sync.acceptContentPolicy();
    await app.engine.startBackground();
    await until('the design\'s folder', () => app.engine.sync.syncParts().sync.folders.ofDesign(lampId) !== null, 20_000);
    await page.setViewportSize({ width: 1400, height: 900 });
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    rmSync(rootParent, { recursive: true, force: true });
  });

  it('is off until turned on in Settings; then files added to a published design wait in Sync until sent, one or all', async () => {
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const review = page.getByRole('checkbox', { name: 'Review files before they are published' });
    expect(await review.isChecked()).toBe(false);
    // The box shows the setting as the engine holds it: it turns checked once the engine answered, which on a busy
    // machine comes after the click's own frame (where Playwright's check() would look for it, and fail).
    await review.click();
    await page.getByText('Review before publishing saved.').waitFor();
    await until('the box checked', async () => await review.isChecked(), 5_000);
    expect(app.engine.appSettings.store.read().reviewBeforePublishing).toBe(true);

    const folder = join(root, app.engine.sync.syncParts().sync.folders.ofDesign(lampId)!.folder);
    for (const name of ['lamp.stl', 'base.stl', 'shade.stl']) writeFileSync(join(folder, name), `solid ${name}`);
    await page.getByRole('link', { name: 'Sync', exact: true }).click();
    const waiting = page.getByRole('region', { name: 'Waiting for you' });
    const ready = waiting.getByTestId('waiting-item').filter({ hasText: 'Ready to publish' });
    await until('three files ready to publish', async () => (await ready.count()) === 3, 20_000);
    expect(await ready.filter({ hasText: 'lamp.stl' }).textContent()).toContain('Ready to publish: lamp.stl is sent to “Lamp”, which is public, when you say so.');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await onService()).toEqual([]);

    await ready.filter({ hasText: 'lamp.stl' }).getByRole('button', { name: 'Send', exact: true }).click();
    await until('lamp.stl sent', async () => (await onService()).includes('lamp.stl'), 20_000);
    await waiting.getByRole('button', { name: 'Send all 2 ready to publish' }).click();
    await until('all sent', async () => (await onService()).length === 3, 20_000);
    expect(await onService()).toEqual(['base.stl', 'lamp.stl', 'shade.stl']);
  });
});
