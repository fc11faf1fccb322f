import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { startWindowHost, type WindowHost } from '../../electron/window-host/window-host';
import { chromiumSkipReason, launchChromium, type LaunchedChromium } from '../../harness/chromium';
import { startRecordedService, type RecordedService } from '../support/recorded-service';
import { buildWindow, type BuiltWindow } from '../../harness/window-build';
import { tempDir } from '../engine/cache/cache-fixtures';
import { windowStarted, type PageGlobals } from '../../harness/window';
import { loadWindow } from './views';

/**
 * The window on the live service's recorded answers (test/fixtures/recorded): covers come from the storage host
 * through the file cache, "M4 Carry Handle for Retaliator" (its cover gone in the first recorded listing) shows the
 * no-image placeholder, and an adapted design says what it is based on.
 */

let service: RecordedService;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let host: WindowHost;
let chromium: LaunchedChromium;
let page: Page;
let profile: string;
let built: BuiltWindow | undefined;

describe.skipIf(chromiumSkipReason !== undefined)('the window on recorded designs', () => {
  beforeAll(async () => {
    service = await startRecordedService(['all', 'page_5']);
    profile = tempDir('window-recorded');
    built = await buildWindow();
    engine = await openEngine({ profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test', tokenStore: () => new MemoryTokenStore(null), settingsStore: () => memorySettingsStore() });
    await engine.catalogue.pullNow();
    await engine.searchIndex.whenIdle();
    endpoint = createContractEndpoint(engine);
    host = await startWindowHost({ endpoint, staticDir: built.dir });
    chromium = await launchChromium();
    page = await chromium.context.newPage();
    await page.setViewportSize({ width: 1100, height: 760 });
    await page.goto(host.url);
    await windowStarted(page);
  }, 90_000);

  afterAll(async () => {
    await chromium?.close();
    await host?.close();
    await endpoint?.close();
    await engine?.close();
    await service?.stop();
    if (profile) rmSync(profile, { recursive: true, force: true });
    built?.remove();
  });

  it('shows the placeholder for a design whose cover is gone, and the covers of the others', async () => {
    await loadWindow(page, host.origin);
    const gone = page.getByRole('article', { name: 'M4 Carry Handle for Retaliator' });
    await gone.waitFor();
    expect(await gone.locator('img').count()).toBe(0);
    expect(await gone.locator('.thumb-none').count()).toBe(1);
    const stryfe = page.getByRole('article', { name: 'Stryfe 180 Motor Cover' });
    await stryfe.locator('img.thumb').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll('article[aria-label="Stryfe 180 Motor Cover"] img.thumb')).some((img) => (img.naturalWidth ?? 0) > 0));
  });

  it('says what an adapted design is based on, beside its attribution line, as text', async () => {
    await page.goto(`${host.url}#/designs/14695`);
    const basedOn = page.getByTestId('based-on');
    await basedOn.waitFor();
    expect(await basedOn.textContent()).toBe('Based on https://3dprint.nih.gov/discover/3dpx-004001');
    expect(await basedOn.locator('a').count()).toBe(0);
    expect(await page.getByTestId('attribution').textContent()).toMatch(/^“.+” by .+, licensed /);
  });

  it('copies the attribution a remixer must paste, with what the design is based on on a line of its own', async () => {
    await page.goto(`${host.url}#/designs/14695`);
    await page.getByTestId('based-on').waitFor();
    await chromium.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(host.url).origin });
    await page.getByRole('button', { name: 'Copy attribution' }).click();
    await page.getByTestId('copy-attribution-status').getByText('Copied.').waitFor();
    const attribution = await page.getByTestId('attribution').textContent();
    const copied = await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
    expect(copied).toBe(`${attribution}\nBased on https://3dprint.nih.gov/discover/3dpx-004001`);
  });

  it('shows a plain-text description (with "\\r\\n") as paragraphs, its single line breaks kept', async () => {
    await page.goto(`${host.url}#/designs/14703`);
    const description = page.locator('.design-description');
    await description.locator('p').first().waitFor();
    const paragraphs = await description.locator('p').allTextContents();
    expect(paragraphs.length).toBeGreaterThanOrEqual(2);
    expect(paragraphs).toHaveLength(4);
    expect(paragraphs[0]).toBe('The lightsaber of the Grand Inquisitor from the first season of Star Wars: Rebels!');
    // "Be sure to print:" and its ten lines: one paragraph, a line break before each line.
    expect(await description.locator('p').nth(2).locator('br').count()).toBe(10);
    expect(paragraphs[2]).toMatch(/^Be sure to print:2 Emitter Shrouds2 Lower Emitters/);
  });

  it('shows an excerpt the description begins with only once, and any other excerpt as itself', async () => {
    await page.goto(`${host.url}#/designs/14712`);
    await page.getByRole('heading', { name: 'Stryfe 180 Motor Cover', level: 2 }).waitFor();
    await page.locator('.design-description p').first().waitFor();
    expect(await page.locator('.design-description').textContent()).toBe('Stryfe 180 Motor Cover');
    expect(await page.locator('.design-excerpt').count()).toBe(0);
    await page.goto(`${host.url}#/designs/14700`);
    await page.locator('.design-excerpt').waitFor();
    expect(await page.locator('.design-excerpt').textContent()).toBe('conics produced by cutting of cone');
    expect(await page.locator('.design-description p').count()).toBe(2);
  });
});
