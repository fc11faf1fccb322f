import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { openWindow, type WindowFixture } from '../../harness/window';
import { showView } from './views';
import { StoppableService } from './stoppable-service';

/**
 * "Open in your slicer" in a browser (`design-sync ui`): every model file is offered as a download of the host's own
 * copy, fetched into the file cache when it is not kept offline; never the service's file (rule 1), never an app
 * started from a page.
 */
const MODELS = join(import.meta.dirname, '../fixtures/models');

let app: WindowFixture;
let page: Page;
const service = new StoppableService();
let designId = 0;

async function onGearbox(): Promise<void> {
  await showView(page, app.host.origin, `#/designs/${designId}`);
  await page.getByRole('heading', { name: 'Gearbox', level: 2 }).waitFor();
}

const rowOf = (name: string) => page.locator('.design-documents tbody tr').filter({ has: page.getByRole('cell', { name, exact: true }) });

describe.skipIf(chromiumSkipReason !== undefined)('a model file for the person\'s slicer, in a browser', () => {
  beforeAll(async () => {
    app = await openWindow(async (service) => {
      const carol = clientFor(service.url, service.addUser('carol').token);
      const design = await carol.createDesign({ name: 'Gearbox', excerpt: 'A gearbox in 3MF and G-code', license: 'ccby' });
      // An image of its own: the window draws no cover from its models (which would fetch them).
      await carol.uploadImage(design.id, { path: join(MODELS, '../images/png-sample.png') });
      await carol.uploadDocument(design.id, { path: join(MODELS, 'cube20.3mf') }, { name: 'Gearbox (3MF)' });
      await carol.uploadDocument(design.id, { path: join(MODELS, 'cube20.gcode') }, { name: 'Gearbox (G-code)' });
      // Never downloaded by any test: what the window says of a file it cannot get.
      await carol.uploadDocument(design.id, { path: join(MODELS, 'cube20.amf') }, { name: 'Gearbox (AMF)' });
      await carol.publishDesign(design.id);
      designId = design.id;
    }, { serviceDataDir: service.dataDir });
    page = app.page;
    service.of(app);
    await page.setViewportSize({ width: 1400, height: 900 });
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await service.close();
  });

  beforeEach(() => service.answering());

  it('downloads a 3MF that is not kept offline: the host fetches it, and the bytes are the file\'s', async () => {
    await onGearbox();
    const row = rowOf('Gearbox (3MF)');
    expect(await row.locator('td.document-offline').textContent()).toBe('Not kept offline');
    const download = row.getByRole('link', { name: 'Download Gearbox (3MF) for your slicer' });
    expect(await download.getAttribute('href')).toMatch(/^\/files\/downloads\/\d+$/);
    expect(await download.getAttribute('title')).toBe('Not kept offline: it is fetched from the service when you open it, and kept from then on.');
    // No app is started from a page: there is no "Open in …" button here.
    expect(await page.getByRole('button', { name: /^Open .* in / }).count()).toBe(0);
    const [saved] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(saved.suggestedFilename()).toBe('cube20.3mf');
    expect(readFileSync((await saved.path())!)).toEqual(readFileSync(join(MODELS, 'cube20.3mf')));
    // Fetched for the download, it is kept offline now, and its row says so.
    await row.locator('td.document-offline').getByText('Kept offline', { exact: true }).waitFor();

    // Fetched once, it is kept: offline, the same download still works.
    await service.stopped();
    await onGearbox();
    expect(await rowOf('Gearbox (3MF)').locator('td.document-offline').textContent()).toBe('Kept offline');
    const [again] = await Promise.all([page.waitForEvent('download'), rowOf('Gearbox (3MF)').getByRole('link', { name: 'Download Gearbox (3MF) for your slicer' }).click()]);
    expect(readFileSync((await again.path())!)).toEqual(readFileSync(join(MODELS, 'cube20.3mf')));
    // One not kept is not offered while the service is away, and the row says why.
    const amf = rowOf('Gearbox (AMF)');
    expect(await amf.getByRole('link').count()).toBe(0);
    expect(await amf.locator('.action-reason').textContent()).toBe('Not kept offline: it can be downloaded once the service can be reached.');
  });

  it('offers G-code too, for a G-code viewer', async () => {
    await onGearbox();
    const [saved] = await Promise.all([page.waitForEvent('download'), rowOf('Gearbox (G-code)').getByRole('link', { name: 'Download Gearbox (G-code) for your slicer' }).click()]);
    expect(saved.suggestedFilename()).toBe('cube20.gcode');
    expect(readFileSync((await saved.path())!)).toEqual(readFileSync(join(MODELS, 'cube20.gcode')));
  });
});
