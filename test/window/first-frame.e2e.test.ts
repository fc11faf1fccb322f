import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
