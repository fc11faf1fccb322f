import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { openWindow, windowStarted, type WindowFixture } from '../../harness/window';

let app: WindowFixture;
let page: Page;
let gearId = 0;

/** A name that would run a script if the frame were not escaped as React escapes it. */
const MARKUP_NAME = '<img src=x onerror="globalThis.ranFromName=1">';
const NAMES = ['Gear', 'Bolt', 'Spring', 'Hinge', 'Clamp', 'Bracket', MARKUP_NAME];

interface CardBox { name: string | null; top: number; bottom: number; left: number }
/** What the page recorded of its root as it changed, from the first node the parser put there (see recordRootTexts). */
interface RootTexts { rootTexts?: { lang: string; text: string; inert: boolean }[] }
/** The DOM names these checks use in the page (this test's TypeScript world is Node's). */
interface FrameGlobals {
  ranFromName?: number;
  document: {
    getElementById(id: string): { hasAttribute(name: string): boolean; childElementCount: number } | null;
    querySelectorAll(selector: string): ArrayLike<{ textContent: string | null; getBoundingClientRect(): { top: number; bottom: number; left: number } }>;
  };
}

const cardBoxes = () => page.evaluate(() => Array.from((globalThis as unknown as FrameGlobals).document.querySelectorAll('[data-testid="design-card"]')).map((card) => {
  const box = card.getBoundingClientRect();
  return { name: card.textContent, top: box.top, bottom: box.bottom, left: box.left } satisfies CardBox;
}));
const rootState = () => page.evaluate(() => {
  const root = (globalThis as unknown as FrameGlobals).document.getElementById('root');
  return { inert: root?.hasAttribute('inert') ?? null, children: root?.childElementCount ?? 0 };
});

/** Holds back the window's own module (the page's first script starts it) until `release` is called. */
async function holdTheWindow(): Promise<{ release(): void; held: Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let heard!: () => void;
  const held = new Promise<void>((resolve) => (heard = resolve));
  await page.route(/\/assets\/start-window-[\w-]+\.js$/, async (route: Route) => {
    heard();
    await released;
    await route.continue();
  });
  return { release, held };
}

/**
 * Before any script of the page runs, records every text the page's root shows as it changes (the frame as the parser
 * puts it in, then the window's renders), with the page's language and whether the root was still the host's frame.
 */
function recordRootTexts(): void {
  type Node = { textContent: string | null; hasAttribute(name: string): boolean };
  const world = globalThis as unknown as RootTexts & {
    document: { documentElement: { lang: string }; getElementById(id: string): Node | null };
    MutationObserver: new (callback: () => void) => { observe(target: unknown, options: { childList: boolean; subtree: boolean; characterData: boolean }): void };
  };
  const texts: { lang: string; text: string; inert: boolean }[] = [];
  world.rootTexts = texts;
  const look = () => {
    const root = world.document.getElementById('root');
    const text = root?.textContent ?? '';
    if (root && text !== '' && texts.at(-1)?.text !== text) texts.push({ lang: world.document.documentElement.lang, text, inert: root.hasAttribute('inert') });
  };
  new world.MutationObserver(look).observe(world.document, { childList: true, subtree: true, characterData: true });
}

describe.skipIf(chromiumSkipReason !== undefined)('the library\'s first frame, drawn into the page by design-sync ui', () => {
  beforeAll(async () => {
    app = await openWindow(async (service) => {
      const alice = clientFor(service.url, service.addUser('alice').token);
      for (const name of NAMES) {
        const design = await alice.createDesign({ name, excerpt: 'A part', license: 'ccby' });
        await alice.publishDesign(design.id);
        if (name === 'Gear') gearId = design.id;
      }
    });
    page = app.page;
  }, 90_000);

  afterAll(() => app?.close());

  it('shows the first page\'s cards, placed as the window places them, before the window\'s own script has run', async () => {
    const violationsBefore = app.cspViolations.length;
    const window = await holdTheWindow();
    try {
      await page.goto(`${app.host.origin}/`, { waitUntil: 'commit' });
      await window.held;
      await page.waitForFunction((count) => (globalThis as unknown as FrameGlobals).document.querySelectorAll('[data-testid="design-card"]').length === count, NAMES.length);
      expect(await rootState()).toMatchObject({ inert: true });
      const cards = await cardBoxes();
      expect(cards.map((card) => card.name).join(' ')).toContain(MARKUP_NAME);
      expect(await page.locator('.library .count').textContent()).toBe(`${NAMES.length} designs`);
      // Four to a row: the fifth card starts a row below the first (the rows' style attributes applied: the CSP
      // names them), in the first card's column (the window's stylesheet applied: it came with the page).
      const [first, , , , fifth] = cards;
      expect(fifth!.top).toBeGreaterThanOrEqual(first!.bottom);
      expect(fifth!.left).toBe(first!.left);
      expect(await page.evaluate(() => (globalThis as unknown as FrameGlobals).ranFromName)).toBeUndefined();
      expect(app.cspViolations.slice(violationsBefore)).toEqual([]);
    } finally {
      window.release();
      await page.unrouteAll({ behavior: 'wait' });
    }
    // The window takes over: its own cards, live (a search narrows them), and nothing inert any more.
    await windowStarted(page);
    await page.getByRole('searchbox', { name: 'Search designs' }).fill('gear');
    await page.waitForFunction(() => (globalThis as unknown as FrameGlobals).document.querySelectorAll('[data-testid="design-card"]').length === 1);
    expect((await cardBoxes()).map((card) => card.name)).toEqual([expect.stringContaining('Gear')]);
    expect(app.cspViolations.slice(violationsBefore)).toEqual([]);
  });

  it('lets nothing be typed into the frame: a search waits for the window, and is not lost', async () => {
    const window = await holdTheWindow();
    try {
      await page.goto(`${app.host.origin}/`, { waitUntil: 'commit' });
      await window.held;
      await page.locator('[data-testid="design-card"]').first().waitFor({ state: 'attached' });
      // The frame's search box is inert: the fill waits for the window's own, and lands there.
      const typed = page.getByRole('searchbox', { name: 'Search designs' }).fill('bolt', { timeout: 15_000 });
      expect(await rootState()).toMatchObject({ inert: true });
      window.release();
      await typed;
    } finally {
      window.release();
      await page.unrouteAll({ behavior: 'wait' });
    }
    await page.waitForFunction(() => (globalThis as unknown as FrameGlobals).document.querySelectorAll('[data-testid="design-card"]').length === 1);
    expect((await cardBoxes()).map((card) => card.name)).toEqual([expect.stringContaining('Bolt')]);
  });

  it('does not show the library while a page opened on a design starts (the host cannot see the address\'s #)', async () => {
    await page.goto('about:blank');
    const window = await holdTheWindow();
    try {
      await page.goto(`${app.host.origin}/#/designs/${gearId}`, { waitUntil: 'commit' });
      await window.held;
      expect(await rootState()).toEqual({ inert: true, children: 0 });
    } finally {
      window.release();
      await page.unrouteAll({ behavior: 'wait' });
    }
    await windowStarted(page);
    await page.getByRole('heading', { level: 2, name: 'Gear' }).waitFor();
  });

  it('is drawn in the person\'s language: with Dutch chosen, the first text the page shows is Dutch, and so is the window after it', async () => {
    app.engine.appSettings.store.update({ language: 'nl' });
    onTestFinished(() => void app.engine.appSettings.store.update({ language: 'system' }));
    // Nothing remembered by the window from an earlier start: the page itself says the language.
    await page.evaluate(() => (globalThis as unknown as { localStorage: { clear(): void } }).localStorage.clear());
    await page.addInitScript(recordRootTexts);
    await page.goto('about:blank');
    const window = await holdTheWindow();
    try {
      await page.goto(`${app.host.origin}/`, { waitUntil: 'commit' });
      await window.held;
      await page.waitForFunction((count) => (globalThis as unknown as FrameGlobals).document.querySelectorAll('[data-testid="design-card"]').length === count, NAMES.length);
      // The frame, before the window's own script ran: Dutch words, the page's language Dutch.
      expect(await rootState()).toMatchObject({ inert: true });
      expect(await page.locator('.library .count').textContent()).toBe(`${NAMES.length} ontwerpen`);
      expect(await page.getByRole('searchbox').getAttribute('placeholder')).toBe('Ontwerpen zoeken (werkt offline)');
    } finally {
      window.release();
      await page.unrouteAll({ behavior: 'wait' });
    }
    await windowStarted(page);
    await page.getByRole('searchbox', { name: 'Ontwerpen zoeken' }).waitFor();
    const texts = await page.evaluate(() => (globalThis as unknown as RootTexts).rootTexts ?? []);
    // The very first text painted was the frame's, in Dutch; nothing the page showed after it was English.
    expect(texts[0]).toMatchObject({ lang: 'nl', inert: true });
    expect(texts[0]!.text).toContain(`${NAMES.length} ontwerpen`);
    for (const { text, lang } of texts) {
      expect(lang).toBe('nl');
      expect(text).not.toMatch(/\bdesigns\b|Search designs|My designs/);
    }
    expect(texts.at(-1)!.inert).toBe(false);
  });

  it('with the system\'s language as the setting, the page says so and is drawn in the browser\'s language (English here)', async () => {
    await page.goto(`${app.host.origin}/`);
    await windowStarted(page);
    expect(await page.evaluate(() => {
      const html = (globalThis as unknown as { document: { documentElement: { lang: string; getAttribute(name: string): string | null } } }).document.documentElement;
      return { lang: html.lang, setting: html.getAttribute('data-language-setting') };
    })).toEqual({ lang: 'en', setting: 'system' });
    expect(await page.locator('.library .count').textContent()).toBe(`${NAMES.length} designs`);
  });
});
