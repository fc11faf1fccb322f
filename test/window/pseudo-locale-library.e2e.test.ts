import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { openWindow, type WindowFixture } from '../../harness/window';
import { seriousViolations } from './axe-check';
import { englishWordsOf, pseudoLocaleProblems } from './pseudo-locale-checks';
import { loadWindow, showView } from './views';

const FIXTURES = join(import.meta.dirname, '../fixtures');
const SIZE = { width: 1024, height: 700 };
/** The areas whose words these views show. */
const AREAS = ['library.', 'design.', 'drops.', 'author.', 'thumbnails.'];

/** The English of our messages here with no placeholder: none of them may be seen as it is in the pseudo-locale. */
const ENGLISH_WORDS = englishWordsOf(AREAS);

let app: WindowFixture;
let page: Page;
let gearId = 0;

/**
 * What the view shows that is cut off or left in English: an element whose words overflow a box that hides them
 * (cards' names and licenses excepted: they give way by design, read whole from their link and title), words wider
 * than the window, and a text node that is one of our English messages as it is.
 */
async function problemsShown(): Promise<string[]> {
  return pseudoLocaleProblems(page, ENGLISH_WORDS, '.visually-hidden, .card-name, .card-meta .license');
}

describe.skipIf(chromiumSkipReason !== undefined)('the library and a design\'s page in the pseudo-locale, at 1024 × 700', () => {
  beforeAll(async () => {
    process.env.DESIGN_SYNC_PSEUDO_LOCALE = '1';
    app = await openWindow(async (service, makerToken) => {
      const alice = clientFor(service.url, service.addUser('alice').token);
      const gear = await alice.createDesign({ name: 'Gear', excerpt: 'A spur gear', license: 'ccbyncsa', description: '<p>Twenty teeth, module 1.</p>' });
      await alice.uploadImage(gear.id, { path: join(FIXTURES, 'images', 'jpg-sample.jpg') });
      await alice.uploadDocument(gear.id, { path: join(FIXTURES, 'models', 'cube.stl') });
      await alice.publishDesign(gear.id);
      gearId = gear.id;
      for (let n = 1; n <= 6; n++) {
        const design = await alice.createDesign({ name: `Bracket ${n}`, excerpt: 'A bracket', license: 'cc0' });
        await alice.publishDesign(design.id);
      }
      await clientFor(service.url, makerToken).createDesign({ name: 'Hinge', excerpt: 'A draft', license: 'ccby' });
    });
    page = app.page;
    app.engine.appSettings.store.update({ language: 'en-XA' });
    await page.setViewportSize(SIZE);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    delete process.env.DESIGN_SYNC_PSEUDO_LOCALE;
  });

  it('shows the library in it: every word of ours accented, nothing cut off, no serious axe finding', async () => {
    await loadWindow(page, app.host.origin);
    await page.locator('html[lang="en-XA"]').waitFor();
    await page.locator('.grid-scroller a[data-design-id]').first().waitFor();
    // The count, a plural, is the pseudo-locale's: bracketed, accented, the number as English writes it.
    await expect.poll(() => page.locator('.library .count').textContent()).toMatch(/^\[.*8.*\]$/);
    expect(await page.getByRole('searchbox').getAttribute('placeholder')).toMatch(/^\[.+\]$/);
    expect(await page.locator('[data-testid="design-card"]', { hasText: 'Hinge' }).locator('.draft').textContent()).toMatch(/^\[.+\]$/);
    expect(await problemsShown()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows a design\'s page in it: license, files and their actions whole, no serious axe finding', async () => {
    await showView(page, app.host.origin, `#/designs/${gearId}`);
    await page.locator('.design-documents').waitFor();
    expect(await page.locator('.design-documents h3').textContent()).toMatch(/^\[.+\]$/);
    expect(await page.locator('.design-license strong').textContent()).toMatch(/^\[.+\]$/);
    expect(await page.locator('td.document-offline').first().textContent()).toMatch(/^\[.+\]$/);
    expect(await problemsShown()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows a model in 3D in it: its size, what it shows and its buttons whole, no serious axe finding', async () => {
    await showView(page, app.host.origin, `#/designs/${gearId}`);
    await page.locator('.design-documents tbody button').first().click();
    const preview = page.locator('.model-preview');
    await preview.locator('canvas[data-loaded="true"]').waitFor({ timeout: 30_000 });
    // The triangles' count, a plural, in the pseudo-locale's words; the size in English's numbers (en-XA formats as English).
    expect(await preview.getByRole('status').textContent()).toMatch(/^\[.+: .*12.*\]$/);
    expect(await preview.getByTestId('model-size').textContent()).toMatch(/^\[[\d.,]+ × [\d.,]+ × [\d.,]+ .+\]$/);
    expect(await problemsShown()).toEqual([]);
    expect(await seriousViolations(page, ['.model-preview'])).toEqual([]);
  });
});
