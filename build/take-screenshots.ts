/**
 * `npm run screenshots`: the README's pictures of the window, taken the way a person first sees it — the bundled
 * local service with its sample designs (real images and 3D models, `--demo`), signed in as `demo`, the catalogue
 * pulled and a sync folder in step — in Debian's Chromium at 1400×900, into docs/screenshots/. Tests never write
 * there: what they show is built to test, not to be looked at. `npm run screenshots -- library-nl` writes only the
 * pictures named (the whole walk still runs: each picture needs the state the ones before it left).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { ServiceClient } from '../electron/engine/api/service-client';
import { MemoryTokenStore } from '../electron/engine/authorization/memory-token-store';
import type { Engine } from '../electron/engine/runtime/engine';
import { openEngine } from '../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../electron/engine/settings/settings-store';
import { findApplication, grantAuthorization, REGISTERED_APPLICATION } from '../service/authorization/integrations';
import { seedDemo } from '../service/seed/demo-seed';
import { startService } from '../service/server/start-service';
import { findUserByScreenName } from '../service/users/user-accounts';
import { CHROMIUM_PATH } from '../harness/chromium';
import { until } from '../harness/until';
import { buildWindow, type BuiltWindow } from '../harness/window-build';
import { openWindowOn } from '../harness/window';

const OUT = resolve(import.meta.dirname, '../docs/screenshots');
/** The pictures to write (all when none is named). */
const ONLY = new Set(process.argv.slice(2));
/** Real model files with their provenance (test/fixtures/README.md): a 3MF Consortium sample with colours, PrusaSlicer's G-code. */
const MODELS = resolve(import.meta.dirname, '../test/fixtures/models');
/** A design of demo's with the model files makers share besides STL, shown in 3D in the README. */
const FORMATS_DESIGN = 'Print Test Pieces';
/** The design the README shows: an adapted model under CC BY, so the attribution and its "Based on" line show. */
const SHOWN_DESIGN = 'Rack Gear Segment';

interface PageWorld { document: { fonts: { ready: Promise<unknown> }; images: ArrayLike<{ complete: boolean; loading: string }> } }

const scratch = mkdtempSync(join(tmpdir(), 'design-sync-screenshots-'));
const cleanups: (() => Promise<unknown> | unknown)[] = [() => rmSync(scratch, { recursive: true, force: true })];

async function openProfile(name: string, serviceUrl: string | null, token: string | null): Promise<Engine> {
  const engine = await openEngine({
    profileDir: join(scratch, name), ...(serviceUrl ? { serviceUrl } : {}), userAgent: 'design-sync-screenshots', trash: 'folder',
    tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore(),
  });
  cleanups.unshift(() => engine.close());
  return engine;
}

/** The window on a profile's engine as `design-sync ui` serves it, in Debian's Chromium at 1400×900 (harness/window.ts). */
async function openWindowFor(engine: Engine, built: BuiltWindow): Promise<Page> {
  const window = await openWindowOn(engine, { built, viewport: { width: 1400, height: 900 } });
  cleanups.unshift(() => window.close());
  return window.page;
}

async function shoot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (ONLY.size > 0 && !ONLY.has(name)) return;
  // Nothing caught mid-animation or mid-load: fonts, images and the focus ring settled.
  // (Functions typed by hand: this script's world is Node's, without the DOM's types.)
  await page.evaluate(() => (globalThis as unknown as PageWorld).document.fonts.ready);
  // A lazy image off screen loads only when scrolled to: not one the picture waits for.
  await page.waitForFunction(() => Array.from((globalThis as unknown as PageWorld).document.images).every((image) => image.complete || image.loading === 'lazy'));
  await page.screenshot({ path: join(OUT, `${name}.png`), ...options });
  process.stdout.write(`  docs/screenshots/${name}.png\n`);
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`screenshots need Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
  mkdirSync(OUT, { recursive: true });
  process.stdout.write('building the window…\n');
  const built = await buildWindow();
  cleanups.push(() => built.remove());

  process.stdout.write('starting the local service with its sample designs…\n');
  const service = await startService({ dataDir: join(scratch, 'service'), port: 0 });
  cleanups.unshift(() => service.close());
  await seedDemo(service.ctx);
  const demo = findUserByScreenName(service.ctx.db, 'demo')!;
  const token = grantAuthorization(service.ctx.db, demo.id, findApplication(service.ctx.db, REGISTERED_APPLICATION)!.id, Date.now()).token;

  // Besides the sample designs' STL and OBJ: a 3MF with its colours and a sliced G-code, as makers share them.
  const demoApi = new ServiceClient({ baseUrl: service.url, token: () => token });
  const pieces = await demoApi.createDesign({ name: FORMATS_DESIGN, excerpt: 'A colour test piece as a 3MF and a sliced calibration cube as G-code', license: 'ccby' });
  await demoApi.uploadDocument(pieces.id, { path: join(MODELS, '3mf-sample-rhombicuboctahedron-color.3mf'), fileName: 'rhombicuboctahedron-colours.3mf' }, { name: 'Colour test piece (3MF)' });
  await demoApi.uploadDocument(pieces.id, { path: join(MODELS, 'cube20.gcode'), fileName: 'calibration-cube-20mm.gcode' }, { name: 'Calibration cube, sliced (G-code)' });
  await demoApi.publishDesign(pieces.id);

  // A first run: no service chosen yet.
  const welcome = await openWindowFor(await openProfile('first-run', null, null), built);
  await welcome.getByRole('heading', { name: /welcome/i }).first().waitFor();
  await shoot(welcome, 'welcome-light');

  process.stdout.write('pulling the catalogue and syncing a folder…\n');
  const engine = await openProfile('demo', service.url, token);
  await engine.catalogue.pullNow();
  await engine.sync.chooseFolder(join(scratch, 'Designs'));
  engine.sync.acceptContentPolicy();
  await engine.startBackground();

  const page = await openWindowFor(engine, built);
  await page.locator('[data-testid="design-card"] img').first().waitFor();
  await page.getByRole('button', { name: /^Up to date/ }).waitFor({ timeout: 60_000 });
  // A design without an image shows a picture the window draws from its model, one at a time while idle: each card of
  // the first rows has its picture before the shot.
  await until('the pictures of the first cards', async () => {
    const covers = page.getByTestId('design-card').locator('.thumb');
    const shown = Math.min(await covers.count(), 10);
    for (let i = 0; i < shown; i++) if (await covers.nth(i).evaluate((cover) => cover.classList.contains('thumb-none'))) return false;
    return shown > 0;
  }, 60_000);
  await shoot(page, 'library-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'library-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByPlaceholder(/^Search designs/).fill(SHOWN_DESIGN);
  await page.getByRole('link', { name: SHOWN_DESIGN, exact: true }).first().click();
  await page.getByRole('heading', { name: SHOWN_DESIGN, level: 2 }).waitFor();
  await page.getByTestId('based-on').waitFor();
  await shoot(page, 'design-light');
  await page.getByRole('button', { name: /^View .+ in 3D$/ }).first().click();
  const canvas = page.getByRole('region', { name: /^3D view of / }).locator('canvas[data-loaded="true"]');
  await canvas.waitFor({ timeout: 30_000 });
  await canvas.scrollIntoViewIfNeeded();
  await shoot(page, 'design-3d-light');
  await page.getByRole('button', { name: 'Close the 3D view' }).click();

  // The 3MF with its colours, then the G-code's toolpaths with the layer slider.
  await page.getByRole('link', { name: 'Library', exact: true }).click();
  await page.getByPlaceholder(/^Search designs/).fill(FORMATS_DESIGN);
  await page.getByRole('link', { name: FORMATS_DESIGN, exact: true }).first().click();
  await page.getByRole('heading', { name: FORMATS_DESIGN, level: 2 }).waitFor();
  for (const [label, name] of [['Colour test piece (3MF)', 'design-3mf-light'], ['Calibration cube, sliced (G-code)', 'design-gcode-light']] as const) {
    await page.getByRole('button', { name: `View ${label} in 3D` }).click();
    const view = page.getByRole('region', { name: `3D view of ${label}` });
    await view.locator('canvas[data-drawn="true"]').waitFor({ timeout: 60_000 });
    await view.scrollIntoViewIfNeeded();
    await shoot(page, name);
    await page.getByRole('button', { name: 'Close the 3D view' }).click();
  }
  await page.getByRole('link', { name: 'Library', exact: true }).click();
  await page.getByPlaceholder(/^Search designs/).fill('').catch(() => {});

  await page.getByRole('link', { name: 'My designs', exact: true }).click();
  const rows = page.getByTestId('own-design');
  await rows.first().waitFor();
  await until('every design of demo in step', async () => {
    const states = await page.getByTestId('own-folder-state').allTextContents();
    return states.length > 0 && states.every((state) => state === 'In step');
  }, 60_000);
  // A draft without an image shows a picture made from its model, marked as made here.
  await page.getByTestId('generated-mark').first().waitFor({ timeout: 60_000 });
  await shoot(page, 'my-designs-light');

  await page.getByRole('link', { name: 'Sync', exact: true }).click();
  await page.locator('.activity-list li').first().waitFor();
  await shoot(page, 'sync-light');

  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.locator('.settings .panel').first().waitFor();
  await shoot(page, 'settings-light');

  // The library in Dutch: the profile's language setting, the window opened again in it.
  await engine.appSettings.store.update({ language: 'nl' });
  const dutch = await openWindowFor(engine, built);
  await dutch.getByRole('link', { name: 'Bibliotheek', exact: true }).waitFor({ timeout: 30_000 });
  await dutch.locator('[data-testid="design-card"] img').first().waitFor();
  await until('the pictures of the first cards, in Dutch', async () => {
    const covers = dutch.getByTestId('design-card').locator('.thumb');
    const shown = Math.min(await covers.count(), 10);
    for (let i = 0; i < shown; i++) if (await covers.nth(i).evaluate((cover) => cover.classList.contains('thumb-none'))) return false;
    return shown > 0;
  }, 60_000);
  await shoot(dutch, 'library-nl');
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    for (const cleanup of cleanups) await Promise.resolve().then(cleanup).catch(() => {});
  });
