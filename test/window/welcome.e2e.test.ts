import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { closedPort } from '../support/free-port';
import { until } from '../../harness/until';
import { clientFor } from '../../harness/sync-computers';
import { seriousViolations } from './axe-check';
import { openWindow, type WindowFixture } from '../../harness/window';
import { loadWindow } from './views';


const headerSignIn = (page: Page) => page.locator('header .account').getByRole('button', { name: 'Sign in' });
const welcome = (page: Page) => page.getByRole('heading', { name: 'Welcome to design-sync', level: 2 });
const addressField = (page: Page) => page.getByLabel('Service address');

/** The window loaded afresh, on the welcome: nothing typed in it, no address checked. */
async function freshWelcome(app: WindowFixture): Promise<void> {
  await loadWindow(app.page, app.host.origin);
  await welcome(app.page).waitFor();
}

describe.skipIf(chromiumSkipReason !== undefined)('a first run, with no service chosen: the welcome', () => {
  let app: WindowFixture;
  let page: Page;
  beforeAll(async () => {
    app = await openWindow(async (service) => {
      const alice = clientFor(service.url, service.addUser('alice').token);
      await alice.publishDesign((await alice.createDesign({ name: 'Gear', excerpt: 'A spur gear', license: 'cc0' })).id);
    }, { signedIn: false, noService: true });
    page = app.page;
  }, 90_000);
  afterAll(() => app?.close());

  it('opens on the welcome instead of the library, and the greyed Sign in says why', async () => {
    await freshWelcome(app);
    await page.getByRole('heading', { name: 'Connect to your service' }).waitFor();
    await page.getByRole('button', { name: 'Try it with sample designs' }).waitFor();
    expect(await headerSignIn(page).isDisabled()).toBe(true);
    expect(await page.locator('header .account [data-testid="action-reason"]').textContent()).toMatch(/No service is chosen yet/);
    expect(await page.locator('[data-testid="design-card"]').count()).toBe(0);
  });

  it('shows nothing of the library while it starts: the window host draws no frame of a library with no designs', async () => {
    const served = await (await page.request.get(`${app.host.origin}/`)).text();
    expect(served).toContain('<div id="root"></div>');
  });

  for (const size of [{ width: 1400, height: 900 }, { width: 1024, height: 700 }] as const) {
    it(`has no serious accessibility problem at ${size.width}×${size.height} (axe-core, both themes)`, async () => {
      await page.setViewportSize(size);
      await freshWelcome(app);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  it('says it is checking while it waits on the address, one way at a time, then why it cannot be used', async () => {
    // A server that takes the connection and never answers: the check waits until its own time limit.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const address = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    try {
      await freshWelcome(app);
      await addressField(page).fill(address);
      await page.getByRole('button', { name: 'Connect' }).click();
      const checking = page.getByRole('button', { name: 'Checking…' });
      await checking.waitFor();
      expect(await checking.isDisabled()).toBe(true);
      const sample = page.getByRole('button', { name: 'Try it with sample designs' });
      expect(await sample.isDisabled()).toBe(true);
      expect(await page.getByText('Wait until the address is checked.').isVisible()).toBe(true);
      await page.locator('.welcome [role="alert"]').waitFor({ timeout: 30_000 });
      expect(await page.locator('.welcome [role="alert"]').textContent()).toContain(address);
      expect(await sample.isEnabled()).toBe(true);
      expect(app.engine.connection.serviceUrl()).toBeNull();
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => silent.close(done));
    }
  });

  it('shows why a wrong address cannot be used beside the field, saves nothing, and stays', async () => {
    const wrong = `http://127.0.0.1:${await closedPort()}`;
    await freshWelcome(app);
    await addressField(page).fill(wrong);
    await page.getByRole('button', { name: 'Connect' }).click();
    const alert = page.locator('.welcome [role="alert"]');
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toContain(wrong);
    expect(await addressField(page).getAttribute('aria-invalid')).toBe('true');
    expect(app.engine.connection.serviceUrl()).toBeNull();
    expect(await welcome(page).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Connect' }).isEnabled()).toBe(true);
  });
});

describe.skipIf(chromiumSkipReason !== undefined)('a first run, with no service chosen: the welcome, then a service that answers', () => {
  let app: WindowFixture;
  let page: Page;
  beforeAll(async () => {
    app = await openWindow(async (service) => {
      const alice = clientFor(service.url, service.addUser('alice').token);
      await alice.publishDesign((await alice.createDesign({ name: 'Gear', excerpt: 'A spur gear', license: 'cc0' })).id);
    }, { signedIn: false, noService: true });
    page = app.page;
  }, 90_000);
  afterAll(() => app?.close());

  it('goes on to the library with a service that answers: its designs pulled, Sign in offered', async () => {
    await freshWelcome(app);
    await addressField(page).fill(app.service.url);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.locator('[data-testid="design-card"]', { hasText: 'Gear' }).waitFor({ timeout: 30_000 });
    expect(app.engine.connection.serviceUrl()).toBe(app.service.url);
    expect(await welcome(page).count()).toBe(0);
    expect(await headerSignIn(page).isEnabled()).toBe(true);
    expect(await page.locator('header .account [data-testid="action-reason"]').count()).toBe(0);
  });
});

describe.skipIf(chromiumSkipReason !== undefined)('a first run: "Try it with sample designs"', () => {
  let app: WindowFixture;
  let page: Page;
  beforeAll(async () => {
    app = await openWindow(async () => {}, { signedIn: false, noService: true });
    page = app.page;
  }, 90_000);
  afterAll(() => app?.close());

  it('starts the sample service for the profile, fills the library with its designs, and says how to sign in on it', async () => {
    await welcome(page).waitFor();
    await page.getByRole('button', { name: 'Try it with sample designs' }).click();
    await page.getByText('Starting the sample service…').waitFor();
    // The first start makes the sample designs (their images and models): some seconds, more on a busy machine.
    await page.locator('[data-testid="design-card"]').first().waitFor({ timeout: 150_000 });
    expect(app.engine.sampleService.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(app.engine.connection.serviceUrl()).toBe(app.engine.sampleService.address);
    await page.getByText(/sign in as demo, password demo/).waitFor();
    expect(await headerSignIn(page).isEnabled()).toBe(true);
    await until('the library counts the sample designs', async () => Number(/(\d+)/.exec(await page.locator('.count').textContent() ?? '')?.[1] ?? 0) > 50, 60_000);
  }, 200_000);
});

describe.skipIf(chromiumSkipReason !== undefined)('a profile on the sample service whose port another program took', () => {
  let app: WindowFixture;
  // Holds the port and ends every connection at once: nothing the engine asks there can keep the closing waiting.
  const taken = createServer((socket) => socket.destroy());
  beforeAll(async () => {
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    app = await openWindow(async () => {}, { signedIn: false, noService: true });
    app.engine.appSettings.store.update({ serviceUrl: `http://127.0.0.1:${(taken.address() as { port: number }).port}`, sampleService: true });
    await app.engine.startBackground();
  }, 90_000);
  afterAll(async () => {
    await app?.close();
    await new Promise((done) => taken.close(done));
  });

  it('says so in the window, rather than quietly using another address', async () => {
    const port = (taken.address() as { port: number }).port;
    await app.page.reload();
    const banner = app.page.getByRole('alert').filter({ hasText: 'sample service' });
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(new RegExp(`^Port ${port} on 127\\.0\\.0\\.1, where this profile's sample service runs, is taken by another program\\.`));
    expect(app.engine.connection.serviceUrl()).toBe(`http://127.0.0.1:${port}`);
  });
});
