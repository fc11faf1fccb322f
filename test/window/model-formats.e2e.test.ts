import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../support/chromium';
import { clientFor } from '../engine/sync/sync-fixtures';
import { seriousViolations } from './axe-check';
import { openWindow, type WindowFixture } from './window-fixture';
import { showView } from './views';

const MODELS = join(import.meta.dirname, '../fixtures/models');
/** The window's sizes checked: a desktop one and a small one. */
const SIZES = [{ width: 1400, height: 900 }, { width: 1024, height: 700 }] as const;

/** The files of the design, as the service names documents (a label; the type comes from the file). */
const FILES = [
  // A 20 mm cube from OpenSCAD, and PrusaSlicer's exports of it: each must measure 20 × 20 × 20 mm, Z up.
  { file: 'cube20.stl', name: 'Cube (STL)' },
  { file: 'cube20.3mf', name: 'Cube (3MF)' },
  { file: 'cube20.amf', name: 'Cube (AMF)' },
  // Blender's exports of it: PLY (Z up, unitless) and GLB (Y up, in metres: 0.02 m).
  { file: 'cube20.ply', name: 'Cube (PLY)' },
  { file: 'cube20.glb', name: 'Cube (GLB)' },
  { file: 'cube20.gcode', name: 'Cube (G-code)' },
  // A classic sample mesh, Y up as OBJ files are by custom: it is not turned.
  { file: 'teapot.obj', name: 'Teapot (OBJ)' },
  // The 3MF Consortium's samples: components with transforms, colours, base materials; and bad input.
  { file: '3mf-sample-components.3mf', name: 'Components (3MF)' },
  { file: '3mf-sample-rhombicuboctahedron-color.3mf', name: 'Colours (3MF)' },
  { file: '3mf-sample-multiple-cylinders.3mf', name: 'Cylinders (3MF)' },
  { file: '3mf-sample-mustfail-no-model-relationship.3mf', name: 'No model (3MF)' },
  { file: 'cube20-truncated.3mf', name: 'Truncated (3MF)' },
] as const;

let app: WindowFixture;
let page: Page;
let designId: number;
const consoleErrors: string[] = [];
/** The addresses of the workers the page started. */
const workers: string[] = [];

async function onDesign(): Promise<void> {
  await showView(page, app.host.origin, `#/designs/${designId}`);
  await page.getByRole('heading', { name: 'Formats', level: 2 }).waitFor();
}

/** Opens a file's 3D view and gives it. */
async function view(name: string) {
  await page.getByRole('button', { name: `View ${name} in 3D` }).click();
  return page.getByRole('region', { name: `3D view of ${name}` });
}

/** The size the view shows, as three numbers in mm. */
async function shownSize(preview: ReturnType<Page['getByRole']>): Promise<number[]> {
  await preview.locator('canvas[data-loaded="true"]').waitFor({ timeout: 15_000 });
  const text = (await preview.getByTestId('model-size').textContent())!;
  expect(text).toMatch(/^[\d.,]+ × [\d.,]+ × [\d.,]+ mm$/);
  return text.replace(' mm', '').split(' × ').map((part) => Number(part.replace(/,/g, '')));
}

describe.skipIf(chromiumSkipReason !== undefined)('the 3D view of the model formats makers share, in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async (service) => {
      const alice = clientFor(service.url, service.addUser('alice').token);
      const design = await alice.createDesign({ name: 'Formats', excerpt: 'One cube, many files', license: 'ccbysa', description: '<p>A 20 mm cube.</p>' });
      for (const { file, name } of FILES) await alice.uploadDocument(design.id, { path: join(MODELS, file) }, { name });
      await alice.publishDesign(design.id);
      designId = design.id;
    });
    page = app.page;
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
    page.on('worker', (worker) => workers.push(worker.url()));
    await page.setViewportSize({ width: 1400, height: 900 });
  }, 90_000);

  afterAll(() => app?.close());

  it('offers every model file in 3D', async () => {
    await onDesign();
    for (const { name } of FILES) await page.getByRole('button', { name: `View ${name} in 3D` }).waitFor();
  });

  for (const name of ['Cube (STL)', 'Cube (3MF)', 'Cube (AMF)', 'Cube (PLY)', 'Cube (GLB)']) {
    it(`shows ${name} right way up and to scale: 20 × 20 × 20 mm, kept offline once seen`, async () => {
      await onDesign();
      const preview = await view(name);
      const size = await shownSize(preview);
      for (const length of size) expect(length).toBeCloseTo(20, 0);
      expect(await preview.getByTestId('model-size').textContent()).toBe('20 × 20 × 20 mm');
      expect(await preview.getByRole('status').textContent()).toMatch(/^Cube \(\w+\): 12 triangles\. Drag to turn, scroll to zoom\.$/);
      const row = page.locator('.design-documents tbody tr').filter({ hasText: name });
      await row.locator('td').nth(3).getByText('Kept offline', { exact: true }).waitFor();
      await preview.getByRole('button', { name: 'Close the 3D view' }).click();
    });
  }

  it('shows an OBJ file as it is, Y up: the teapot stands on its base', async () => {
    await onDesign();
    const started = workers.length;
    const preview = await view('Teapot (OBJ)');
    const [width, depth, height] = await shownSize(preview);
    // Utah teapot: wider (spout to handle) than deep, and less tall than wide.
    expect(width!).toBeGreaterThan(depth!);
    expect(height!).toBeLessThan(width!);
    expect(await preview.getByRole('status').textContent()).toMatch(/^Teapot \(OBJ\): [\d,]+ triangles\./);
    expect(workers.length).toBe(started + 1);
    await preview.getByRole('button', { name: 'Close the 3D view' }).click();
  });

  it('shows 3MF components, colours and materials (the 3MF Consortium\'s samples)', async () => {
    for (const name of ['Components (3MF)', 'Colours (3MF)', 'Cylinders (3MF)']) {
      await onDesign();
      const preview = await view(name);
      const [width, depth, height] = await shownSize(preview);
      expect(width! * depth! * height!).toBeGreaterThan(0);
      expect(await preview.getByRole('status').textContent()).toMatch(/ triangles\. /);
      await preview.getByRole('button', { name: 'Close the 3D view' }).click();
    }
    // The components sample places one part twice, scaled (its transforms): its build spans both.
    await onDesign();
    const size = await shownSize(await view('Components (3MF)'));
    expect(size[0]).toBeGreaterThan(20);
  });

  it('shows G-code as toolpaths, with a labelled layer slider, by keyboard, that changes what is drawn', async () => {
    await onDesign();
    const started = workers.length;
    const preview = await view('Cube (G-code)');
    const [width, depth, height] = await shownSize(preview);
    // The cube's outer perimeter is drawn along its edge: within an extrusion width of 20 mm. Its top layer is
    // printed at 19.85 mm (0.35 mm, then 0.3 mm layers: PrusaSlicer's defaults), measured from the printer's bed.
    expect(Math.abs(width! - 20)).toBeLessThan(1);
    expect(Math.abs(depth! - 20)).toBeLessThan(1);
    expect(height).toBeCloseTo(19.9, 1);
    expect(await preview.getByRole('status').textContent()).toMatch(/^Cube \(G-code\): toolpaths of \d+ layers\./);
    // Read off the page's main thread, in the model worker the window's build serves from its own origin.
    expect(workers.slice(started)).toEqual([expect.stringMatching(new RegExp(`^${app.host.origin}/assets/model-worker-[\\w-]+\\.js$`))]);
    const slider = preview.getByRole('slider', { name: 'Layers shown' });
    const layers = Number(await slider.getAttribute('max'));
    expect(layers).toBeGreaterThan(50);
    expect(await slider.inputValue()).toBe(String(layers));
    expect(await preview.getByTestId('layer-shown').textContent()).toBe(`Layers 1 to ${layers} of ${layers} (up to 19.85 mm)`);
    const canvas = preview.locator('canvas');
    await page.waitForTimeout(300);
    const all = await canvas.screenshot();
    await slider.focus();
    await page.keyboard.press('Home');
    expect(await slider.inputValue()).toBe('1');
    expect(await preview.getByTestId('layer-shown').textContent()).toBe(`Layers 1 to 1 of ${layers} (up to 0.35 mm)`);
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    expect(await slider.inputValue()).toBe('4');
    await page.waitForTimeout(300);
    const few = await canvas.screenshot();
    expect(few.equals(all)).toBe(false);
    await preview.getByRole('button', { name: 'Close the 3D view' }).click();
  });

  for (const { name, reason } of [
    { name: 'No model (3MF)', reason: /^No model \(3MF\) cannot be shown in 3D: its _rels\/\.rels names no 3D model part/ },
    { name: 'Truncated (3MF)', reason: /^Truncated \(3MF\) cannot be shown in 3D: it is not a complete 3MF package/ },
  ]) {
    it(`says which file cannot be read and why, and the page goes on: ${name}`, async () => {
      await onDesign();
      const preview = await view(name);
      const alert = preview.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(reason);
      expect(await preview.locator('canvas').count()).toBe(0);
      await preview.getByRole('button', { name: 'Close the 3D view' }).click();
      // The page still works: another file shows.
      const next = await view('Cube (STL)');
      await shownSize(next);
      await next.getByRole('button', { name: 'Close the 3D view' }).click();
    });
  }

  for (const size of SIZES) {
    it(`fits its files table at ${size.width}×${size.height}: short states, no horizontal overflow, no serious axe finding`, async () => {
      await page.setViewportSize(size);
      await onDesign();
      const table = page.locator('.design-documents table');
      await table.waitFor();
      const overflow = await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number }; querySelector(s: string): { getBoundingClientRect(): { right: number } } | null } }).document;
        const tableRight = doc.querySelector('.design-documents table')!.getBoundingClientRect().right;
        const sectionRight = doc.querySelector('.design-documents')!.getBoundingClientRect().right;
        return { page: doc.documentElement.scrollWidth - doc.documentElement.clientWidth, table: tableRight - sectionRight };
      });
      expect(overflow.page).toBeLessThanOrEqual(0);
      expect(overflow.table).toBeLessThanOrEqual(0.5);
      const states = await page.locator('.design-documents tbody tr td:nth-child(4)').allTextContents();
      expect(states.every((state) => state === 'Kept offline' || state === 'Not kept offline')).toBe(true);
      expect(await page.getByTestId('offline-note').textContent()).toMatch(/kept offline once you view it in 3D/);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  it('reported no console error and no CSP violation', () => {
    expect(consoleErrors).toEqual([]);
    expect(app.cspViolations).toEqual([]);
  });
});
