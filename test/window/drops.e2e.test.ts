import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { openWindow, type PageGlobals, type WindowFixture } from '../../harness/window';
import { until } from '../../harness/until';
import { showView } from './views';

const MODELS = join(import.meta.dirname, '../fixtures/models');

let app: WindowFixture;
let page: Page;
let rootParent: string;
let root: string;
/** The maker's published designs by name (each test works on its own). */
const ids = new Map<string, number>();

/**
 * A window on the maker's published designs `names` (`withCube`: with cube.stl among its files on the service), with a
 * sync folder of its own; each group of tests below has one, as what it chooses (the folder, the content policy) is
 * another group's "not chosen yet".
 */
async function openOnDesigns(names: readonly string[], withCube: readonly string[] = []): Promise<void> {
  app = await openWindow(async (service, makerToken) => {
    const maker = clientFor(service.url, makerToken);
    for (const name of names) {
      const design = await maker.createDesign({ name, excerpt: `A ${name.toLowerCase()}`, license: 'cc0' });
      if (withCube.includes(name)) await maker.uploadDocument(design.id, { path: join(MODELS, 'cube.stl') }, { name: 'cube.stl' });
      await maker.publishDesign(design.id);
      ids.set(name, design.id);
    }
  });
  page = app.page;
  rootParent = tempDir('window-drops-root');
  root = join(rootParent, 'Designs');
}

async function closeWindow(): Promise<void> {
  await app?.close();
  if (rootParent) rmSync(rootParent, { recursive: true, force: true });
}

/** Drops a file on `zone` as a desktop drag does: a DataTransfer holding a File, dragenter, dragover, then drop. */
async function dropFile(zone: Locator, name: string, bytes: Buffer): Promise<void> {
  const dataTransfer = await page.evaluateHandle(({ fileName, base64 }) => {
    const g = globalThis as unknown as PageGlobals & {
      DataTransfer: new () => { items: { add(file: unknown): void } };
      File: new (parts: unknown[], name: string) => unknown;
      atob(text: string): string;
    };
    const transfer = new g.DataTransfer();
    transfer.items.add(new g.File([Uint8Array.from(g.atob(base64), (c) => c.charCodeAt(0))], fileName));
    return transfer;
  }, { fileName: name, base64: bytes.toString('base64') });
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  expect(await zone.getAttribute('class')).toMatch(/drop-over/);
  await zone.dispatchEvent('drop', { dataTransfer });
  await dataTransfer.dispose();
}

const documentsOnService = async (name: string) => (await clientFor(app.service.url, app.makerToken).listDocuments(ids.get(name)!)).map((document) => document.name);
const rowOf = (name: string) => page.getByTestId('own-design').filter({ hasText: name });

/** My designs, drawn anew, once the row of `name` shows. */
async function myDesigns(name: string): Promise<void> {
  await showView(page, app.host.origin, '#/');
  await page.getByRole('link', { name: 'My designs', exact: true }).click();
  await rowOf(name).waitFor();
}

describe.skipIf(chromiumSkipReason !== undefined)('dropping files on a design, in Chromium', () => {
  describe('without a sync folder', () => {
    beforeAll(() => openOnDesigns(['Hinge']), 90_000);
    afterAll(closeWindow);

    it('without a sync folder, adding files is off and says to choose one in Sync; a file dropped anyway is not taken', async () => {
      await myDesigns('Hinge');
      const add = rowOf('Hinge').getByRole('button', { name: 'Add files…' });
      await until('Add files… turned off', async () => await add.isDisabled());
      const reasonId = await add.getAttribute('aria-describedby');
      expect(await page.locator(`[id="${reasonId}"]`).textContent()).toBe('Choose a sync folder in Sync to add files.');
      expect(await rowOf('Hinge').getByTestId('drop-picker').isDisabled()).toBe(true);

      const zone = rowOf('Hinge').getByTestId('drop-zone');
      const dataTransfer = await page.evaluateHandle(() => {
        const g = globalThis as unknown as { DataTransfer: new () => { items: { add(file: unknown): void } }; File: new (parts: unknown[], name: string) => unknown };
        const transfer = new g.DataTransfer();
        transfer.items.add(new g.File(['solid cube'], 'cube.stl'));
        return transfer;
      });
      for (const type of ['dragenter', 'dragover', 'drop']) await zone.dispatchEvent(type, { dataTransfer });
      await dataTransfer.dispose();
      // A drop is a discrete event: had it been taken, its row would be on the page when dispatchEvent returns.
      expect(await zone.getAttribute('class')).not.toMatch(/drop-over/);
      expect(await rowOf('Hinge').getByTestId('drop-item').count()).toBe(0);
    });
  });

  describe('choosing a sync folder', () => {
    beforeAll(() => openOnDesigns(['Hinge']), 90_000);
    afterAll(closeWindow);

    it('with a sync folder, a picked file is queued and waits for the content policy, then reaches the service once accepted', async () => {
      await showView(page, app.host.origin, '#/sync');
      await page.getByLabel('Sync folder (full path; made if missing)').fill(root);
      await page.getByRole('button', { name: 'Choose' }).click();
      await page.getByText(`Sync folder: ${root}`).waitFor();
      await page.getByRole('button', { name: 'Start syncing' }).click();

      await page.getByRole('link', { name: 'My designs', exact: true }).click();
      await rowOf('Hinge').getByTestId('drop-picker').setInputFiles(join(MODELS, 'cube.stl'));
      await rowOf('Hinge').getByTestId('drop-item').filter({ hasText: 'cube.stl: queued — see Sync' }).waitFor();
      await rowOf('Hinge').getByText('Nothing is uploaded until you accept the content policy').waitFor();
      expect(readFileSync(join(root, 'hinge', 'cube.stl'))).toEqual(readFileSync(join(MODELS, 'cube.stl')));

      await rowOf('Hinge').getByRole('link', { name: 'see Sync' }).click();
      await page.getByRole('region', { name: 'Content policy' }).getByRole('button', { name: 'I confirm' }).click();
      await until('cube.stl on the service', async () => (await documentsOnService('Hinge')).includes('cube.stl'));
    });
  });

  describe('syncing, the content policy accepted', () => {
    beforeAll(async () => {
      await openOnDesigns(['Latch', 'Pivot'], ['Latch']);
      await app.engine.sync.chooseFolder(root);
      app.engine.sync.acceptContentPolicy();
      await app.engine.startBackground();
      await until('Latch\'s cube.stl in its folder', () => existsSync(join(root, 'latch', 'cube.stl')), 20_000);
    }, 90_000);
    afterAll(closeWindow);

    it('a file dropped on the row is uploaded; one of the same name is kept as "name (2)"; a dropped .exe shows its reason', async () => {
      await myDesigns('Latch');
      // Latch's cube.stl came from the service into its folder: a dropped file of that name does not replace it.
      const zone = rowOf('Latch').getByTestId('drop-zone');
      await dropFile(zone, 'cube.stl', readFileSync(join(MODELS, 'cube.stl')));
      await rowOf('Latch').getByTestId('drop-item').filter({ hasText: 'cube (2).stl' }).waitFor();
      await until('cube (2).stl on the service', async () => (await documentsOnService('Latch')).includes('cube (2).stl'));

      await dropFile(zone, 'setup.exe', Buffer.from('MZ not for upload'));
      const refused = rowOf('Latch').getByTestId('drop-item').filter({ hasText: 'setup.exe' });
      await refused.and(page.locator('[data-state="refused"]')).waitFor();
      expect(await refused.textContent()).toMatch(/executable files \(\.exe\) cannot be uploaded/);
    });

    it('a file dropped on the design\'s own page is added to it too', async () => {
      await showView(page, app.host.origin, `#/designs/${ids.get('Pivot')}`);
      await page.getByRole('heading', { name: 'Pivot', level: 2 }).waitFor();
      await dropFile(page.getByTestId('drop-zone'), 'box.obj', readFileSync(join(MODELS, 'box.obj')));
      await page.getByTestId('drop-item').filter({ hasText: 'box.obj' }).waitFor();
      await until('box.obj on the service', async () => (await documentsOnService('Pivot')).includes('box.obj'));
    });
  });
});
