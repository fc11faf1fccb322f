import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page, Worker } from 'playwright-core';
import sharp from 'sharp';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { until } from '../../harness/until';
import { openWindow, type WindowFixture } from '../../harness/window';
import { showView } from './views';

const MODELS = join(import.meta.dirname, '../fixtures/models');

let app: WindowFixture;
let page: Page;
let designId: number;
const workers: Worker[] = [];
const closedWorkers = new Set<Worker>();
const consoleErrors: string[] = [];

async function onDesign(): Promise<void> {
  await showView(page, app.host.origin, `#/designs/${designId}`);
  await page.getByRole('heading', { name: 'Parts', level: 2 }).waitFor();
}

/** Opens a file's 3D view and waits for its first whole drawing. */
async function drawnView(name: string): Promise<Locator> {
  await page.getByRole('button', { name: `View ${name} in 3D` }).click();
  const preview = page.getByRole('region', { name: `3D view of ${name}` });
  await preview.locator('canvas[data-drawn="true"]').waitFor({ timeout: 30_000 });
  return preview;
}

/** The canvas as shown on the page, as raw RGB. */
async function pixels(preview: Locator): Promise<Buffer> {
  return sharp(await preview.locator('canvas').screenshot({ type: 'png' })).removeAlpha().raw().toBuffer();
}

/** The share of pixels in the view's own light blue, however shaded (the model, not the background or the bed). */
function modelShare(data: Buffer): number {
  let blue = 0;
  for (let i = 0; i < data.length; i += 3) {
    const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
    if (b > 90 && b > r + 40 && b > g + 10) blue++;
  }
  return blue / (data.length / 3);
}

/** The share of pixels that differ between two pictures of the same size. */
function changedShare(before: Buffer, after: Buffer): number {
  let changed = 0;
  for (let i = 0; i < before.length; i += 3) {
    if (Math.abs(before[i]! - after[i]!) + Math.abs(before[i + 1]! - after[i + 1]!) + Math.abs(before[i + 2]! - after[i + 2]!) > 30) changed++;
  }
  return changed / (before.length / 3);
}

/** The canvas's picture once it has stopped changing: the same over a second (a turn eases out over a few frames). */
async function still(preview: Locator): Promise<Buffer> {
  let last = await pixels(preview);
  let since = Date.now();
  return until('the picture still', async () => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = await pixels(preview);
    if (changedShare(last, now) > 0) {
      last = now;
      since = Date.now();
      return null;
    }
    return Date.now() - since >= 1_000 ? now : null;
  }, 20_000);
}

describe.skipIf(chromiumSkipReason !== undefined)('turning and zooming the 3D view, drawn in its worker, in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async (service) => {
      const alice = clientFor(service.url, service.addUser('alice').token);
      const design = await alice.createDesign({ name: 'Parts', excerpt: 'A tower', license: 'ccbysa', description: '<p>A tower.</p>' });
      await alice.uploadDocument(design.id, { path: join(MODELS, 'tower20x10x60.stl') }, { name: 'Tower (STL)' });
      await alice.publishDesign(design.id);
      designId = design.id;
    });
    page = app.page;
    page.on('worker', (worker) => {
      workers.push(worker);
      worker.on('close', () => closedWorkers.add(worker));
    });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
    await page.setViewportSize({ width: 1400, height: 900 });
  }, 90_000);

  afterAll(() => app?.close());

  it('draws in the model worker: the page\'s canvas is handed over, and the page makes no WebGL context of it', async () => {
    await onDesign();
    const preview = await drawnView('Tower (STL)');
    // A canvas handed to a worker (transferControlToOffscreen) gives the page no context of its own.
    const pageContext = await preview.locator('canvas').evaluate((canvas) => {
      try {
        return (canvas as unknown as { getContext(kind: string): unknown }).getContext('webgl2') ? 'made' : 'none';
      } catch (error) {
        return (error as Error).name;
      }
    });
    expect(pageContext).toBe('InvalidStateError');
    expect(modelShare(await still(preview))).toBeGreaterThan(0.005);
    await preview.getByRole('button', { name: 'Close the 3D view' }).click();
    await preview.waitFor({ state: 'detached' });
  });

  it('turns the model on a drag and zooms in on the wheel, as the page forwards them to the worker', async () => {
    await onDesign();
    const preview = await drawnView('Tower (STL)');
    const canvas = preview.locator('canvas');
    await canvas.scrollIntoViewIfNeeded();
    // The first picture as it stays: the canvas's frame shown by the page may lag the worker's word that it drew.
    const first = await still(preview);
    const box = (await canvas.boundingBox())!;
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };

    // A quarter turn (OrbitControls turns a full turn for a drag of the canvas's height): the tower, twice as wide
    // as deep, then shows its other side. (A half turn of it looks the same.)
    const quarter = box.height / 4;
    await page.mouse.move(centre.x, centre.y);
    await page.mouse.down();
    for (let step = 1; step <= 5; step++) await page.mouse.move(centre.x + (step * quarter) / 5, centre.y);
    await page.mouse.up();
    await until('the model drawn turned', async () => changedShare(first, await pixels(preview)) > 0.02, 15_000);
    // Still once released: the picture settles (the turn eases out) and stays.
    const settled = await still(preview);

    const before = modelShare(settled);
    const scrolled = await page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY);
    await page.mouse.move(centre.x, centre.y);
    await page.mouse.wheel(0, -1000);
    await until('the model drawn larger after zooming in', async () => modelShare(await pixels(preview)) > before * 1.3, 15_000);
    // The wheel zoomed the view, not the page.
    expect(await page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY)).toBe(scrolled);

    // Fit to view frames the model again as it was first shown.
    await preview.getByRole('button', { name: 'Fit to view' }).click();
    await until('the model framed as first shown', async () => changedShare(first, await pixels(preview)) < 0.002, 15_000);
    await preview.getByRole('button', { name: 'Close the 3D view' }).click();
    await preview.waitFor({ state: 'detached' });
    expect(consoleErrors).toEqual([]);
  });

  it('shows the model\'s size and says it cannot be drawn where its canvas cannot be handed to the worker', async () => {
    await onDesign();
    const started = workers.length;
    const hide = () => page.evaluate(() => {
      const prototype = (globalThis as unknown as { HTMLCanvasElement: { prototype: object } }).HTMLCanvasElement.prototype;
      const scope = globalThis as unknown as { keptTransfer?: PropertyDescriptor };
      scope.keptTransfer = Object.getOwnPropertyDescriptor(prototype, 'transferControlToOffscreen');
      Object.defineProperty(prototype, 'transferControlToOffscreen', { value: undefined, configurable: true });
    });
    const restore = () => page.evaluate(() => {
      const prototype = (globalThis as unknown as { HTMLCanvasElement: { prototype: object } }).HTMLCanvasElement.prototype;
      const scope = globalThis as unknown as { keptTransfer?: PropertyDescriptor };
      if (scope.keptTransfer) Object.defineProperty(prototype, 'transferControlToOffscreen', scope.keptTransfer);
    });
    await hide();
    try {
      await page.getByRole('button', { name: 'View Tower (STL) in 3D' }).click();
      const preview = page.getByRole('region', { name: '3D view of Tower (STL)' });
      const problem = preview.getByRole('alert');
      await problem.waitFor({ timeout: 30_000 });
      expect(await problem.textContent()).toBe('Tower (STL) cannot be drawn here: this computer does not offer WebGL to the window. Its size and what it holds are shown without a picture.');
      expect(await preview.getByTestId('model-size').textContent()).toBe('20 × 10 × 60 mm');
      expect(await preview.locator('canvas').count()).toBe(0);
      expect(await preview.getByRole('button', { name: 'Fit to view' }).count()).toBe(0);
      const worker = await until('the model worker started', () => workers[started], 30_000);
      await until('the model worker ended once it told the facts', () => closedWorkers.has(worker), 30_000);
      await preview.getByRole('button', { name: 'Close the 3D view' }).click();
      await preview.waitFor({ state: 'detached' });
    } finally {
      await restore();
    }
  });

  it('closing the view, with its button or Escape, ends its model worker', async () => {
    for (const close of ['button', 'Escape'] as const) {
      await onDesign();
      const started = workers.length;
      const preview = await drawnView('Tower (STL)');
      const worker = await until('the model worker started', () => workers[started], 30_000);
      expect(closedWorkers.has(worker)).toBe(false);
      if (close === 'button') await preview.getByRole('button', { name: 'Close the 3D view' }).click();
      else await preview.press('Escape');
      await preview.waitFor({ state: 'detached' });
      await until('the model worker ended', () => closedWorkers.has(worker), 30_000);
      expect(workers.length).toBe(started + 1);
    }
  });
});
