import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { seriousViolations } from './axe-check';
import { openWindow, type WindowFixture } from '../../harness/window';
import { showView } from './views';
import { StoppableService } from './stoppable-service';

/**
 * Keeping designs offline from the window: the design page's "Keep offline" downloads all its files and says so; the
 * card's menu keeps and releases; the library's "Kept offline" filter shows just those, with the space they take; a
 * kept design's files are there with the service stopped.
 */
const FIXTURES = join(import.meta.dirname, '../fixtures');

let app: WindowFixture;
let page: Page;
const service = new StoppableService();
const ids = new Map<string, number>();

const card = (name: string) => page.getByRole('article', { name });

describe.skipIf(chromiumSkipReason !== undefined)('keeping designs offline in the window', () => {
  beforeAll(async () => {
    app = await openWindow(async (running) => {
      const carol = clientFor(running.url, running.addUser('carol').token);
      const seed = async (name: string, files: [string, string][]) => {
        const design = await carol.createDesign({ name, excerpt: `The ${name.toLowerCase()}`, license: 'ccby' });
        await carol.uploadImage(design.id, { path: join(FIXTURES, 'images', 'png-sample.png') }, { name: `${name} photo` });
        for (const [file, label] of files) await carol.uploadDocument(design.id, { path: join(FIXTURES, 'models', file) }, { name: label });
        await carol.publishDesign(design.id);
        ids.set(name, design.id);
      };
      await seed('Workshop Vise', [['cube20.3mf', 'Vise (3MF)'], ['cube20.gcode', 'Vise (G-code)']]);
      await seed('Spool Holder', [['cube20.stl', 'Holder (STL)']]);
      await seed('Tool Rack', [['cube20.stl', 'Rack (STL)']]);
    }, { serviceDataDir: service.dataDir });
    page = app.page;
    service.of(app);
    await page.setViewportSize({ width: 1400, height: 900 });
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await service.close();
  });

  it('keeps a design from its page: every file downloaded, then "Kept offline" with its files and space', async () => {
    await service.answering();
    await showView(page, app.host.origin, `#/designs/${ids.get('Workshop Vise')}`);
    await page.getByRole('heading', { name: 'Workshop Vise', level: 2 }).waitFor();
    const keep = page.getByRole('button', { name: 'Keep offline' });
    await expect(keep.getAttribute('aria-describedby')).resolves.toBeTruthy();
    await keep.click();
    const state = page.getByTestId('kept-state');
    await page.locator('[data-testid="kept-state"][data-state="ready"]').waitFor({ timeout: 20_000 });
    // One image (grid and large) and two documents.
    await expect(state.textContent()).resolves.toMatch(/^Kept offline: 4 files, [\d.]+ KB\.$/);
    await page.getByRole('button', { name: 'Stop keeping offline' }).waitFor();
    // Every file row says it is here.
    await page.getByRole('heading', { name: 'Workshop Vise', level: 2 }).waitFor();
    const rows = page.locator('.design-documents tbody tr');
    await expect(rows.count()).resolves.toBe(2);
    await expect(page.locator('.design-documents .document-offline').allTextContents()).resolves.toEqual(['Kept offline', 'Kept offline']);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('keeps another from its card\'s menu, and the library\'s "Kept offline" filter shows the kept ones with their space', async () => {
    await service.answering();
    await showView(page, app.host.origin, '#/');
    await card('Spool Holder').getByRole('button', { name: 'More for “Spool Holder”' }).click();
    await page.getByRole('menuitem', { name: 'Keep offline' }).click();
    await card('Spool Holder').getByTestId('kept-badge').waitFor({ timeout: 20_000 });
    await page.getByRole('checkbox', { name: /Kept offline/ }).check();
    await page.getByTestId('kept-space').filter({ hasText: /^2 · [\d.]+ KB$/ }).waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await page.getByTestId('design-card').allTextContents()).length, { timeout: 10_000 }).toBe(2);
    const names = await page.locator('[data-testid="design-card"] .card-name').allTextContents();
    expect(names.sort()).toEqual(['Spool Holder', 'Workshop Vise']);
    await expect(page.locator('.toolbar .count').textContent()).resolves.toBe('2 designs');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('checkbox', { name: /Kept offline/ }).uncheck();
  });

  it('shows a kept design\'s files as here with the service stopped, and the 3MF opens in 3D from the kept copy', async () => {
    await service.stopped();
    try {
      await showView(page, app.host.origin, `#/designs/${ids.get('Workshop Vise')}`);
      await page.getByRole('heading', { name: 'Workshop Vise', level: 2 }).waitFor();
      await page.getByRole('button', { name: /View Vise \(3MF\) in 3D/ }).click();
      await page.locator('canvas[data-loaded="true"]').waitFor({ timeout: 20_000 });
      const image = page.locator('.gallery img').first();
      await expect.poll(() => image.evaluate((node) => (node as { naturalWidth: number }).naturalWidth), { timeout: 10_000 }).toBeGreaterThan(0);
    } finally {
      await service.answering();
    }
  });

  it('stops keeping a design from its card\'s menu: the badge goes, and the filter no longer shows it', async () => {
    await service.answering();
    await showView(page, app.host.origin, '#/');
    await card('Spool Holder').getByRole('button', { name: 'More for “Spool Holder”' }).click();
    await page.getByRole('menuitem', { name: 'Stop keeping offline' }).click();
    await card('Spool Holder').getByTestId('kept-badge').waitFor({ state: 'detached', timeout: 10_000 });
    await expect(card('Tool Rack').getByTestId('kept-badge').count()).resolves.toBe(0);
    const kept = await app.engine.keepOffline.list();
    expect(kept.map((design) => design.name)).toEqual(['Workshop Vise']);
  });
});
