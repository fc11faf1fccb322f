import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { closedPort } from '../support/free-port';
import { openWindow, type WindowFixture } from '../../harness/window';
import { showView } from './views';

const headerSignIn = (page: Page) => page.locator('header .account').getByRole('button', { name: 'Sign in' });
const serviceForm = (page: Page) => page.getByRole('form', { name: 'Service' });
const apiField = (page: Page) => serviceForm(page).getByLabel('Service address (API)');
const webField = (page: Page) => serviceForm(page).getByLabel('Web address (sign-in and design pages)');
const save = (page: Page) => serviceForm(page).getByRole('button', { name: 'Save the addresses' }).click();

/** Settings, drawn anew. */
async function settings(page: Page, app: WindowFixture): Promise<void> {
  await showView(page, app.host.origin, '#/settings');
  await page.getByRole('heading', { name: 'Account and settings', level: 2 }).waitFor();
}

/**
 * Settings → Service: the API address (checked before it is saved) and the web address (sign-in and design pages,
 * derived from the first unless set). A saved address clears the problems of the old one, and Sign in is offered at once.
 */
describe.skipIf(chromiumSkipReason !== undefined)('the window\'s two service addresses in Chromium', () => {
  let app: WindowFixture;
  let page: Page;
  let dead: string;

  beforeAll(async () => {
    dead = `http://127.0.0.1:${await closedPort()}`;
  });

  describe('with no service chosen yet', () => {
    beforeAll(async () => {
      app = await openWindow(async () => {}, { signedIn: false, noService: true });
      page = app.page;
    }, 90_000);
    afterAll(() => app?.close());

    it('refuses an address nothing answers at, in words; then a saved address clears that problem and offers Sign in at once', async () => {
      await settings(page, app);
      expect(await headerSignIn(page).isDisabled()).toBe(true);
      await apiField(page).fill(dead);
      await save(page);
      await page.getByRole('alert').getByText(`Service address cannot be reached: nothing answers at ${dead}. Check the address.`).waitFor();
      expect(app.engine.connection.serviceUrl()).toBeNull();

      await apiField(page).fill(app.service.url);
      await save(page);
      const saved = page.locator('.settings').getByRole('status').getByText('The service address saved.');
      await saved.waitFor();
      // Said as news, not as a warning.
      expect(await page.locator('.settings p.banner-note', { hasText: 'The service address saved.' }).count()).toBe(1);
      expect(await page.locator('.settings [role="alert"]').count()).toBe(0);
      expect(app.engine.connection.serviceUrl()).toBe(app.service.url);
      await page.waitForFunction(() => {
        const button = (globalThis as unknown as { document: { querySelector(s: string): { disabled: boolean } | null } }).document.querySelector('header .account button.primary');
        return button !== null && !button.disabled;
      }, undefined, { timeout: 5_000 });
      expect(await page.locator('header .account [data-testid="action-reason"]').count()).toBe(0);
    });
  });

  describe('with a service chosen', () => {
    beforeAll(async () => {
      app = await openWindow(async () => {}, { signedIn: false });
      page = app.page;
    }, 90_000);
    afterAll(() => app?.close());

    it('shows the web address derived from the service address, and takes one set by hand (emptied: derived again)', async () => {
      await settings(page, app);
      expect(await webField(page).inputValue()).toBe('');
      expect(await webField(page).getAttribute('placeholder')).toBe(app.service.url);
      await serviceForm(page).getByText(`Derived from the service address: ${app.service.url}; change it only if your service's web site is elsewhere.`).waitFor();

      const elsewhere = app.service.url.replace('127.0.0.1', 'localhost');
      await webField(page).fill(`${elsewhere}/`);
      await save(page);
      await serviceForm(page).getByText('Where you sign in and design pages open. Leave it empty to derive it from the service address.').waitFor();
      expect(app.engine.connection.webUrl()).toBe(elsewhere);
      expect(await webField(page).inputValue()).toBe(elsewhere);

      // Sign-in goes to the web address.
      await page.getByRole('region', { name: 'Account' }).getByRole('button', { name: 'Sign in' }).click();
      const link = page.getByRole('region', { name: 'Account' }).getByRole('link', { name: 'the service\'s sign-in page' });
      await link.waitFor();
      expect((await link.getAttribute('href'))!.startsWith(`${elsewhere}/integrations/design-sync/authorized_integrations/new?`)).toBe(true);
      app.engine.account.signIn.cancel();
      await page.getByRole('region', { name: 'Account' }).getByRole('button', { name: 'Sign in' }).waitFor();

      await webField(page).fill('');
      await save(page);
      await serviceForm(page).getByText(`Derived from the service address: ${app.service.url}; change it only if your service's web site is elsewhere.`).waitFor();
      expect(app.engine.connection.webUrl()).toBe(app.service.url);
    });

    it('a pull that failed on the old address is not shown once another address is saved', async () => {
      await settings(page, app);
      // Another program moved the profile to an address where nothing answers: the window hears it and pulls there.
      await app.engine.setServiceUrl(dead);
      await page.waitForFunction((address) => {
        const input = (globalThis as unknown as { document: { querySelector(s: string): { value: string } | null } }).document.querySelector('#service-url');
        return input?.value === address;
      }, dead, { timeout: 5_000 });
      await page.getByRole('button', { name: 'Pull the catalogue now' }).click();
      await page.getByRole('alert').getByText(/The catalogue could not be pulled/).waitFor({ timeout: 30_000 });

      await apiField(page).fill(app.service.url);
      await save(page);
      await page.locator('.settings').getByRole('status').getByText('The service address saved.').waitFor();
      await page.locator('.settings [role="alert"]').first().waitFor({ state: 'detached', timeout: 5_000 });
      expect(await page.locator('.settings').textContent()).not.toContain('could not be pulled');
    }, 60_000);
  });
});
