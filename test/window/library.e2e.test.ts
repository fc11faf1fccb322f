import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../support/chromium';
import { clientFor } from '../engine/sync/sync-fixtures';
import { openWindow, type PageGlobals, type WindowFixture } from './window-fixture';

const FIXTURES = join(import.meta.dirname, '../fixtures');

let app: WindowFixture;
let page: Page;

const cardNames = () => page.locator('[data-testid="design-card"] .card-name').allTextContents();
const waitForCards = (count: number) => page.waitForFunction(
  (n) => (globalThis as unknown as PageGlobals).document.querySelectorAll('[data-testid="design-card"]').length === n, count, { timeout: 10_000 },
);

describe.skipIf(chromiumSkipReason !== undefined)('the window\'s library in Chromium, served by design-sync ui', () => {
  beforeAll(async () => {
    app = await openWindow(async (service) => {
      const alice = clientFor(service.url, service.addUser('alice').token);
      for (const [name, license, image] of [['Gear', 'ccby', true], ['Bolt', 'cc0', false], ['Spring', 'gplv3', true]] as const) {
        const design = await alice.createDesign({ name, excerpt: `A ${name.toLowerCase()}`, license });
        if (image) await alice.uploadImage(design.id, { path: join(FIXTURES, 'images', 'jpg-sample.jpg') });
        await alice.publishDesign(design.id);
      }
    });
    page = app.page;
    // A desktop window's size, as people use it (and as the README's screenshots are taken: npm run screenshots).
    await page.setViewportSize({ width: 1400, height: 900 });
  }, 90_000);

  afterAll(() => app?.close());

  it('opens on the address with its secret, and the secret leaves the address bar', async () => {
    expect(page.url()).toBe(`${app.host.origin}/`);
    expect(await page.title()).toBe('design-sync');
  });

  it('shows every cached design as a card with its author and license, and says who is signed in', async () => {
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
    await page.getByPlaceholder('Search designs').fill('gea');
    await waitForCards(1);
    expect(await cardNames()).toEqual(['Gear']);
    await page.getByPlaceholder('Search designs').fill('zzzz');
    await page.getByText('No cached design matches “zzzz”').waitFor();
    await page.getByRole('button', { name: 'Clear the search and filter' }).click();
    await waitForCards(3);
  });

  it('merges the service\'s search in once typing pauses: a design published since the last pull shows up', async () => {
    const bob = clientFor(app.service.url, app.service.addUser('bob').token);
    const sprocket = await bob.createDesign({ name: 'Sprocket', excerpt: 'A chain sprocket', license: 'cc0' });
    await bob.publishDesign(sprocket.id);
    await page.getByPlaceholder('Search designs').fill('sprocket');
    await page.getByTestId('service-search').getByText('Includes the service\'s 1 best match.').waitFor({ timeout: 15_000 });
    await waitForCards(1);
    expect(await cardNames()).toEqual(['Sprocket']);
    await page.getByPlaceholder('Search designs').fill('');
    await waitForCards(4);
  });

  it('filters by license and sorts by name', async () => {
    await page.getByLabel('License').selectOption('gplv3');
    await waitForCards(1);
    expect(await cardNames()).toEqual(['Spring']);
    await page.getByLabel('License').selectOption('');
    await page.getByLabel('Sort').selectOption('name');
    await page.waitForFunction(() => Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll('[data-testid="design-card"] .card-name')).map((e) => e.textContent).join() === 'Bolt,Gear,Spring,Sprocket');
  });

  it('follows the system\'s dark theme', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const background = await page.evaluate(() => { const page = globalThis as unknown as PageGlobals; return page.getComputedStyle(page.document.body).backgroundColor; });
    expect(background).toBe('rgb(20, 23, 28)');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('works offline: with the service stopped, it searches the cache, opens a design from it, and says it is offline', async () => {
    await app.service.stop();
    await page.getByPlaceholder('Search designs').fill('gear');
    await waitForCards(1);
    await page.getByRole('link', { name: 'Gear' }).click();
    await page.getByRole('heading', { name: 'Gear', level: 2 }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('attribution').textContent()).toBe('“Gear” by alice, licensed Creative Commons Attribution');
    await page.getByText(/Offline: The service at \S+ cannot be reached\. Everything cached still works; the catalogue was last checked/).waitFor();
    await page.getByRole('link', { name: '← Library' }).click();
  });

  it('does not offer a pull of the catalogue while the service cannot be reached, and says why beside the button', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    const pull = page.getByRole('button', { name: 'Pull the catalogue now' });
    await pull.waitFor();
    expect(await pull.isDisabled()).toBe(true);
    const reason = page.locator(`[id="${await pull.getAttribute('aria-describedby')}"]`);
    expect(await reason.textContent()).toBe('Pulling the catalogue needs the service, which cannot be reached now.');
    await page.getByRole('link', { name: 'Library', exact: true }).click();
    await waitForCards(1);
  });

  it('runs under the host\'s strict CSP without a single violation', () => {
    expect(app.cspViolations).toEqual([]);
  });
});
