import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { seriousViolations } from './axe-check';
import { openWindow, type WindowFixture } from '../../harness/window';
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
  { file: '3mf-sample-sphere-logo-texture.3mf', name: 'Sphere logo (3MF)' },
  { file: '3mf-sample-pyramid-beam-lattice.3mf', name: 'Lattice (3MF)' },
  // A tall, narrow part from OpenSCAD (20 × 10 × 60 mm, Z up): a wrong turn shows, as a cube's cannot. And the same
  // part in other units: its 3MF's numbers read as centimetres, its AMF's (PrusaSlicer's) as inches.
  { file: 'tower20x10x60.stl', name: 'Tower (STL)' },
  { file: 'tower20x10x60.3mf', name: 'Tower (3MF)' },
  { file: 'tower20x10x60-centimeter.3mf', name: 'Tower in cm (3MF)' },
  { file: 'tower20x10x60-inch.amf', name: 'Tower in inches (AMF)' },
  // Bad input: the 3MF Consortium's MUSTFAIL samples and downloads cut short.
  { file: '3mf-sample-mustfail-no-model-relationship.3mf', name: 'No model (3MF)' },
  { file: '3mf-sample-mustfail-no-build.3mf', name: 'No build (3MF)' },
  { file: '3mf-sample-mustfail-build-item-no-object.3mf', name: 'Missing object (3MF)' },
  { file: '3mf-sample-mustfail-build-item-type-other.3mf', name: 'Other object (3MF)' },
  { file: 'cube20-truncated.3mf', name: 'Truncated (3MF)' },
  { file: 'tower20x10x60-truncated.stl', name: 'Truncated (STL)' },
] as const;

/** The files that must show, each with no console error and no CSP violation. */
const GOOD = FILES.filter(({ name }) => !/^(No |Missing|Other|Truncated)/.test(name)).map(({ name }) => name);

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

/**
 * The share of the canvas's pixels in the sphere logo's dark navy (about #033569): a colour only its texture has (the
 * view's own light blue, however shaded, keeps its red well above 30).
 */
async function navyShare(preview: ReturnType<Page['getByRole']>): Promise<number> {
  const shot = await preview.locator('canvas').screenshot({ type: 'png' });
  const { data, info } = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let navy = 0;
  for (let i = 0; i < data.length; i += 3) {
    const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
    if (r < 30 && g < 90 && b > 50 && b > g + 20) navy++;
  }
  return navy / (info.width * info.height);
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

  for (const name of ['Tower (STL)', 'Tower (3MF)']) {
    it(`stands a tall, narrow part (${name}) upright: 20 × 10 × 60 mm, its tallest side up`, async () => {
      await onDesign();
      const preview = await view(name);
      const [width, depth, height] = await shownSize(preview);
      expect(await preview.getByTestId('model-size').textContent()).toBe('20 × 10 × 60 mm');
      expect(height).toBeGreaterThan(width!);
      expect(height).toBeGreaterThan(depth!);
      await preview.getByRole('button', { name: 'Close the 3D view' }).click();
    });
  }

  for (const { name, size } of [
    { name: 'Tower in cm (3MF)', size: '200 × 100 × 600 mm' },
    { name: 'Tower in inches (AMF)', size: '508 × 254 × 1,524 mm' },
  ]) {
    it(`honours the unit the file names: ${name} measures ${size}`, async () => {
      await onDesign();
      const preview = await view(name);
      await shownSize(preview);
      expect(await preview.getByTestId('model-size').textContent()).toBe(size);
      await preview.getByRole('button', { name: 'Close the 3D view' }).click();
    });
  }

  it('shows a 3MF texture (decoded in the worker, no blob: URL) in its colours, not the view\'s own', async () => {
    await onDesign();
    const preview = await view('Sphere logo (3MF)');
    await shownSize(preview);
    expect(await preview.getByTestId('model-notes').count()).toBe(0);
    await preview.locator('canvas[data-drawn="true"]').waitFor({ timeout: 15_000 });
    // The logo's dark navy is drawn (a few thousand pixels from this side); untextured, the sphere is all white.
    expect(await navyShare(preview)).toBeGreaterThan(0.001);
    await preview.getByRole('button', { name: 'Close the 3D view' }).click();
  });

  it('draws a 3MF beam lattice as lines and says its beams\' thickness is not shown, with no serious axe finding', async () => {
    await onDesign();
    const preview = await view('Lattice (3MF)');
    const [width, depth, height] = await shownSize(preview);
    expect(width! * depth! * height!).toBeGreaterThan(0);
    expect(await preview.getByTestId('model-notes').textContent()).toMatch(/beam lattice is drawn as thin lines: the beams' thickness is not shown/);
    // The view with its notes, as a screen reader meets it.
    expect(await seriousViolations(page)).toEqual([]);
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
    { name: 'No build (3MF)', reason: /^No build \(3MF\) cannot be shown in 3D: its model has no build: nothing is placed to print\.$/ },
    { name: 'Missing object (3MF)', reason: /^Missing object \(3MF\) cannot be shown in 3D: its build places the object \d+, which the model does not define\.$/ },
    { name: 'Other object (3MF)', reason: /^Other object \(3MF\) cannot be shown in 3D: its build places the object \d+, whose type "other" is not to be printed\.$/ },
    { name: 'Truncated (3MF)', reason: /^Truncated \(3MF\) cannot be shown in 3D: it is not a complete 3MF package/ },
    { name: 'Truncated (STL)', reason: /^Truncated \(STL\) cannot be shown in 3D: it is cut short: it says it holds 112 triangles, and holds 58\.$/ },
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

  for (const size of SIZES) for (const colorScheme of ['light', 'dark'] as const) {
    it(`fits its files table at ${size.width}×${size.height}, ${colorScheme}: short states, no horizontal overflow, no serious axe finding`, async () => {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme });
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
      // The state column stays short: its words, not a sentence (the explanation is the note under the table).
      const stateWidths = await page.locator('.design-documents tbody tr td:nth-child(4)').evaluateAll((cells) => cells.map((cell) => (cell as unknown as { getBoundingClientRect(): { width: number } }).getBoundingClientRect().width));
      expect(Math.max(...stateWidths)).toBeLessThan(160);
      expect(await page.getByTestId('offline-note').textContent()).toMatch(/kept offline once you view it in 3D/);
      expect(await seriousViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1400, height: 900 });
    });
  }

  it('shows every good file, each read in the model worker, with no console error and no CSP violation', async () => {
    const errorsBefore = consoleErrors.length;
    const violationsBefore = app.cspViolations.length;
    for (const name of GOOD) {
      await onDesign();
      const started = workers.length;
      const preview = await view(name);
      await shownSize(preview);
      expect(workers.length, name).toBe(started + 1);
      await preview.getByRole('button', { name: 'Close the 3D view' }).click();
    }
    expect(consoleErrors.slice(errorsBefore)).toEqual([]);
    expect(app.cspViolations.slice(violationsBefore)).toEqual([]);
  });
});
