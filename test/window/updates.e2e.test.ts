import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason } from '../../harness/chromium';
import { seriousViolations } from './axe-check';
import { showView } from './views';
import { openWindow, type WindowFixture } from '../../harness/window';

/**
 * Settings' Updates panel in a window served by `design-sync ui` (Chromium): a browser window has no updates of its own,
 * and says so rather than offering a check that cannot happen. The desktop app's answers are tested in test/shell/.
 */
let app: WindowFixture;
let page: Page;

describe.skipIf(chromiumSkipReason !== undefined)('updates in Settings, in a browser window (Chromium)', () => {
  beforeAll(async () => {
    app = await openWindow(async () => {});
    page = app.page;
  }, 90_000);

  afterAll(async () => {
    await app?.close();
  });

  it('says updates come with the desktop app, with no check or restart to press', async () => {
    await showView(page, app.host.origin, '#/settings');
    const panel = page.getByRole('region', { name: 'Updates' });
    await panel.getByTestId('updates-state').waitFor();
    expect(await panel.getByTestId('updates-state').textContent()).toBe('Updates are not available in this copy');
    expect(await panel.getByTestId('updates-reason').textContent()).toContain('Updates come with the desktop app. This window is served by design-sync ui');
    expect(await panel.getByRole('button').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
