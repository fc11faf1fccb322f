import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { startWindowHost, type WindowHost } from '../../electron/window-host/window-host';
import { chromiumSkipReason, launchChromium, type LaunchedChromium } from '../support/chromium';
import { startTestService, type TestService } from '../support/local-service';
import { buildWindow } from '../support/window-build';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../engine/sync/sync-fixtures';

const FIXTURES = join(import.meta.dirname, '../fixtures');
const SCREENSHOTS = join(import.meta.dirname, '../../docs/screenshots');

let service: TestService;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let host: WindowHost;
let chromium: LaunchedChromium;
let page: Page;
let profile: string;
let built: string;
const cspViolations: string[] = [];

const cardNames = () => page.locator('[data-testid="design-card"] .card-name').allTextContents();
/**
 * The few DOM names the checks run in the page use: this test's TypeScript world is Node's, without the DOM's types.
 * (Functions, not strings: the window's CSP forbids the eval that a string predicate needs.)
 */
interface PageGlobals {
  document: { body: unknown; querySelectorAll(selector: string): ArrayLike<{ textContent: string | null; naturalWidth?: number }> };
  getComputedStyle(element: unknown): { backgroundColor: string };
}
const waitForCards = (count: number) => page.waitForFunction(
  (n) => (globalThis as unknown as PageGlobals).document.querySelectorAll('[data-testid="design-card"]').length === n, count, { timeout: 10_000 },
);

describe.skipIf(chromiumSkipReason !== undefined)('the window\'s library in Chromium, served by design-sync ui', () => {
  beforeAll(async () => {
    service = await startTestService();
    const alice = clientFor(service.url, service.addUser('alice').token);
    for (const [name, license, image] of [['Gear', 'ccby', true], ['Bolt', 'cc0', false], ['Spring', 'gplv3', true]] as const) {
      const design = await alice.createDesign({ name, excerpt: `A ${name.toLowerCase()}`, license });
      if (image) await alice.uploadImage(design.id, { path: join(FIXTURES, 'images', 'jpg-sample.jpg') });
      await alice.publishDesign(design.id);
    }
    const { token } = service.addUser('maker');
    profile = tempDir('window-library');
    built = await buildWindow();
    engine = await openEngine({
      profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test',
      tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore(),
    });
    await engine.catalogue.pullNow();
    endpoint = createContractEndpoint(engine);
    host = await startWindowHost({ endpoint, staticDir: built });
    chromium = await launchChromium();
    page = await chromium.context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.setViewportSize({ width: 1100, height: 760 });
    await page.goto(host.url);
  }, 90_000);

  afterAll(async () => {
    await chromium?.close();
    await host?.close();
    endpoint?.close();
    await engine?.close();
    await service?.stop();
    rmSync(profile, { recursive: true, force: true });
    rmSync(built, { recursive: true, force: true });
  });

  it('opens on the address with its secret, and the secret leaves the address bar', async () => {
    expect(page.url()).toBe(`${host.origin}/`);
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
    await page.screenshot({ path: join(SCREENSHOTS, 'library-light.png') });
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

  it('filters by license and sorts by name', async () => {
    await page.getByLabel('License').selectOption('cc0');
    await waitForCards(1);
    expect(await cardNames()).toEqual(['Bolt']);
    await page.getByLabel('License').selectOption('');
    await page.getByLabel('Sort').selectOption('name');
    await page.waitForFunction(() => Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll('[data-testid="design-card"] .card-name')).map((e) => e.textContent).join() === 'Bolt,Gear,Spring');
  });

  it('follows the system\'s dark theme', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const background = await page.evaluate(() => { const page = globalThis as unknown as PageGlobals; return page.getComputedStyle(page.document.body).backgroundColor; });
    expect(background).toBe('rgb(20, 23, 28)');
    await page.screenshot({ path: join(SCREENSHOTS, 'library-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('runs under the host\'s strict CSP without a single violation', () => {
    expect(cspViolations).toEqual([]);
  });
});
