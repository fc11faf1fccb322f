import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { openWindow, type WindowFixture } from '../../harness/window';
import { tempDir } from '../engine/cache/cache-fixtures';
import { until } from '../../harness/until';
import { seriousViolations } from './axe-check';
import { englishWordsOf, pseudoLocaleProblems } from './pseudo-locale-checks';
import { loadWindow, showView } from './views';

const SIZE = { width: 1024, height: 700 };
/** The areas whose words these views show. */
const AREAS = ['mine.', 'sync.', 'welcome.', 'problems.', 'availability.', 'fields.', 'design.license.'];

/** The English of our messages here with no placeholder: none of them may be seen as it is in the pseudo-locale. */
const ENGLISH_WORDS = englishWordsOf(AREAS);

let app: WindowFixture;
let page: Page;
let rootParent: string;

/**
 * What the view shows that is cut off or left in English: an element whose accented words overflow a box that hides
 * them, words wider than the window, the page scrolling sideways, and a text node that is one of our English messages
 * as it is.
 */
async function problemsShown(): Promise<string[]> {
  return pseudoLocaleProblems(page, ENGLISH_WORDS);
}

const PSEUDO = /^\[.+\]$/s;

/** A window in the pseudo-locale at 1024 × 700 on the maker's draft Hinge and published Gear (with plate.stl). */
async function openInPseudoLocale(): Promise<void> {
  process.env.DESIGN_SYNC_PSEUDO_LOCALE = '1';
  rootParent = tempDir('window-pseudo-sync');
  app = await openWindow(async (service, makerToken) => {
    const maker = clientFor(service.url, makerToken);
    const gear = await maker.createDesign({ name: 'Gear', excerpt: 'A spur gear', license: 'ccbyncsa' });
    const plate = join(rootParent, 'plate.stl');
    writeFileSync(plate, 'solid plate\nendsolid plate\n');
    await maker.uploadDocument(gear.id, { path: plate }, { name: 'plate.stl' });
    await maker.publishDesign(gear.id);
    await maker.createDesign({ name: 'Hinge', excerpt: 'A draft', license: 'ccby' });
  });
  page = app.page;
  app.engine.appSettings.store.update({ language: 'en-XA' });
  await page.setViewportSize(SIZE);
}

async function closeWindow(): Promise<void> {
  await app?.close();
  delete process.env.DESIGN_SYNC_PSEUDO_LOCALE;
  if (rootParent) rmSync(rootParent, { recursive: true, force: true });
}

describe.skipIf(chromiumSkipReason !== undefined)('My designs and Sync in the pseudo-locale, at 1024 × 700', () => {
  beforeAll(openInPseudoLocale, 120_000);
  afterAll(closeWindow);

  it('shows My designs in it: the cards\' states, files and actions accented and whole, no serious axe finding', async () => {
    await loadWindow(page, app.host.origin, '#/mine');
    await page.locator('html[lang="en-XA"]').waitFor();
    const hinge = page.locator('[data-testid="own-design"]', { hasText: 'Hinge' });
    await hinge.waitFor();
    expect(await page.locator('#mine-title').textContent()).toMatch(PSEUDO);
    expect(await hinge.getByTestId('own-state').textContent()).toMatch(PSEUDO);
    // The counts are plurals of the pseudo-locale: bracketed, accented, the numbers kept.
    expect(await hinge.getByTestId('own-files').textContent()).toMatch(/^\[.*0.*0.*\]$/);
    expect(await problemsShown()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows a design\'s form in it: the labels, the license\'s meaning and the counts of characters whole', async () => {
    await showView(page, app.host.origin, '#/mine');
    await page.locator('html[lang="en-XA"]').waitFor();
    const hinge = page.locator('[data-testid="own-design"]', { hasText: 'Hinge' });
    await hinge.locator('button[aria-haspopup="menu"]').click();
    await hinge.getByRole('menuitem').nth(1).click();
    const form = page.locator('form.design-form');
    await form.waitFor();
    expect(await form.locator('h3').textContent()).toMatch(/^\[.*Hinge.*\]$/);
    expect(await form.locator('select option:checked').textContent()).toMatch(PSEUDO);
    expect(await form.locator('.field-help').first().textContent()).toMatch(PSEUDO);
    expect(await problemsShown()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows Sync in it, before and after a folder is chosen: the state, the folder\'s actions, the content policy and what is never sent', async () => {
    await showView(page, app.host.origin, '#/sync');
    await page.locator('html[lang="en-XA"]').waitFor();
    const folderPath = page.locator('#sync-folder-path');
    await folderPath.waitFor();
    expect(await page.locator('#sync-title').textContent()).toMatch(PSEUDO);
    expect(await folderPath.getAttribute('placeholder')).toMatch(PSEUDO);
    expect(await page.locator('.sync-state').textContent()).toMatch(PSEUDO);
    expect(await problemsShown()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    await folderPath.fill(join(rootParent, 'Designs'));
    await page.locator('form:has(#sync-folder-path) button[type="submit"]').click();
    await page.locator('.panel-attention button.primary').waitFor();
    await page.locator('.never-sent details summary').click();
    await page.locator('.built-in-list li').first().waitFor();
    expect(await page.locator('.never-sent details summary').textContent()).toMatch(/^\[.*\d.*\]$/);
    expect(await page.locator('.panel-attention p').first().textContent()).toMatch(PSEUDO);
    expect(await problemsShown()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe.skipIf(chromiumSkipReason !== undefined)('Sync\'s waiting items in the pseudo-locale, at 1024 × 700', () => {
  beforeAll(openInPseudoLocale, 120_000);
  afterAll(closeWindow);

  it('shows what waits for the person in it: a deletion to confirm and a refused file, with their buttons whole', async () => {
    const root = join(rootParent, 'Designs');
    await app.engine.sync.chooseFolder(root);
    app.engine.sync.acceptContentPolicy();
    await app.engine.startBackground();
    const plate = join(root, 'gear', 'plate.stl');
    await until('the design\'s file in the folder', () => existsSync(plate), 30_000);
    await showView(page, app.host.origin, '#/sync');
    await page.locator('html[lang="en-XA"]').waitFor();
    rmSync(plate);
    writeFileSync(join(root, 'gear', 'tool.exe'), Buffer.from('MZ\x90\x00 not for upload'));
    const waiting = page.getByTestId('waiting-item');
    await waiting.filter({ hasText: 'plate.stl' }).waitFor({ timeout: 20_000 });
    await waiting.filter({ hasText: 'tool.exe' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('#waiting-title').textContent()).toMatch(PSEUDO);
    expect(await waiting.filter({ hasText: 'plate.stl' }).locator('button.danger').textContent()).toMatch(PSEUDO);
    expect(await page.locator('.sync-state').textContent()).toMatch(PSEUDO);
    expect(await problemsShown()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
