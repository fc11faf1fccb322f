import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { until } from '../../harness/until';
import { clientFor } from '../../harness/sync-computers';
import { openWindow, type WindowFixture } from '../../harness/window';

const rowOf = (page: Page, name: string) => page.getByTestId('own-design').filter({ has: page.getByRole('link', { name, exact: true }) });

async function openMyDesigns(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'My designs' }).click();
  await page.getByRole('heading', { name: 'My designs', level: 2 }).waitFor();
}

describe.skipIf(chromiumSkipReason !== undefined)('My designs stays current, in Chromium', () => {
  describe('signed in', () => {
    let app: WindowFixture;
    let page: Page;

    beforeAll(async () => {
      app = await openWindow(async (service, makerToken) => {
        await clientFor(service.url, makerToken).createDesign({ name: 'Hinge', excerpt: 'A hinge', license: 'cc0' });
      });
      page = app.page;
      await openMyDesigns(page);
      await rowOf(page, 'Hinge').waitFor();
    }, 90_000);

    afterAll(() => app?.close());

    it('shows a design added on the service after "Pull the catalogue now"', async () => {
      await clientFor(app.service.url, app.makerToken).createDesign({ name: 'Cable clip', excerpt: 'Clips a cable', license: 'cc0' });
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('button', { name: 'Pull the catalogue now' }).click();
      await page.getByRole('button', { name: 'Pull the catalogue now' }).waitFor();
      await openMyDesigns(page);
      await rowOf(page, 'Cable clip').waitFor();
      expect(await rowOf(page, 'Cable clip').locator('.badge').first().textContent()).toBe('Draft');
    });

    it('takes a change told by the engine in place, without reading the whole list again', async () => {
      const listsRead = app.answered('own.list');
      const api = clientFor(app.service.url, app.makerToken);
      const [hinge] = (await api.listUserDesigns('maker', { limit: 100 })).items.filter((design) => design.name === 'Hinge');
      await api.updateDesign(hinge!.id, { name: 'Hinge v2' });
      await api.createDesign({ name: 'Wall hook', excerpt: 'Hangs a coat', license: 'cc0' });
      // A scheduled pull, not asked by the window.
      await app.engine.catalogue.pullNow();
      await rowOf(page, 'Hinge v2').waitFor();
      await rowOf(page, 'Wall hook').waitFor();
      expect(await rowOf(page, 'Hinge').count()).toBe(0);
      expect(app.answered('own.list')).toBe(listsRead);
    });
  });

  describe('signing in', () => {
    let app: WindowFixture;
    let page: Page;

    beforeAll(async () => {
      app = await openWindow(async (service, makerToken) => {
        await clientFor(service.url, makerToken).createDesign({ name: 'Draft bracket', excerpt: 'Not published yet', license: 'cc0' });
      }, { signedIn: false });
      page = app.page;
      await openMyDesigns(page);
      await page.getByText('Sign in to see and manage your designs.').waitFor();
    }, 90_000);

    afterAll(() => app?.close());

    it('shows my drafts right after sign-in, without a pull asked for', async () => {
      expect(await rowOf(page, 'Draft bracket').count()).toBe(0);
      await app.engine.account.session.signInWithToken(app.service.url, app.makerToken);
      await until('the signed-in window', () => page.getByText('Sign in to see and manage your designs.').count().then((count) => count === 0));
      await rowOf(page, 'Draft bracket').waitFor();
      expect(await rowOf(page, 'Draft bracket').locator('.badge').first().textContent()).toBe('Draft');
    });
  });

  describe('hearing no change of the sync view', () => {
    let app: WindowFixture;
    let page: Page;

    beforeAll(async () => {
      app = await openWindow(async (service, makerToken) => {
        await clientFor(service.url, makerToken).createDesign({ name: 'Spool holder', excerpt: 'Holds a spool', license: 'cc0' });
      }, { dropEvents: ['sync.changed'] });
      page = app.page;
      await openMyDesigns(page);
      await rowOf(page, 'Spool holder').waitFor();
    }, 90_000);

    afterAll(() => app?.close());

    // A window whose socket opened late, or where a whole pass fitted in one of the host's sync.changed, hears one
    // sync.changed at most: a folder's last sync is told with its design, not inferred from sync.changed.
    it('says when a folder last synced from what the engine tells of the design itself', async () => {
      const root = mkdtempSync(join(tmpdir(), 'stay-current-root-'));
      try {
        await app.engine.sync.chooseFolder(root);
        app.engine.sync.acceptContentPolicy();
        await app.engine.sync.syncParts().sync.syncOnce({ settle: 'wait' });
        const row = rowOf(page, 'Spool holder');
        await until('its folder in step', async () => (await row.getByTestId('own-folder-state').textContent()) === 'In step');
        await until('its last sync said', async () => (await row.getByTestId('own-last-sync').textContent()) === 'Synced just now');
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });
});
