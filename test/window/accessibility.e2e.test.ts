import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../support/chromium';
import { clientFor } from '../engine/sync/sync-fixtures';
import { openWindow, type WindowFixture } from './window-fixture';

const FIXTURES = join(import.meta.dirname, '../fixtures');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }

/** The window's sizes checked: a desktop one (two columns on a design) and a small one (one column). */
const SIZES = [{ width: 1400, height: 900 }, { width: 1024, height: 700 }] as const;

let app: WindowFixture;
let page: Page;

/** axe-core's serious and critical findings on what the page shows now, in both themes. */
async function seriousViolations(): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    // Evaluated through the DevTools protocol, which the page's CSP does not govern (the window itself allows no eval).
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
      const result = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
      return result.violations;
    });
    for (const violation of violations) {
      if (violation.impact === 'serious' || violation.impact === 'critical') {
        found.push(`${colorScheme}: ${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`);
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

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
      await page.goto(`${app.host.origin}/#/`);
      await page.locator('[data-testid="design-card"]').first().waitFor();
      expect(await seriousViolations()).toEqual([]);
    });

    it(`has none on a design at ${size.width}×${size.height}`, async () => {
      await page.setViewportSize(size);
      await page.goto(`${app.host.origin}/#/designs/${gearId}`);
      await page.getByRole('heading', { name: 'Gear', level: 2 }).waitFor();
      expect(await seriousViolations()).toEqual([]);
    });
  }

  it('has none on an author', async () => {
    await page.locator('.design-author a').click();
    await page.getByRole('heading', { name: 'alice', level: 2 }).waitFor();
    expect(await seriousViolations()).toEqual([]);
  });

  it('has none on My designs, with the new-design form open', async () => {
    await page.getByRole('link', { name: 'My designs' }).click();
    await page.getByTestId('own-design').first().waitFor();
    await page.getByRole('button', { name: 'New design' }).click();
    expect(await seriousViolations()).toEqual([]);
  });

  for (const size of SIZES) {
    it(`has none on Sync at ${size.width}×${size.height}`, async () => {
      await page.setViewportSize(size);
      await page.getByRole('link', { name: 'Sync', exact: true }).click();
      await page.getByRole('heading', { name: 'Recent activity' }).waitFor();
      expect(await seriousViolations()).toEqual([]);
    });

    it(`has none on Settings at ${size.width}×${size.height}`, async () => {
      await page.setViewportSize(size);
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Offline cache' }).waitFor();
      expect(await seriousViolations()).toEqual([]);
    });
  }

  it('would see one if there were (the check itself works): a button without a name', async () => {
    await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { createElement(tag: string): unknown; body: { append(node: unknown): void } } }).document;
      doc.body.append(doc.createElement('button'));
    });
    expect((await seriousViolations()).join('\n')).toMatch(/button-name \(critical\)/);
  });
});
