import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { deleteDesigns, upsertDesign } from '../../electron/engine/cache/design-writes';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { listFormDesign } from '../engine/cache/cache-fixtures';
import { openWindow, windowStarted, type PageGlobals, type WindowFixture } from '../../harness/window';

let app: WindowFixture;
let page: Page;

const cardNames = async () => (await page.locator('[data-testid="design-card"] .card-name').allTextContents()).sort();
const waitForCards = (count: number) => page.waitForFunction(
  (n) => (globalThis as unknown as PageGlobals).document.querySelectorAll('[data-testid="design-card"]').length === n, count, { timeout: 10_000 },
);

describe.skipIf(chromiumSkipReason !== undefined)('the library\'s first page, handed over with the window\'s page by design-sync ui', () => {
  beforeAll(async () => {
    app = await openWindow(async (service) => {
      const alice = clientFor(service.url, service.addUser('alice').token);
      for (const name of ['Gear', 'Bolt', 'Spring']) {
        const design = await alice.createDesign({ name, excerpt: `A ${name.toLowerCase()}`, license: 'ccby' });
        await alice.publishDesign(design.id);
      }
    });
    page = app.page;
    await waitForCards(3);
  }, 90_000);

  afterAll(() => app?.close());

  it('shows the first page\'s cards and count before the WebSocket has answered anything', async () => {
    // The window's socket reaches a stand-in that never answers: only what came with the page can show.
    await page.routeWebSocket(/\/contract$/, () => {});
    try {
      await page.goto(`${app.host.origin}/`);
      // The window's own cards, not the host's first frame of them.
      await windowStarted(page);
      await waitForCards(3);
      expect(await cardNames()).toEqual(['Bolt', 'Gear', 'Spring']);
      expect(await page.locator('.count').textContent()).toBe('3 designs');
    } finally {
      await page.unrouteAll();
    }
  });

  it('reads the page again once the socket opens, so that a design cached after the page was served shows', async () => {
    let written = false;
    // Sprocket is this test's: gone from the cache again after it, whatever its outcome (the library is the others' too).
    onTestFinished(() => { deleteDesigns(app.engine.cache.db, [900_001]); });
    await page.routeWebSocket(/\/contract$/, (socket) => {
      // Between the page (its first answers) and the socket: written behind the engine's back, so nothing tells of it.
      upsertDesign(app.engine.cache.db, listFormDesign({ id: 900_001, name: 'Sprocket' }), 'list', Date.now());
      written = true;
      socket.connectToServer();
    });
    try {
      await page.goto(`${app.host.origin}/`);
      await waitForCards(4);
      expect(written).toBe(true);
      expect(await cardNames()).toEqual(['Bolt', 'Gear', 'Spring', 'Sprocket']);
    } finally {
      await page.unrouteAll();
    }
  });
});
