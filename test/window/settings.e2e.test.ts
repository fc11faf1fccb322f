import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { createUser } from '../../service/users/user-accounts';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { openWindow, type WindowFixture } from '../../harness/window';
import { showView } from './views';


let app: WindowFixture;
let page: Page;
const account = () => page.getByRole('region', { name: 'Account' });
/** The image cache's limit until a test changes it. */
const DEFAULT_LIMIT = 500 * 1024 * 1024;

/** Settings, drawn anew. */
async function settings(): Promise<void> {
  await showView(page, app.host.origin, '#/settings');
  await page.getByRole('heading', { name: 'Account and settings', level: 2 }).waitFor();
}

/** No one signed in, whoever an earlier test signed in. */
async function signedOut(): Promise<void> {
  if (app.engine.account.session.state.status !== 'signed-out') await app.engine.account.session.signOut();
  await account().getByText('Not signed in.').waitFor();
}

/** Someone signed in (the maker, with a token given by hand as `login --with-token` does), unless someone is. */
async function signedIn(): Promise<void> {
  if (app.engine.account.session.state.status !== 'signed-in') await app.engine.account.session.signInWithToken(app.service.url, app.makerToken);
  await account().getByText('Signed in as').waitFor();
}

describe.skipIf(chromiumSkipReason !== undefined)('the window\'s account and settings in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async (service) => {
      // Someone who never authorized design-sync: the service asks Allow or Deny.
      createUser(service.db, { screenName: 'newcomer', password: 'secret', now: Date.now() });
      const alice = clientFor(service.url, service.addUser('alice').token);
      await alice.publishDesign((await alice.createDesign({ name: 'Gear', excerpt: 'A gear', license: 'cc0' })).id);
    }, { signedIn: false });
    page = app.page;
    // A desktop window's size, as people use it (and as the README's screenshots are taken: npm run screenshots).
    await page.setViewportSize({ width: 1400, height: 900 });
  }, 90_000);

  afterAll(() => app?.close());

  it('signs in a newcomer through the service\'s own pages: sign-in form, Allow, then the window says who is signed in', async () => {
    await settings();
    await signedOut();
    await account().getByRole('button', { name: 'Sign in' }).click();
    const link = account().getByRole('link', { name: 'the service\'s sign-in page' });
    await link.waitFor();
    const address = (await link.getAttribute('href'))!;
    expect(address).toMatch(new RegExp(`^${app.service.url}/integrations/design-sync/authorized_integrations/new\\?redirect_url=http%3A%2F%2F127\\.0\\.0\\.1`));

    const browser = await page.context().newPage();
    await browser.goto(address);
    await browser.locator('#screen_name').fill('newcomer');
    await browser.locator('#password').fill('secret');
    await browser.getByRole('button', { name: 'Sign in' }).click();
    await browser.getByRole('button', { name: 'Allow' }).click();
    await browser.getByText('Signed in to design-sync as newcomer. You can close this tab.').waitFor();
    await browser.close();

    await account().getByText('Signed in as').waitFor();
    expect(await account().locator('strong').textContent()).toBe('newcomer');
    expect(await page.locator('.topbar .account strong').textContent()).toBe('newcomer');
  });

  it('shows the cache: how many designs, how much space of what limit, how old; and changes the limit', async () => {
    // The limit as it was before, after this test, whatever its outcome: the others read it.
    onTestFinished(() => app.engine.appSettings.setCacheLimit(DEFAULT_LIMIT));
    await settings();
    const cache = page.getByRole('form', { name: 'Offline cache' });
    expect(await cache.textContent()).toMatch(/1 design cached; their images take [\d.]+ MB of 500 MB\./);
    expect(await cache.textContent()).toContain('The catalogue was last checked just now; it is refreshed every 60 minutes');
    await cache.getByLabel('Image cache limit (MB)').fill('120');
    await cache.getByRole('button', { name: 'Save the limit' }).click();
    await page.getByText('The cache limit saved.').waitFor();
    expect(await cache.textContent()).toContain('of 120 MB');
    expect(app.engine.cache.files.maxBytes).toBe(120 * 1024 * 1024);
  });

  it('leaves room between a field\'s help line and the next field\'s label, and the form\'s buttons', async () => {
    await settings();
    const service = page.getByRole('form', { name: 'Service' });
    const help = (await service.getByText('Checked before it is saved').boundingBox())!;
    const nextLabel = (await service.locator('label[for="web-url"]').boundingBox())!;
    expect(nextLabel.y - (help.y + help.height)).toBeGreaterThanOrEqual(12);
    const lastHelp = (await service.locator('#web-url-help').boundingBox())!;
    const save = (await service.getByRole('button', { name: 'Save the addresses' }).boundingBox())!;
    expect(save.y - (lastHelp.y + lastHelp.height)).toBeGreaterThanOrEqual(10);
  });

  it('refuses another service while signed in, saying what to do; a limit out of range names the field by its label', async () => {
    await settings();
    await signedIn();
    const limitBefore = app.engine.cache.files.maxBytes;
    const service = page.getByRole('form', { name: 'Service' });
    await service.getByLabel('Service address').fill('http://127.0.0.1:9');
    await service.getByRole('button', { name: 'Save the address' }).click();
    await page.getByRole('alert').getByText(/sign out before choosing another service/).waitFor();
    expect(app.engine.connection.serviceUrl()).toBe(app.service.url);

    const cache = page.getByRole('form', { name: 'Offline cache' });
    await cache.getByLabel('Image cache limit (MB)').fill('3');
    await cache.getByRole('button', { name: 'Save the limit' }).click();
    // The field as the window labels it, in plain words: never the request's field name or the schema's wording.
    await page.getByRole('alert').getByText('Image cache limit must be at least 50.').waitFor();
    expect(await page.locator('.settings').textContent()).not.toMatch(/cacheLimitMb|Too small|settings\.update/);
    expect(app.engine.cache.files.maxBytes).toBe(limitBefore);
  });

  it('signs out', async () => {
    await settings();
    await signedIn();
    await account().getByRole('button', { name: 'Sign out' }).click();
    await account().getByText('Not signed in.').waitFor();
    expect(app.engine.account.session.state.status).toBe('signed-out');
  });
});
