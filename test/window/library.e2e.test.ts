import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { deleteDesigns } from '../../electron/engine/cache/design-writes';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { until } from '../../harness/until';
import { openWindow, windowStarted, type PageGlobals, type WindowFixture } from '../../harness/window';
import { loadWindow } from './views';
import { StoppableService } from './stoppable-service';

const FIXTURES = join(import.meta.dirname, '../fixtures');

let app: WindowFixture;
let page: Page;
const service = new StoppableService();
/** Bob, who publishes on the service while the window runs. */
let bobToken: string;

const cardNames = () => page.locator('[data-testid="design-card"] .card-name').allTextContents();
const waitForCards = (count: number) => page.waitForFunction(
  (n) => (globalThis as unknown as PageGlobals).document.querySelectorAll('[data-testid="design-card"]').length === n, count, { timeout: 10_000 },
);

/** The library loaded afresh (nothing typed, no filter, the default sort), its three cards shown. */
async function freshLibrary(): Promise<void> {
  await loadWindow(page, app.host.origin);
  await waitForCards(3);
}

describe.skipIf(chromiumSkipReason !== undefined)('the window\'s library in Chromium, served by design-sync ui', () => {
  beforeAll(async () => {
    app = await openWindow(async (service) => {
      const alice = clientFor(service.url, service.addUser('alice').token);
      for (const [name, license, image] of [['Gear', 'ccby', true], ['Bolt', 'cc0', false], ['Spring', 'gplv3', true]] as const) {
        const design = await alice.createDesign({ name, excerpt: `A ${name.toLowerCase()}`, license });
        if (image) await alice.uploadImage(design.id, { path: join(FIXTURES, 'images', 'jpg-sample.jpg') });
        await alice.publishDesign(design.id);
      }
      bobToken = service.addUser('bob').token;
    }, { serviceDataDir: service.dataDir });
    page = app.page;
    service.of(app);
    // A desktop window's size, as people use it (and as the README's screenshots are taken: npm run screenshots).
    await page.setViewportSize({ width: 1400, height: 900 });
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await service.close();
  });

  // The service answers at each test's start (two stop it).
  beforeEach(() => service.answering());

  it('opens on the address with its secret, and the secret leaves the address bar', async () => {
    await page.goto(app.host.url);
    await windowStarted(page);
    expect(page.url()).toBe(`${app.host.origin}/`);
    expect(await page.title()).toBe('design-sync');
  });

  it('shows every cached design as a card with its author and license, and says who is signed in', async () => {
    await loadWindow(page, app.host.origin);
    await waitForCards(3);
    expect((await cardNames()).sort()).toEqual(['Bolt', 'Gear', 'Spring']);
    await page.getByText('Signed in as').waitFor();
    expect(await page.locator('.account strong').textContent()).toBe('maker');
    const gear = page.locator('[data-testid="design-card"]', { hasText: 'Gear' });
    expect(await gear.locator('.card-author').textContent()).toBe('by alice');
    expect(await gear.locator('.license').textContent()).toBe('Creative Commons Attribution');
    // The thumbnail is served from the file cache by the host, and has really loaded.
    await page.waitForFunction(() => Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll('img.thumb')).some((img) => (img.naturalWidth ?? 0) > 0));
    expect(await page.locator('.count').textContent()).toBe('3 designs');
  });

  it('searches as you type, offline in the cache, and says what to do when nothing matches', async () => {
    await freshLibrary();
    await page.getByPlaceholder('Search designs').fill('gea');
    await waitForCards(1);
    expect(await cardNames()).toEqual(['Gear']);
    await page.getByPlaceholder('Search designs').fill('zzzz');
    await page.getByText('No cached design matches “zzzz”').waitFor();
    await page.getByRole('button', { name: 'Clear the search and filter' }).click();
    await waitForCards(3);
  });

  it('filters by license and sorts by name', async () => {
    await freshLibrary();
    await page.getByLabel('License').selectOption('gplv3');
    await waitForCards(1);
    expect(await cardNames()).toEqual(['Spring']);
    await page.getByLabel('License').selectOption('');
    await waitForCards(3);
    // Newest first until then: by name, the order changes.
    expect(await cardNames()).not.toEqual(['Bolt', 'Gear', 'Spring']);
    await page.getByLabel('Sort').selectOption('name');
    await page.waitForFunction(() => Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll('[data-testid="design-card"] .card-name')).map((e) => e.textContent).join() === 'Bolt,Gear,Spring');
  });

  it('follows the system\'s dark theme', async () => {
    // The light theme again after it, whatever its outcome: the page is the next test's too.
    onTestFinished(() => page.emulateMedia({ colorScheme: 'light' }));
    await freshLibrary();
    await page.emulateMedia({ colorScheme: 'dark' });
    const background = await page.evaluate(() => { const page = globalThis as unknown as PageGlobals; return page.getComputedStyle(page.document.body).backgroundColor; });
    expect(background).toBe('rgb(20, 23, 28)');
  });

  it('runs under the host\'s strict CSP without a single violation', async () => {
    // The window's views, each shown: the library searched, a design, an author, My designs, Sync and Settings.
    await freshLibrary();
    await page.getByPlaceholder('Search designs').fill('gear');
    await waitForCards(1);
    await page.getByRole('link', { name: 'Gear' }).click();
    await page.getByRole('heading', { name: 'Gear', level: 2 }).waitFor();
    await page.locator('.design-author a').click();
    await page.getByRole('heading', { name: 'alice', level: 2 }).waitFor();
    for (const [view, heading] of [['My designs', 'My designs'], ['Sync', 'Sync'], ['Settings', 'Account and settings']] as const) {
      await page.getByRole('link', { name: view, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
    }
    expect(app.cspViolations).toEqual([]);
  });

  it('merges the service\'s search in once typing pauses: a design published since the last pull shows up', async () => {
    await freshLibrary();
    const bob = clientFor(app.service.url, bobToken);
    const sprocket = await bob.createDesign({ name: 'Sprocket', excerpt: 'A chain sprocket', license: 'cc0' });
    // Gone again after this test, whatever its outcome, from the service and the cache: the others count three designs.
    onTestFinished(async () => {
      await service.answering();
      await bob.deleteDesign(sprocket.id);
      deleteDesigns(app.engine.cache.db, [sprocket.id]);
    });
    await bob.publishDesign(sprocket.id);
    await page.getByPlaceholder('Search designs').fill('sprocket');
    await page.getByTestId('service-search').getByText('Includes the service\'s 1 best match.').waitFor({ timeout: 15_000 });
    await waitForCards(1);
    expect(await cardNames()).toEqual(['Sprocket']);
    await page.getByPlaceholder('Search designs').fill('');
    await waitForCards(4);
    expect(app.cspViolations).toEqual([]);
  });

  it('works offline: with the service stopped, it searches the cache, opens a design from it, and says it is offline', async () => {
    // Loaded before the service stops: a page loaded once the engine knows the service is away is not told so
    // (engine-events.ts tells a window that opens while it is away only when the contract endpoint is made, not when
    // a page connects), and would wait for news that never comes.
    await freshLibrary();
    await service.stopped();
    await page.getByPlaceholder('Search designs').fill('gear');
    await waitForCards(1);
    await page.getByRole('link', { name: 'Gear' }).click();
    await page.getByRole('heading', { name: 'Gear', level: 2 }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('attribution').textContent()).toBe('“Gear” by alice, licensed Creative Commons Attribution');
    await page.getByText(/Offline: The service at \S+ cannot be reached\. Everything cached still works; the catalogue was last checked/).waitFor();
    await page.getByRole('link', { name: '← Library' }).click();
    await waitForCards(1);
    expect(app.cspViolations).toEqual([]);
  });

  it('does not offer a pull of the catalogue while the service cannot be reached, and says why beside the button', async () => {
    // Loaded before the service stops (see the test above).
    await freshLibrary();
    await service.stopped();
    await page.getByRole('link', { name: 'Settings' }).click();
    const pull = page.getByRole('button', { name: 'Pull the catalogue now' });
    await pull.waitFor();
    // The window hears of it as an event: the button follows it.
    await until('the pull turned off', async () => await pull.isDisabled(), 10_000);
    const reason = page.locator(`[id="${await pull.getAttribute('aria-describedby')}"]`);
    expect(await reason.textContent()).toBe('Pulling the catalogue needs the service, which cannot be reached now.');
    await page.getByRole('link', { name: 'Library', exact: true }).click();
    await waitForCards(3);
    expect(app.cspViolations).toEqual([]);
  });
});
