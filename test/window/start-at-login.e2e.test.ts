import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeStartAtLogin } from '../../electron/engine/settings/start-at-login';
import { loginLaunch } from '../../electron/shell/login-items/launch-command';
import { xdgLoginItems } from '../../electron/shell/login-items/login-items';
import { tempDir } from '../engine/cache/cache-fixtures';
import { chromiumSkipReason } from '../../harness/chromium';
import { until } from '../../harness/until';
import { seriousViolations } from './axe-check';
import { loadWindow, showView } from './views';
import { openWindow, type WindowFixture } from '../../harness/window';

// The code under test needs none of Electron; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

/**
 * Start at login in the window: the one-time question once a sync folder is chosen, and the setting in Settings —
 * with the desktop app's login item (the Linux autostart entry, in a temporary config home), and in a browser
 * (`design-sync ui`), which cannot start itself at login and says so.
 */
let app: WindowFixture;
let page: Page;
let scratch: string;

const question = () => page.getByRole('region', { name: 'Start design-sync when you log in?' });
const loginPanel = () => page.getByRole('region', { name: 'When you log in' });
const checkbox = () => loginPanel().getByRole('checkbox', { name: 'Start design-sync when you log in' });
const entry = () => join(scratch, 'config', 'autostart', 'design-sync.desktop');

/** The sync folder chosen, as the Sync view's form chooses it, unless one is. */
async function folderChosen(): Promise<void> {
  await showView(page, app.host.origin, '#/sync');
  const form = page.getByRole('form', { name: 'Choose the sync folder' });
  await page.getByText('Sync folder:').or(form).first().waitFor();
  if (!(await form.isVisible())) return;
  await page.getByLabel('Sync folder (full path; made if missing)').fill(join(scratch, 'Designs'));
  await form.getByRole('button', { name: 'Choose' }).click();
  await page.getByText(`Sync folder: ${join(scratch, 'Designs')}`).waitFor();
}

/** Not asked yet, and not starting at login: as a profile is before the person chose a sync folder. */
function notAskedYet(): void {
  app.engine.appSettings.store.update({ startAtLoginAsked: false, startAtLogin: false });
  rmSync(entry(), { force: true });
}

describe.skipIf(chromiumSkipReason !== undefined)('start at login in the desktop app\'s window (Chromium)', () => {
  beforeAll(async () => {
    scratch = tempDir('window-start-at-login');
    const launch = loginLaunch({ execPath: '/opt/design-sync/design-sync', isPackaged: true, appPath: '', appImage: '/home/ada/Apps/design-sync.AppImage', profileArgument: null, profileDir: join(scratch, 'profile') });
    app = await openWindow(async () => {}, { startAtLogin: xdgLoginItems(launch, { XDG_CONFIG_HOME: join(scratch, 'config') }) });
    page = app.page;
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('is not asked before a sync folder is chosen, then asked once, in the Sync view; "Not now" is remembered and registers nothing', async () => {
    notAskedYet();
    await showView(page, app.host.origin, '#/sync');
    const chooser = page.getByRole('form', { name: 'Choose the sync folder' });
    await page.getByText('Sync folder:').or(chooser).first().waitFor();
    if (await chooser.isVisible()) {
      expect(await question().count()).toBe(0);
      await folderChosen();
    }
    await question().waitFor();
    expect(await question().textContent()).toContain('It starts in the tray, without a window');
    expect(await seriousViolations(page)).toEqual([]);
    await question().getByRole('button', { name: 'Not now' }).click();
    await page.getByRole('status').filter({ hasText: 'design-sync will not start when you log in.' }).waitFor();
    expect(await question().count()).toBe(0);
    expect(app.engine.appSettings.store.read().startAtLoginAsked).toBe(true);
    expect(existsSync(entry())).toBe(false);
    // Never asked again: not in a new window, not after choosing the view again.
    await page.reload();
    await showView(page, app.host.origin, '#/sync');
    await page.getByText('Sync folder:').waitFor();
    expect(await question().count()).toBe(0);
  });

  it('"Start at login" in the question writes the autostart entry, and Settings shows it on', async () => {
    notAskedYet();
    // Loaded afresh after the reset, as a window opened on a profile not asked yet: the test before answered "Not now".
    await loadWindow(page, app.host.origin, '#/sync');
    await folderChosen();
    await question().getByRole('button', { name: 'Start at login' }).click();
    await page.getByRole('status').filter({ hasText: 'design-sync will start in the tray when you log in.' }).waitFor();
    expect(readFileSync(entry(), 'utf8')).toContain('Exec=/home/ada/Apps/design-sync.AppImage --hidden\n');
    await showView(page, app.host.origin, '#/settings');
    expect(await checkbox().isChecked()).toBe(true);
    expect(await checkbox().isEnabled()).toBe(true);
  });

  it('Settings\' checkbox turns it on and off: the entry is written, then removed', async () => {
    notAskedYet();
    // Loaded afresh after the reset: what the window read before it (the test before this one turned it on) is gone.
    await loadWindow(page, app.host.origin, '#/settings');
    await checkbox().waitFor();
    await expect.poll(() => checkbox().isChecked(), { timeout: 10_000 }).toBe(false);
    expect(await loginPanel().textContent()).toContain('It starts in the tray, without a window');
    await checkbox().check();
    await page.getByRole('status').filter({ hasText: 'Start at login saved.' }).waitFor();
    await until('the autostart entry', () => existsSync(entry()));
    expect(app.engine.appSettings.store.read()).toMatchObject({ startAtLogin: true, startAtLoginAsked: true });
    await checkbox().uncheck();
    await page.getByRole('status').filter({ hasText: 'Not starting at login saved.' }).waitFor();
    expect(existsSync(entry())).toBe(false);
    expect(await checkbox().isChecked()).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('Settings shows a change made in the tray once the window is back in front', async () => {
    notAskedYet();
    // Loaded afresh after the reset: what the window read before it (the test before this one turned it on) is gone.
    await loadWindow(page, app.host.origin, '#/settings');
    await checkbox().waitFor();
    await expect.poll(() => checkbox().isChecked(), { timeout: 10_000 }).toBe(false);
    // The tray's checkbox goes through the engine, as this does; the window hears nothing until it gets the focus back.
    await changeStartAtLogin(app.engine.appSettings.startAtLogin, app.engine.appSettings.store, true);
    await page.evaluate(() => (globalThis as unknown as { dispatchEvent(event: Event): boolean }).dispatchEvent(new Event('focus')));
    await until('the checkbox to show it on', () => checkbox().isChecked());
    expect(existsSync(entry())).toBe(true);
  });

  it('says why when the entry cannot be written, and the checkbox stays off', async () => {
    notAskedYet();
    rmSync(join(scratch, 'config'), { recursive: true, force: true });
    mkdirSync(join(scratch, 'config'), { recursive: true });
    writeFileSync(join(scratch, 'config', 'autostart'), 'a file where the folder should be');
    try {
      await showView(page, app.host.origin, '#/settings');
      // Refused at once, so the box goes back to off (check() would insist it stays ticked).
      await checkbox().click();
      await page.getByRole('alert').filter({ hasText: 'could not be set to start at login' }).waitFor();
      expect(await checkbox().isChecked()).toBe(false);
    } finally {
      rmSync(join(scratch, 'config', 'autostart'), { force: true });
    }
  });
});

describe.skipIf(chromiumSkipReason !== undefined)('start at login in a browser (design-sync ui, Chromium)', () => {
  let browserApp: WindowFixture;
  beforeAll(async () => {
    browserApp = await openWindow(async () => {});
  }, 90_000);
  afterAll(() => browserApp?.close());

  it('Settings shows the desktop app\'s setting greyed out, saying a browser cannot start itself at login; the question is never asked', async () => {
    const view = browserApp.page;
    await showView(view, browserApp.host.origin, '#/settings');
    const panel = view.getByRole('region', { name: 'When you log in' });
    const box = panel.getByRole('checkbox', { name: 'Start design-sync when you log in' });
    await box.waitFor();
    expect(await box.isDisabled()).toBe(true);
    expect(await box.isChecked()).toBe(false);
    expect(await panel.textContent()).toMatch(/setting of the design-sync desktop app.*runs in your browser.*cannot start itself when you log in/);
    const folder = tempDir('browser-start-at-login');
    try {
      await showView(view, browserApp.host.origin, '#/sync');
      await view.getByLabel('Sync folder (full path; made if missing)').fill(folder);
      await view.getByRole('button', { name: 'Choose' }).click();
      await view.getByText(`Sync folder: ${folder}`).waitFor();
      await view.getByRole('region', { name: 'Content policy' }).waitFor();
      expect(await view.getByRole('region', { name: 'Start design-sync when you log in?' }).count()).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
