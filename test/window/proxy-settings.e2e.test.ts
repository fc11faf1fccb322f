import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { configureProxy } from '../../electron/engine/api/proxy-agents';
import { chromiumSkipReason } from '../../harness/chromium';
import { openWindow, type WindowFixture } from '../../harness/window';
import { showView } from './views';

let app: WindowFixture;
let page: Page;
const PASSWORD = 'window-proxy-secret-42';

describe.skipIf(chromiumSkipReason !== undefined)('the proxy in Settings, in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async () => {});
    page = app.page;
    await page.setViewportSize({ width: 1400, height: 900 });
  }, 90_000);

  afterAll(async () => {
    configureProxy({ mode: 'system' });
    await app?.close();
  });

  it('sets a manual proxy with a password that is kept and never shown again; a wrong port is named; None goes back to direct', async () => {
    await showView(page, app.host.origin, '#/settings');
    const panel = page.getByRole('form', { name: 'Proxy' });
    await panel.waitFor();
    await expect(panel.getByRole('radio', { name: 'System' }).isChecked()).resolves.toBe(true);
    await panel.getByTestId('proxy-in-use').filter({ hasText: 'The service is reached directly, without a proxy.' }).waitFor();

    await panel.getByRole('radio', { name: 'Manual' }).check();
    await panel.getByLabel('Host').fill('proxy.example');
    await panel.getByLabel('Port').fill('99999');
    await panel.getByRole('button', { name: 'Save the proxy' }).click();
    await panel.getByRole('alert').filter({ hasText: 'The proxy’s port must be a whole number from 1 to 65535, such as 3128 or 8080.' }).waitFor();
    expect(app.engine.appSettings.proxy.saved().mode).toBe('system');

    await panel.getByLabel('Port').fill('3128');
    await panel.getByLabel('User name (if the proxy asks for one)').fill('ana');
    await panel.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await panel.getByRole('button', { name: 'Save the proxy' }).click();
    await page.getByText('The proxy saved.').waitFor();
    expect(app.engine.appSettings.proxy.saved()).toEqual({ mode: 'manual', host: 'proxy.example', port: 3128, username: 'ana' });
    expect(app.engine.appSettings.proxy.secrets()).toEqual([PASSWORD]);
    await expect(panel.getByLabel('Password', { exact: true }).inputValue()).resolves.toBe('');
    await expect(panel.getByLabel('Password', { exact: true }).getAttribute('placeholder')).resolves.toBe('Kept — type a new one to change it');
    expect(await page.content()).not.toContain(PASSWORD);
    // The service of this test is on loopback, which never goes through a proxy.
    await panel.getByTestId('proxy-in-use').filter({ hasText: 'The service is reached directly, without a proxy.' }).waitFor();

    await panel.getByRole('button', { name: 'Remove the password' }).click();
    await expect.poll(() => app.engine.appSettings.proxy.secrets(), { timeout: 10_000 }).toEqual([]);

    await panel.getByRole('radio', { name: 'None' }).check();
    await panel.getByRole('button', { name: 'Save the proxy' }).click();
    await expect.poll(() => app.engine.appSettings.proxy.saved().mode, { timeout: 10_000 }).toBe('none');
    await expect(panel.getByLabel('Host').count()).resolves.toBe(0);
  });
});
