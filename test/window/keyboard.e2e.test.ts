import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { openWindow, type WindowFixture } from '../../harness/window';
import { seriousViolations } from './axe-check';
import { loadWindow, showView } from './views';

const DESIGNS = 40;
const FIXTURES = join(import.meta.dirname, '../fixtures');
let modelDesignId = 0;

/** The few DOM names the checks in the page use (these tests' TypeScript world has no DOM types). */
interface PageWorld { document: { activeElement: { getAttribute(name: string): string | null; tagName: string; type?: string } | null } }

let app: WindowFixture;
let page: Page;

const focused = () => page.evaluate(() => {
  const active = (globalThis as unknown as PageWorld).document.activeElement;
  return { index: active?.getAttribute('data-index') ?? null, search: active?.tagName === 'INPUT' && active.type === 'search' };
});
const focusedIndex = async () => Number((await focused()).index);
const searchFocused = () => page.waitForFunction(() => {
  const active = (globalThis as unknown as PageWorld).document.activeElement;
  return active?.tagName === 'INPUT' && active.type === 'search';
});
/** The library loaded afresh (nothing typed, scrolled or focused), its first card shown. */
const freshLibrary = async () => {
  await loadWindow(page, app.host.origin);
  await page.locator('a[data-index="0"]').waitFor();
};
const press = async (key: string) => {
  await page.keyboard.press(key);
  await page.waitForFunction(() => (globalThis as unknown as PageWorld).document.activeElement?.getAttribute('data-index') !== null);
};

describe.skipIf(chromiumSkipReason !== undefined)('the window by keyboard in Chromium', () => {
  let columns = 0;
  beforeAll(async () => {
    app = await openWindow(async (service) => {
      const alice = clientFor(service.url, service.addUser('alice').token);
      for (let n = 1; n <= DESIGNS; n++) {
        const design = await alice.createDesign({ name: `Part ${String(n).padStart(2, '0')}`, excerpt: 'A part', license: 'cc0' });
        if (n === 1) {
          await alice.uploadDocument(design.id, { path: join(FIXTURES, 'models', 'cube.stl') });
          modelDesignId = design.id;
        }
        await alice.publishDesign(design.id);
      }
    });
    page = app.page;
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.locator('a[data-index="0"]').waitFor();
    columns = await page.locator('.grid-row').first().locator('[role="listitem"]').count();
  }, 120_000);

  afterAll(() => app?.close());

  it('focuses the search with "/" from the grid, and "/" then types in it as any character', async () => {
    await freshLibrary();
    await page.locator('a[data-index="0"]').focus();
    await page.keyboard.press('/');
    await searchFocused();
    expect(await page.getByPlaceholder('Search designs').inputValue()).toBe('');
    await page.keyboard.type('part/1');
    expect(await page.getByPlaceholder('Search designs').inputValue()).toBe('part/1');
  });

  it('focuses the search with Ctrl+K from a field of another view, opening the library', async () => {
    await showView(page, app.host.origin, '#/settings');
    const field = page.locator('.settings input').first();
    await field.focus();
    await page.keyboard.press('Control+K');
    await searchFocused();
    expect(page.url()).toBe(`${app.host.origin}/#/`);
  });

  it('focuses the search with "/" from a design', async () => {
    await freshLibrary();
    await page.locator('a[data-index="3"]').click();
    await page.locator('.design-header h2').waitFor();
    await page.keyboard.press('/');
    await searchFocused();
    expect(await page.getByPlaceholder('Search designs').inputValue()).toBe('');
  });

  it('moves between cards with the arrow keys: Left and Right in the row, Up and Down by a row', async () => {
    expect(columns).toBeGreaterThanOrEqual(4);
    await freshLibrary();
    await page.locator('a[data-index="0"]').focus();
    await press('ArrowRight');
    expect(await focusedIndex()).toBe(1);
    await press('ArrowDown');
    expect(await focusedIndex()).toBe(1 + columns);
    await press('ArrowLeft');
    expect(await focusedIndex()).toBe(columns);
    // The row's first card: Left goes no farther (it does not wrap to the row above).
    await press('ArrowLeft');
    expect(await focusedIndex()).toBe(columns);
    await press('ArrowUp');
    expect(await focusedIndex()).toBe(0);
  });

  it('goes to the row\'s ends with Home and End, and to the first and last card with Ctrl+Home and Ctrl+End', async () => {
    await freshLibrary();
    await page.locator('a[data-index="0"]').focus();
    await press('End');
    expect(await focusedIndex()).toBe(columns - 1);
    await press('Home');
    expect(await focusedIndex()).toBe(0);
    // The last card is far below, not rendered yet: the grid scrolls to it, then focuses it.
    await page.keyboard.press('Control+End');
    await page.waitForFunction((last) => (globalThis as unknown as PageWorld).document.activeElement?.getAttribute('data-index') === String(last), DESIGNS - 1);
    await page.keyboard.press('Control+Home');
    await page.waitForFunction(() => (globalThis as unknown as PageWorld).document.activeElement?.getAttribute('data-index') === '0');
  });

  it('opens the focused card with Enter, and focus is visible on it', async () => {
    await freshLibrary();
    await page.locator('a[data-index="0"]').focus();
    await press('ArrowRight');
    await press('ArrowRight');
    const link = page.locator('a[data-index="2"]');
    const outline = await link.evaluate((element) => (globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string } }).getComputedStyle(element).outlineStyle);
    expect(outline).toBe('solid');
    const name = (await link.textContent())!;
    const id = (await link.getAttribute('data-design-id'))!;
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name, level: 2 }).waitFor();
    expect(page.url()).toBe(`${app.host.origin}/#/designs/${id}`);
  });

  it('moves the focus into the 3D view it opens; Escape closes it and the focus goes back to its button', async () => {
    const isFocused = (element: unknown) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement;
    await page.goto(`${app.host.origin}/#/designs/${modelDesignId}`);
    const opener = page.getByRole('button', { name: /^View .+ in 3D$/ });
    await opener.focus();
    await page.keyboard.press('Enter');
    const preview = page.getByRole('region', { name: /^3D view of / });
    await preview.waitFor();
    await page.waitForFunction(isFocused, await preview.elementHandle());
    await preview.locator('canvas[data-loaded="true"]').waitFor({ timeout: 15_000 });
    expect(await seriousViolations(page)).toEqual([]);
    // From a control inside it too (Fit to view), Escape closes it.
    await preview.getByRole('button', { name: 'Fit to view' }).focus();
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });
    await page.waitForFunction(isFocused, await opener.elementHandle());
  });
});
