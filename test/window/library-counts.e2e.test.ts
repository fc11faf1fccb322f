import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { deleteDesigns, DesignWriteSession, upsertDesigns } from '../../electron/engine/cache/design-writes';
import { seedSynthetic } from '../../service/seed/synthetic-seed';
import { listFormDesign } from '../engine/cache/cache-fixtures';
import { chromiumSkipReason } from '../../harness/chromium';
import { openWindow, type PageGlobals, type WindowFixture } from '../../harness/window';
import { loadWindow } from './views';

/** More designs than the page counts: its count stops at BOUND, and the exact one follows. */
const DESIGNS = 150;
const BOUND = 80;

let app: WindowFixture;
let page: Page;
const boundBefore = process.env.DESIGN_SYNC_COUNT_BOUND;

interface CountWatch { __counts: string[] }
const countText = () => page.locator('.library .count').textContent();

/** Records every text the library's count shows from now on (a MutationObserver in the page). */
const watchCount = () => page.evaluate(() => {
  const world = globalThis as unknown as PageGlobals & CountWatch & { MutationObserver: new (callback: () => void) => { observe(target: unknown, options: object): void } };
  const count = (world.document as unknown as { querySelector(selector: string): { textContent: string | null } | null }).querySelector('.library .count');
  world.__counts = [count?.textContent ?? ''];
  new world.MutationObserver(() => world.__counts.push(count?.textContent ?? '')).observe(count, { childList: true, characterData: true, subtree: true });
});
const seenCounts = () => page.evaluate(() => (globalThis as unknown as CountWatch).__counts);

const waitForCount = (text: string) => page.waitForFunction(
  (wanted) => (globalThis as unknown as { document: { querySelector(selector: string): { textContent: string | null } | null } }).document.querySelector('.library .count')?.textContent === wanted,
  text, { timeout: 15_000 },
);

/** The library loaded afresh (nothing typed, no filter), once it counts every design. */
async function freshLibrary(): Promise<void> {
  await loadWindow(page, app.host.origin);
  await waitForCount(`${DESIGNS} designs`);
}

/**
 * Types `words`, which every design matches, and waits for the count to say the bound, then the exact count: the
 * count read "150 designs" before the search too, so a wait for "150 designs" alone passes at once, before the
 * search's page (as it did under load in the clean-clone CI run). The engine remembers an exact count until the cache
 * changes, and then shows no bound for those words again: each test searches words of its own ("synthetic",
 * "synthe", "synth": prefixes of the word every design's description holds).
 */
async function searchEveryDesign(words: string): Promise<void> {
  await watchCount();
  await page.getByPlaceholder('Search designs').fill(words);
  await page.waitForFunction(([bound, exact]) => {
    const counts = (globalThis as unknown as CountWatch).__counts;
    const at = counts.indexOf(bound!);
    return at >= 0 && counts.lastIndexOf(exact!) > at;
  }, [`${BOUND}+ designs`, `${DESIGNS} designs`], { timeout: 15_000 });
}

describe.skipIf(chromiumSkipReason !== undefined)('the library\'s count over more designs than a page counts, in Chromium', () => {
  beforeAll(async () => {
    process.env.DESIGN_SYNC_COUNT_BOUND = String(BOUND);
    app = await openWindow(async (service) => seedSynthetic(service.ctx, DESIGNS), { signedIn: false });
    page = app.page;
  }, 90_000);

  afterAll(async () => {
    if (boundBefore === undefined) delete process.env.DESIGN_SYNC_COUNT_BOUND;
    else process.env.DESIGN_SYNC_COUNT_BOUND = boundBefore;
    await app?.close();
  });

  it('counts every design at once when nothing is typed', async () => {
    await loadWindow(page, app.host.origin);
    await waitForCount(`${DESIGNS} designs`);
  });

  it('shows "80+ designs" for a search matching more, then the exact count once it is counted', async () => {
    await freshLibrary();
    const countsBefore = app.answered('library.count');
    await searchEveryDesign('synthetic');
    expect(await countText()).toBe(`${DESIGNS} designs`);
    const seen = await seenCounts();
    expect(seen).toContain(`${BOUND}+ designs`);
    expect(seen.indexOf(`${BOUND}+ designs`)).toBeLessThan(seen.lastIndexOf(`${DESIGNS} designs`));
    expect(app.answered('library.count')).toBeGreaterThan(countsBefore);
  });

  it('scrolls the grid to the last design once the exact count came (the bound held it to 80 before)', async () => {
    await freshLibrary();
    await searchEveryDesign('synthe');
    await page.locator('.grid-scroller').evaluate((scroller) => (scroller.scrollTop = scroller.scrollHeight));
    await page.locator(`a[data-index="${DESIGNS - 1}"]`).waitFor({ timeout: 10_000 });
    expect(await countText()).toBe(`${DESIGNS} designs`);
  });

  it('a search with fewer matches than the bound is counted exactly at once, without "+"', async () => {
    await freshLibrary();
    await watchCount();
    await page.getByPlaceholder('Search designs').fill('synthetic pulley');
    await page.waitForFunction(() => !/\+|150/.test((globalThis as unknown as { document: { querySelector(selector: string): { textContent: string | null } | null } }).document.querySelector('.library .count')?.textContent ?? '+'));
    const seen = await seenCounts();
    expect(seen.some((text) => text.includes('+'))).toBe(false);
    expect(await countText()).toMatch(/^\d+ designs?$/);
  });

  it('a license filter with words: at least the licensed designs among the newest matches, then all of them', async () => {
    await freshLibrary();
    await searchEveryDesign('synth');
    const licensed = app.service.db.prepare("SELECT count(*) AS n FROM designs WHERE license = 'ccby'").get() as { n: number };
    await watchCount();
    await page.getByLabel('License').selectOption('ccby');
    await waitForCount(`${licensed.n} design${licensed.n === 1 ? '' : 's'}`);
    expect((await seenCounts()).some((text) => text.endsWith('+ designs') || text.endsWith('+ design'))).toBe(true);
  });

  it('a search while the search index is filled behind a pull says how many designs it could not see; they show once indexed', async () => {
    await freshLibrary();
    // Designs a pull wrote with their search rows left behind it, the fill not started yet.
    const names = ['Backlogged hook', 'Backlogged hanger', 'Backlogged hinge'];
    const ids = names.map((_, i) => 900_001 + i);
    // This test's designs: gone from the cache after it, whatever its outcome (the others count the library's designs).
    onTestFinished(() => { deleteDesigns(app.engine.cache.db, ids); });
    upsertDesigns(app.engine.cache.db, names.map((name, i) => listFormDesign({ id: ids[i]!, name })), 'list', Date.now(), {}, new DesignWriteSession({ deferSearchRows: true }));
    await page.getByPlaceholder('Search designs').fill('backlogged');
    await waitForCount('0 designs · 3 cached designs not indexed for search yet');
    expect(await page.getByTestId('not-searched-yet').isVisible()).toBe(true);

    app.engine.searchIndex.start();
    // Filled, the engine tells the window the designs changed, and the search is asked again.
    await waitForCount('3 designs');
    expect(await page.getByTestId('not-searched-yet').count()).toBe(0);
    expect((await page.locator('.library .card-name').allTextContents()).sort()).toEqual([...names].sort());
  });
});
