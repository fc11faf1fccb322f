import type { Page } from 'playwright-core';
import { windowStarted } from '../../harness/window';

/** The view the window shows now, as its address's # names it ('#/' for the library). */
function viewOf(page: Page, origin: string): string | null {
  const url = page.url();
  if (!url.startsWith(`${origin}/`)) return null;
  return new URL(url).hash || '#/';
}

/**
 * Shows the window's view at `hash` (#/, #/mine, #/sync, #/settings, #/designs/…), as a link to it does, drawn anew:
 * a window on that view already goes through another first, so that the view's forms and menus are as a person
 * coming to it finds them, not as an earlier test left them. (What the window keeps across its views, such as the
 * library's search, stays: see loadWindow.)
 */
export async function showView(page: Page, origin: string, hash: string): Promise<void> {
  const now = viewOf(page, origin);
  if (now === null) {
    await loadWindow(page, origin, hash);
    return;
  }
  if (now === hash) await page.goto(`${origin}/${hash === '#/settings' ? '#/' : '#/settings'}`);
  await page.goto(`${origin}/${hash}`);
}

/**
 * The window's page loaded afresh at `hash` (by default the library), and started: nothing typed in it, nothing
 * scrolled, filtered or focused, whatever an earlier test did in it.
 */
export async function loadWindow(page: Page, origin: string, hash = ''): Promise<void> {
  // An address that differs from the page's only by its # is not loaded again by the browser: it is reloaded then.
  const sameDocument = hash !== '' && page.url().split('#')[0] === `${origin}/`;
  await page.goto(`${origin}/${hash}`);
  if (sameDocument) await page.reload();
  await windowStarted(page);
}
