import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chromiumSkipReason } from '../support/chromium';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../engine/sync/sync-fixtures';
import { openWindow, type PageGlobals, type WindowFixture } from './window-fixture';
import { until } from '../support/until';

const MODELS = join(import.meta.dirname, '../fixtures/models');

let app: WindowFixture;
let page: Page;
let hingeId: number;
let root: string;
const rootParent = tempDir('window-drops-root');

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

const documentsOnService = async () => (await clientFor(app.service.url, app.makerToken).listDocuments(hingeId)).map((document) => document.name);

describe.skipIf(chromiumSkipReason !== undefined)('dropping files on a design, in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async (service, makerToken) => {
      const maker = clientFor(service.url, makerToken);
      const hinge = await maker.createDesign({ name: 'Hinge', excerpt: 'A hinge', license: 'cc0' });
      await maker.publishDesign(hinge.id);
      hingeId = hinge.id;
    });
    page = app.page;
    root = join(rootParent, 'Designs');
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    rmSync(rootParent, { recursive: true, force: true });
  });

  const hingeRow = () => page.getByTestId('own-design').filter({ hasText: 'Hinge' });

  it('without a sync folder, adding files is off and says to choose one in Sync; a file dropped anyway is not taken', async () => {
    await page.getByRole('link', { name: 'My designs', exact: true }).click();
    await hingeRow().waitFor();
    const add = hingeRow().getByRole('button', { name: 'Add files…' });
    await until('Add files… turned off', async () => await add.isDisabled());
    const reasonId = await add.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${reasonId}"]`).textContent()).toBe('Choose a sync folder in Sync to add files.');
    expect(await hingeRow().getByTestId('drop-picker').isDisabled()).toBe(true);

    const zone = hingeRow().getByTestId('drop-zone');
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
    expect(await hingeRow().getByTestId('drop-item').count()).toBe(0);
  });

  it('with a sync folder, a picked file is queued and waits for the content policy, then reaches the service once accepted', async () => {
    await page.getByRole('link', { name: 'Sync', exact: true }).click();
    await page.getByLabel('Sync folder (full path; made if missing)').fill(root);
    await page.getByRole('button', { name: 'Choose' }).click();
    await page.getByText(`Sync folder: ${root}`).waitFor();
    await page.getByRole('button', { name: 'Start syncing' }).click();

    await page.getByRole('link', { name: 'My designs', exact: true }).click();
    await hingeRow().getByTestId('drop-picker').setInputFiles(join(MODELS, 'cube.stl'));
    await hingeRow().getByTestId('drop-item').filter({ hasText: 'cube.stl: queued — see Sync' }).waitFor();
    await hingeRow().getByText('Nothing is uploaded until you accept the content policy').waitFor();
    expect(readFileSync(join(root, 'hinge', 'cube.stl'))).toEqual(readFileSync(join(MODELS, 'cube.stl')));

    await hingeRow().getByRole('link', { name: 'see Sync' }).click();
    await page.getByRole('region', { name: 'Content policy' }).getByRole('button', { name: 'I confirm' }).click();
    await until('cube.stl on the service', async () => (await documentsOnService()).includes('cube.stl'));
  });

  it('a file dropped on the row is uploaded; one of the same name is kept as "name (2)"; a dropped .exe shows its reason', async () => {
    await page.getByRole('link', { name: 'My designs', exact: true }).click();
    const zone = hingeRow().getByTestId('drop-zone');
    await dropFile(zone, 'cube.stl', readFileSync(join(MODELS, 'cube.stl')));
    await hingeRow().getByTestId('drop-item').filter({ hasText: 'cube (2).stl' }).waitFor();
    await until('cube (2).stl on the service', async () => (await documentsOnService()).includes('cube (2).stl'));

    await dropFile(zone, 'setup.exe', Buffer.from('MZ not for upload'));
    const refused = hingeRow().getByTestId('drop-item').filter({ hasText: 'setup.exe' });
    await refused.and(page.locator('[data-state="refused"]')).waitFor();
    expect(await refused.textContent()).toMatch(/executable files \(\.exe\) cannot be uploaded/);
  });

  it('a file dropped on the design\'s own page is added to it too', async () => {
    await page.goto(`${app.host.origin}/#/designs/${hingeId}`);
    await page.getByRole('heading', { name: 'Hinge', level: 2 }).waitFor();
    await dropFile(page.getByTestId('drop-zone'), 'box.obj', readFileSync(join(MODELS, 'box.obj')));
    await page.getByTestId('drop-item').filter({ hasText: 'box.obj' }).waitFor();
    await until('box.obj on the service', async () => (await documentsOnService()).includes('box.obj'));
  });
});
