import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { seriousViolations } from './axe-check';
import { openWindow, type WindowFixture } from '../../harness/window';
import { showView } from './views';

const FIXTURES = join(import.meta.dirname, '../fixtures');
/** The window's sizes checked: a desktop one (two columns on a design) and a small one (one column). */
const SIZES = [{ width: 1400, height: 900 }, { width: 1024, height: 700 }] as const;
const SMALL = SIZES[1];

let app: WindowFixture;
let page: Page;

describe.skipIf(chromiumSkipReason !== undefined)('the window\'s accessibility (axe-core, serious and critical)', () => {
  let gearId = 0;
  beforeAll(async () => {
    app = await openWindow(async (service, makerToken) => {
      const alice = clientFor(service.url, service.addUser('alice').token);
      const gear = await alice.createDesign({ name: 'Gear', excerpt: 'A spur gear', license: 'ccby', description: '<p>Twenty teeth.</p>' });
      await alice.uploadImage(gear.id, { path: join(FIXTURES, 'images', 'jpg-sample.jpg') });
      await alice.uploadDocument(gear.id, { path: join(FIXTURES, 'models', 'cube.stl') });
      await alice.publishDesign(gear.id);
      gearId = gear.id;
      await clientFor(service.url, makerToken).createDesign({ name: 'Hinge', excerpt: 'A draft', license: 'cc0' });
    });
    page = app.page;
  }, 90_000);

  afterAll(() => app?.close());

  for (const size of SIZES) {
    it(`has none on the library at ${size.width}×${size.height}`, async () => {
      await page.setViewportSize(size);
      await showView(page, app.host.origin, '#/');
      await page.locator('[data-testid="design-card"]').first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });

    it(`has none on a design at ${size.width}×${size.height}`, async () => {
      await page.setViewportSize(size);
      await showView(page, app.host.origin, `#/designs/${gearId}`);
      await page.getByRole('heading', { name: 'Gear', level: 2 }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  for (const size of SIZES) {
    it(`has none on an author at ${size.width}×${size.height}`, async () => {
      await page.setViewportSize(size);
      await showView(page, app.host.origin, `#/designs/${gearId}`);
      await page.locator('.design-author a').click();
      await page.getByRole('heading', { name: 'alice', level: 2 }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  it('has none on My designs, with the new-design form open', async () => {
    await page.setViewportSize(SMALL);
    await showView(page, app.host.origin, '#/sync');
    await page.getByRole('link', { name: 'My designs' }).click();
    await page.getByTestId('own-design').first().waitFor();
    await page.getByRole('button', { name: 'New design' }).click();
    await page.getByRole('form', { name: /^New design/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  for (const size of SIZES) {
    it(`has none on Sync at ${size.width}×${size.height}`, async () => {
      await page.setViewportSize(size);
      await showView(page, app.host.origin, '#/');
      await page.getByRole('link', { name: 'Sync', exact: true }).click();
      await page.getByRole('heading', { name: 'Recent activity' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });

    it(`has none on My designs at ${size.width}×${size.height}, with a card's actions open`, async () => {
      await page.setViewportSize(size);
      await showView(page, app.host.origin, '#/');
      await page.getByRole('link', { name: 'My designs' }).click();
      const card = page.getByTestId('own-design').first();
      await card.waitFor();
      await card.getByRole('button', { name: /Actions/ }).click();
      await card.getByRole('menu').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
    });

    it(`has none on Settings at ${size.width}×${size.height}`, async () => {
      await page.setViewportSize(size);
      await showView(page, app.host.origin, '#/');
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Offline cache' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  it('would see one if there were (the check itself works): a button without a name', async () => {
    await showView(page, app.host.origin, '#/');
    await page.locator('[data-testid="design-card"]').first().waitFor();
    interface ProbeDocument { createElement(tag: string): { id: string }; body: { append(node: unknown): void }; getElementById(id: string): { remove(): void } | null }
    // The nameless button is taken out again, whatever this test's outcome: the page is the next test's too.
    onTestFinished(() => page.evaluate(() => (globalThis as unknown as { document: ProbeDocument }).document.getElementById('axe-probe')?.remove()));
    await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: ProbeDocument }).document;
      const button = doc.createElement('button');
      button.id = 'axe-probe';
      doc.body.append(button);
    });
    expect((await seriousViolations(page)).join('\n')).toMatch(/button-name \(critical\)/);
  });
});
