import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { openWindow, type WindowFixture } from '../../harness/window';
import { PSEUDO_LOCALE_FLAG } from '../../electron/engine/settings/language';
import { seriousViolations } from './axe-check';
import { showView } from './views';

const FIXTURES = join(import.meta.dirname, '../fixtures');
const SMALL = { width: 1024, height: 700 };
/** The views whose words are all in the catalogs (eslint.config.js, TRANSLATED_FILES): the top bar and Settings. */
const CONVERTED = '.topbar, .settings';

/** The few DOM names the checks in the page use (these tests' TypeScript world has no DOM types). */
interface Rect { left: number; right: number; top: number; bottom: number; width: number; height: number }
interface Element {
  tagName: string; id: string; className: string; textContent: string | null; scrollWidth: number; clientWidth: number;
  childNodes: ArrayLike<{ nodeType: number; textContent: string | null }>;
  getBoundingClientRect(): Rect; closest(selector: string): Element | null;
}
interface PageWorld {
  document: { documentElement: Element & { lang: string }; querySelectorAll(selector: string): ArrayLike<Element> };
  getComputedStyle(element: Element): { display: string; visibility: string; overflowX: string };
  innerWidth: number;
  languageMark?: string;
}

let app: WindowFixture;
let page: Page;
const flagBefore = process.env[PSEUDO_LOCALE_FLAG];

/** Settings' language chooser, set to `value` (a code, or 'system') as a person chooses it. */
async function chooseLanguage(value: string): Promise<void> {
  await page.locator('#language').selectOption(value);
}

/** The window back in the system's language (English), for the next test, whatever view this one left open. */
async function backToSystemLanguage(): Promise<void> {
  await page.setViewportSize({ width: 1100, height: 760 });
  await showView(page, app.host.origin, '#/settings');
  await chooseLanguage('system');
  await page.waitForFunction(() => (globalThis as unknown as PageWorld).document.documentElement.lang === 'en');
}

/**
 * What is cut off or overlaps in the converted views: a text container whose text is wider than its box, a button or
 * link lying over another, the page wider than the window.
 */
async function layoutProblems(): Promise<string[]> {
  return page.evaluate((selector) => {
    const { document, getComputedStyle, innerWidth } = globalThis as unknown as PageWorld;
    const problems: string[] = [];
    const name = (element: Element) => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.className ? `.${String(element.className).split(' ').join('.')}` : ''} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
    const shown = (element: Element) => {
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      return style.display !== 'none' && style.visibility !== 'hidden' && box.width > 0 && box.height > 0 && !element.closest('.visually-hidden');
    };
    if (document.documentElement.scrollWidth > innerWidth) problems.push(`the page is ${document.documentElement.scrollWidth}px wide in a ${innerWidth}px window`);
    const inViews = Array.from(document.querySelectorAll(`${selector.split(', ').map((part) => `${part}, ${part} *`).join(', ')}`)).filter(shown);
    for (const element of inViews) {
      const hasText = Array.from(element.childNodes).some((node) => node.nodeType === 3 && (node.textContent ?? '').trim() !== '');
      const display = getComputedStyle(element).display;
      if (hasText && display !== 'inline' && element.scrollWidth > element.clientWidth + 1) {
        problems.push(`cut off: ${name(element)} needs ${element.scrollWidth}px, has ${element.clientWidth}px`);
      }
    }
    const controls = inViews.filter((element) => ['BUTTON', 'A', 'SELECT', 'INPUT'].includes(element.tagName));
    for (let one = 0; one < controls.length; one++) {
      for (let other = one + 1; other < controls.length; other++) {
        const a = controls[one]!.getBoundingClientRect();
        const b = controls[other]!.getBoundingClientRect();
        const overlapX = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const overlapY = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (overlapX > 1 && overlapY > 1) problems.push(`overlap: ${name(controls[one]!)} and ${name(controls[other]!)}`);
      }
    }
    return problems;
  }, CONVERTED);
}

/** Words of the converted views' headings, labels, buttons and links still in plain English (4 letters or more). */
async function englishLeft(): Promise<string[]> {
  return page.evaluate((selector) => {
    const { document } = globalThis as unknown as PageWorld;
    const parts = selector.split(', ');
    const found: string[] = [];
    for (const element of Array.from(document.querySelectorAll(parts.flatMap((part) => ['h1', 'h2', 'h3', 'label', 'legend', 'button', 'a'].map((tag) => `${part} ${tag}`)).join(', ')))) {
      const words = (element.textContent ?? '').match(/[A-Za-z]{4,}/g);
      if (words) found.push(`${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim()}": ${words.join(', ')}`);
    }
    return found;
  }, CONVERTED);
}

describe.skipIf(chromiumSkipReason !== undefined)('the window in the person\'s language', () => {
  beforeAll(async () => {
    // Developers' pseudo-locale is offered by this engine (the tests' process is the engine's).
    process.env[PSEUDO_LOCALE_FLAG] = '1';
    app = await openWindow(async (service) => {
      const alice = clientFor(service.url, service.addUser('alice').token);
      const gear = await alice.createDesign({ name: 'Gear', excerpt: 'A spur gear', license: 'ccby', description: '<p>Twenty teeth.</p>' });
      await alice.uploadImage(gear.id, { path: join(FIXTURES, 'images', 'jpg-sample.jpg') });
      await alice.publishDesign(gear.id);
    });
    page = app.page;
  }, 90_000);

  afterAll(async () => {
    if (flagBefore === undefined) delete process.env[PSEUDO_LOCALE_FLAG];
    else process.env[PSEUDO_LOCALE_FLAG] = flagBefore;
    await app?.close();
  });

  it('starts in the system\'s language (English here), the chooser saying so', async () => {
    await showView(page, app.host.origin, '#/settings');
    await page.getByRole('heading', { name: 'Account and settings' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as PageWorld).document.documentElement.lang)).toBe('en');
    expect(await page.locator('#language option:checked').textContent()).toBe('System language (English)');
    // The pseudo-locale is offered: this engine runs with DESIGN_SYNC_PSEUDO_LOCALE=1.
    expect(await page.locator('#language option').allTextContents()).toEqual(['System language (English)', 'English', 'Nederlands', 'Deutsch', 'Pseudo-locale (en-XA, for developers)']);
  });

  it('changes to Nederlands at once, without reloading the page, the focus staying on the chooser; and back to the system\'s', async () => {
    onTestFinished(backToSystemLanguage);
    await showView(page, app.host.origin, '#/settings');
    await page.getByRole('heading', { name: 'Account and settings' }).waitFor();
    await page.evaluate(() => { (globalThis as unknown as PageWorld).languageMark = 'same page'; });
    await page.locator('#language').focus();
    await chooseLanguage('nl');

    await page.getByRole('heading', { name: 'Account en instellingen' }).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Bibliotheek' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'De taal is opgeslagen.' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as PageWorld).languageMark)).toBe('same page');
    expect(await page.evaluate(() => (globalThis as unknown as PageWorld).document.documentElement.lang)).toBe('nl');
    expect(await page.locator('#language').evaluate((element) => element === (element as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement)).toBe(true);
    // Counts as Dutch counts them; the chooser names the system's language in the language shown.
    expect(await page.locator('.settings').textContent()).toMatch(/1 ontwerp in de cache; de afbeeldingen nemen [\d,]+ MB van 500 MB in beslag\./);
    expect(await page.locator('#language option').first().textContent()).toBe('Systeemtaal (English)');
    expect(app.engine.appSettings.store.read().language).toBe('nl');

    // Loaded again, the window is in Dutch from its first render.
    await page.reload();
    await page.getByRole('heading', { name: 'Account en instellingen' }).waitFor();

    await chooseLanguage('system');
    await page.getByRole('heading', { name: 'Account and settings' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as PageWorld).document.documentElement.lang)).toBe('en');
  });

  it('in German, the status pill and the top bar say it in German', async () => {
    onTestFinished(backToSystemLanguage);
    await showView(page, app.host.origin, '#/settings');
    await chooseLanguage('de');
    await page.getByRole('heading', { name: 'Konto und Einstellungen' }).waitFor();
    await page.getByRole('navigation', { name: 'Ansichten' }).getByRole('link', { name: 'Meine Designs' }).waitFor();
    await page.getByRole('button', { name: 'Abmelden' }).first().waitFor();
    // The sync folder is not chosen in this profile: the pill says so, its reason what to do.
    const pill = page.locator('.status-pill');
    expect(await pill.textContent()).toBe('Synchronisierung nicht eingerichtet');
    expect(await pill.getAttribute('title')).toBe('Wählen Sie einen Synchronisierungsordner für Ihre Designs.');
  });

  it('in the pseudo-locale at 1024×700: no English left in the top bar and Settings, nothing cut off or overlapping, and axe finds nothing serious', async () => {
    onTestFinished(backToSystemLanguage);
    await page.setViewportSize(SMALL);
    await showView(page, app.host.origin, '#/settings');
    await chooseLanguage('en-XA');
    await page.locator('#settings-title').filter({ hasText: /^\[Åççöûñţ áñð šéţţîñĝš .*\]$/ }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as PageWorld).document.documentElement.lang)).toBe('en-XA');

    expect(await englishLeft()).toEqual([]);
    expect(await layoutProblems()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    // The library under the same top bar (the library's own words are checked with its view).
    await page.getByRole('navigation').getByRole('link').first().click();
    await page.locator('[data-testid="design-card"]').first().waitFor();
    expect(await englishLeft()).toEqual([]);
    expect(await layoutProblems()).toEqual([]);
    expect(await seriousViolations(page, ['.topbar'])).toEqual([]);
  });

  it('the layout check sees text cut off (the check itself works)', async () => {
    await page.setViewportSize(SMALL);
    await showView(page, app.host.origin, '#/settings');
    await page.getByRole('heading', { name: 'Account and settings' }).waitFor();
    // The heading held to 40 px on one line, as a fixed width and `white-space: nowrap` would hold a longer translation.
    onTestFinished(() => page.evaluate(() => {
      const title = (globalThis as unknown as { document: { getElementById(id: string): { style: { width: string; whiteSpace: string } } | null } }).document.getElementById('settings-title');
      if (title) Object.assign(title.style, { width: '', whiteSpace: '' });
    }));
    await page.evaluate(() => {
      const title = (globalThis as unknown as { document: { getElementById(id: string): { style: { width: string; whiteSpace: string } } | null } }).document.getElementById('settings-title')!;
      Object.assign(title.style, { width: '40px', whiteSpace: 'nowrap' });
    });
    expect((await layoutProblems()).join('\n')).toMatch(/cut off: h2#settings-title/);
  });
});
