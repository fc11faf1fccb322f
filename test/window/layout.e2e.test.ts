import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { openWindow, type WindowFixture } from '../../harness/window';
import { loadWindow, showView } from './views';

const FIXTURES = join(import.meta.dirname, '../fixtures');
const LONG_DESCRIPTION = Array.from({ length: 40 }, (_, n) => `<p>Step ${n + 1}: print the part, check the fit, and sand the edges where it binds.</p>`).join('');

/** The few DOM names the checks in the page use (these tests' TypeScript world has no DOM types). */
interface Box { scrollHeight: number; clientHeight: number; scrollTop: number; tagName: string; className: string }
interface Doc {
  scrollingElement: Box;
  activeElement: { getAttribute(name: string): string | null; placeholder?: string } | null;
  querySelector(selector: string): Box | null;
  querySelectorAll(selector: string): ArrayLike<Box>;
}
interface PageWorld { document: Doc; getComputedStyle(element: unknown): { overflowY: string } }

let app: WindowFixture;
let page: Page;
let gearId = 0;

/** Every element that scrolls vertically now (its content overflows and its overflow lets it scroll). */
async function verticalScrollers(): Promise<string[]> {
  return page.evaluate(() => {
    const { document, getComputedStyle } = (globalThis as unknown as PageWorld);
    const found: string[] = [];
    const root = document.scrollingElement;
    if (root.scrollHeight > root.clientHeight) found.push('the page itself');
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const overflow = getComputedStyle(element).overflowY;
      if ((overflow === 'auto' || overflow === 'scroll') && element.scrollHeight > element.clientHeight + 1) found.push(`${element.tagName.toLowerCase()}.${element.className}`);
    }
    return found;
  });
}

const gridScrollTop = () => page.evaluate(() => (globalThis as unknown as PageWorld).document.querySelector('.grid-scroller')!.scrollTop);
const focusedDesignId = () => page.evaluate(() => (globalThis as unknown as PageWorld).document.activeElement?.getAttribute('data-design-id') ?? null);

const DESKTOP = { width: 1400, height: 900 };

/** The library at a desktop window's size, loaded afresh (nothing typed, scrolled or focused), its cards shown. */
async function freshLibrary(): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await loadWindow(page, app.host.origin);
  await page.locator('.grid-scroller a[data-design-id]').first().waitFor();
}

/** Gear's page, drawn anew, at `size`. */
async function onGear(size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await showView(page, app.host.origin, `#/designs/${gearId}`);
  await page.getByRole('heading', { name: 'Gear', level: 2 }).waitFor();
  await page.locator('.design-documents').waitFor();
}

/** Scrolls the grid down by `by` pixels and opens a card it then shows whole; returns the card's design id. */
async function scrollAndOpenACard(by: number): Promise<{ id: string; scrollTop: number }> {
  await page.locator('.grid-scroller').evaluate((element, offset) => { (element as unknown as Box).scrollTop = offset; }, by);
  const scroller = (await page.locator('.grid-scroller').boundingBox())!;
  const links = page.locator('.grid-scroller a[data-design-id]');
  await links.first().waitFor();
  for (const link of await links.all()) {
    const box = await link.boundingBox();
    if (box && box.y > scroller.y + 40 && box.y + box.height < scroller.y + scroller.height - 40) {
      const id = (await link.getAttribute('data-design-id'))!;
      const scrollTop = await gridScrollTop();
      await link.click();
      await page.locator('.design-header h2').waitFor();
      return { id, scrollTop };
    }
  }
  throw new Error('no card shown whole after scrolling');
}

describe.skipIf(chromiumSkipReason !== undefined)('the window uses its space: one scroll container per view, content that grows with the width', () => {
  beforeAll(async () => {
    app = await openWindow(async (service, makerToken) => {
      const alice = clientFor(service.url, service.addUser('alice').token);
      const gear = await alice.createDesign({ name: 'Gear', excerpt: 'A spur gear', license: 'ccby', description: LONG_DESCRIPTION });
      await alice.uploadImage(gear.id, { path: join(FIXTURES, 'images', 'jpg-sample.jpg') });
      await alice.uploadDocument(gear.id, { path: join(FIXTURES, 'models', 'cube.stl') });
      await alice.publishDesign(gear.id);
      gearId = gear.id;
      for (let n = 1; n <= 60; n++) {
        const design = await alice.createDesign({ name: `Bracket ${String(n).padStart(2, '0')}`, excerpt: 'A bracket', license: 'cc0' });
        await alice.publishDesign(design.id);
      }
      // A draft of mine under the longest license name.
      await clientFor(service.url, makerToken).createDesign({ name: 'Hinge', excerpt: 'A draft', license: 'ccbyncsa' });
    });
    page = app.page;
  }, 120_000);

  afterAll(() => app?.close());

  it('fills a 1400 px window with the library\'s grid, which alone scrolls', async () => {
    await freshLibrary();
    const grid = (await page.locator('.grid-scroller').boundingBox())!;
    expect(grid.width).toBeGreaterThan(1100);
    expect(await page.locator('.grid-row').first().locator('[role="listitem"]').count()).toBeGreaterThanOrEqual(5);
    expect(await verticalScrollers()).toEqual(['div.grid-scroller']);
  });

  it('shows a card\'s license and "Draft" whole, inside the card', async () => {
    await freshLibrary();
    const card = page.locator('[data-testid="design-card"]', { hasText: 'Hinge' });
    const box = (await card.boundingBox())!;
    for (const badge of [card.locator('.license'), card.locator('.draft')]) {
      const inner = (await badge.boundingBox())!;
      expect(inner.x + inner.width).toBeLessThanOrEqual(box.x + box.width - 8);
      expect(inner.y + inner.height).toBeLessThanOrEqual(box.y + box.height - 8);
    }
    expect(await card.locator('.draft').textContent()).toBe('Draft');
  });

  it('shows a design in two columns at 1400 px, gallery beside license and files, with one scroll container', async () => {
    await onGear(DESKTOP);
    const media = (await page.locator('.design-media').boundingBox())!;
    const facts = (await page.locator('.design-facts').boundingBox())!;
    expect(facts.x).toBeGreaterThanOrEqual(media.x + media.width);
    expect(Math.abs(facts.y - media.y)).toBeLessThan(2);
    expect(await page.locator('.design-media .gallery').count()).toBe(1);
    expect(await page.locator('.design-facts .design-license').count()).toBe(1);
    expect(await page.locator('.design-facts .design-documents').count()).toBe(1);
    expect(media.width + facts.width).toBeGreaterThan(1100);
    expect(await verticalScrollers()).toEqual(['article.design']);
  });

  it('shows a design in one column at 1024 px, still with one scroll container', async () => {
    onTestFinished(() => page.setViewportSize(DESKTOP));
    await onGear({ width: 1024, height: 700 });
    const media = (await page.locator('.design-media').boundingBox())!;
    const facts = (await page.locator('.design-facts').boundingBox())!;
    expect(facts.y).toBeGreaterThanOrEqual(media.y + media.height);
    expect(Math.abs(facts.x - media.x)).toBeLessThan(2);
    expect(await verticalScrollers()).toEqual(['article.design']);
  });

  it('shows a model\'s 3D view in the gallery\'s column, right below the gallery, in two columns and in one', async () => {
    onTestFinished(() => page.setViewportSize(DESKTOP));
    await onGear(DESKTOP);
    for (const size of [{ width: 1400, height: 900 }, { width: 1024, height: 700 }]) {
      await page.setViewportSize(size);
      await page.getByRole('button', { name: /^View .+ in 3D$/ }).click();
      const canvas = page.getByRole('region', { name: /^3D view of / }).locator('canvas[data-loaded="true"]');
      await canvas.waitFor({ timeout: 15_000 });
      await canvas.scrollIntoViewIfNeeded();
      const box = (await canvas.boundingBox())!;
      const gallery = (await page.locator('.design-media .gallery').boundingBox())!;
      const files = (await page.locator('.design-documents').boundingBox())!;
      expect(await page.locator('.design-media > .gallery + .model-preview canvas').count()).toBe(1);
      expect(Math.abs(box.x - gallery.x)).toBeLessThan(20);
      expect(box.x + box.width).toBeLessThanOrEqual(gallery.x + gallery.width + 1);
      expect(box.y).toBeGreaterThanOrEqual(gallery.y + gallery.height);
      if (size.width === 1400) expect(box.x + box.width).toBeLessThan(files.x);
      else expect(box.y + box.height).toBeLessThan(files.y);
      await page.getByRole('button', { name: 'Close the 3D view' }).click();
      await canvas.waitFor({ state: 'detached' });
    }
  });

  it('centres Settings and Sync in the window instead of leaving a blank third', async () => {
    await page.setViewportSize(DESKTOP);
    await showView(page, app.host.origin, '#/');
    for (const [view, className] of [['Settings', 'settings'], ['Sync', 'sync-view']] as const) {
      await page.getByRole('link', { name: view, exact: true }).click();
      await page.locator(`.${className} .panel`).first().waitFor();
      const panel = (await page.locator(`.${className} .panel`).first().boundingBox())!;
      const left = panel.x;
      const right = 1400 - (panel.x + panel.width);
      expect(Math.abs(left - right)).toBeLessThan(30);
      expect(right).toBeLessThan(1400 / 4);
    }
  });

  it('comes back by "← Library" to where the library was, with the opened card focused', async () => {
    await freshLibrary();
    const opened = await scrollAndOpenACard(1200);
    expect(opened.scrollTop).toBeGreaterThan(1000);
    await page.getByRole('link', { name: '← Library' }).click();
    await page.locator(`.grid-scroller a[data-design-id="${opened.id}"]`).waitFor();
    await page.waitForFunction((id) => (globalThis as unknown as PageWorld).document.activeElement?.getAttribute('data-design-id') === id, opened.id);
    expect(await gridScrollTop()).toBe(opened.scrollTop);
    expect(await focusedDesignId()).toBe(opened.id);
  });

  it('comes back by the browser\'s Back to where the library was, with the opened card focused', async () => {
    await freshLibrary();
    const opened = await scrollAndOpenACard(600);
    await page.goBack();
    await page.waitForFunction((id) => (globalThis as unknown as PageWorld).document.activeElement?.getAttribute('data-design-id') === id, opened.id);
    expect(await gridScrollTop()).toBe(opened.scrollTop);
    expect(await verticalScrollers()).toEqual(['div.grid-scroller']);
  });

  it('keeps the search toolbar still when the service\'s matches are announced', async () => {
    await freshLibrary();
    const before = (await page.locator('.toolbar').boundingBox())!;
    const gridBefore = (await page.locator('.grid-scroller').boundingBox())!;
    const searchBefore = (await page.getByPlaceholder('Search designs').boundingBox())!;
    await page.getByPlaceholder('Search designs').fill('bracket');
    await page.getByTestId('service-search').getByText(/^Includes the service's \d+ best match|^The service found nothing more/).waitFor({ timeout: 15_000 });
    expect(await page.locator('.toolbar').boundingBox()).toEqual(before);
    expect((await page.locator('.grid-scroller').boundingBox())!.y).toBe(gridBefore.y);
    expect(await page.getByPlaceholder('Search designs').boundingBox()).toEqual(searchBefore);
  });

  it('serves its favicon, linked from the page, under the host\'s CSP', async () => {
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(href).toBe('./favicon.svg');
    const response = await page.request.get(new URL(href!, `${app.host.origin}/`).toString());
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('image/svg+xml');
    expect(await response.text()).toMatch(/^<svg /);
    expect(app.cspViolations).toEqual([]);
  });

  it('comes back by Back to where an author\'s designs were, with the opened one focused', async () => {
    await page.setViewportSize(DESKTOP);
    await page.evaluate((hash) => { (globalThis as unknown as { location: { hash: string } }).location.hash = hash; }, `#/designs/${gearId}`);
    await page.getByRole('link', { name: 'alice', exact: true }).click();
    const list = page.getByRole('list', { name: 'Designs by alice' });
    await list.locator('a[data-design-id]').nth(60).waitFor();
    const authorScrollTop = () => page.evaluate(() => (globalThis as unknown as PageWorld).document.querySelector('.author')!.scrollTop);
    await page.locator('.author').evaluate((element) => { (element as unknown as Box).scrollTop = 1500; });
    const view = (await page.locator('.author').boundingBox())!;
    let opened: { id: string; scrollTop: number } | null = null;
    for (const link of await list.locator('a[data-design-id]').all()) {
      const box = await link.boundingBox();
      if (box && box.y > view.y + 40 && box.y + box.height < view.y + view.height - 40) {
        const scrollTop = await authorScrollTop();
        opened = { id: (await link.getAttribute('data-design-id'))!, scrollTop };
        await link.click();
        break;
      }
    }
    expect(opened?.scrollTop).toBeGreaterThan(1000);
    await page.locator('.design h2').first().waitFor();
    await page.goBack();
    await page.waitForFunction((id) => (globalThis as unknown as PageWorld).document.activeElement?.getAttribute('data-design-id') === id, opened!.id);
    expect(await authorScrollTop()).toBe(opened!.scrollTop);
    expect(await verticalScrollers()).toEqual(['article.author']);
  });

  it('comes back by Back to My designs with the opened design\'s link focused', async () => {
    await page.setViewportSize(DESKTOP);
    await showView(page, app.host.origin, '#/');
    await page.getByRole('link', { name: 'My designs', exact: true }).click();
    await page.getByRole('list', { name: 'My designs' }).getByRole('link', { name: 'Hinge', exact: true }).click();
    await page.getByRole('heading', { name: 'Hinge', level: 2 }).waitFor();
    await page.goBack();
    await page.waitForFunction(() => (globalThis as unknown as { document: { activeElement: { textContent: string | null } | null } }).document.activeElement?.textContent === 'Hinge');
  });
});
