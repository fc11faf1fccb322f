import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { isServiceError } from '../../electron/engine/api/service-error';
import { chromiumSkipReason } from '../support/chromium';
import { clientFor } from '../engine/sync/sync-fixtures';
import { openWindow, type WindowFixture } from './window-fixture';

const SCREENSHOTS = join(import.meta.dirname, '../../docs/screenshots');
const FIXTURES = join(import.meta.dirname, '../fixtures');

let app: WindowFixture;
let page: Page;
const row = (name: string) => page.getByTestId('own-design').filter({ has: page.getByRole('link', { name, exact: true }) });

describe.skipIf(chromiumSkipReason !== undefined)('the window\'s My designs in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async (service, makerToken) => {
      const maker = clientFor(service.url, makerToken);
      const hinge = await maker.createDesign({ name: 'Hinge', excerpt: 'A draft hinge', license: 'cc0', description: '<p>Print at 0.2 mm.</p>' });
      await maker.uploadImage(hinge.id, { path: join(FIXTURES, 'images', 'jpg-sample.jpg'), fileName: 'front.jpg' });
      await maker.uploadImage(hinge.id, { path: join(FIXTURES, 'images', 'png-sample.png'), fileName: 'side.png' });
    });
    page = app.page;
    await page.getByRole('link', { name: 'My designs' }).click();
    await page.getByRole('heading', { name: 'My designs', level: 2 }).waitFor();
  }, 90_000);

  afterAll(() => app?.close());

  it('lists my designs, drafts included, with their state', async () => {
    await row('Hinge').waitFor();
    expect(await row('Hinge').locator('.badge').allTextContents()).toEqual(['Draft', 'Not in a sync folder']);
  });

  it('refuses a name that is too long with the service\'s own message, then creates the design as a draft', async () => {
    await page.getByRole('button', { name: 'New design' }).click();
    const form = page.getByRole('form', { name: /New design/ });
    await form.getByLabel('Name').fill('x'.repeat(256));
    await form.getByLabel('Summary').fill('Holds a shelf');
    await form.getByLabel('License').selectOption('ccbysa');
    expect(await form.locator('#' + (await form.getByLabel('License').getAttribute('aria-describedby'))).textContent())
      .toContain('Commercial use allowed, attribution, share-alike. Anyone showing it must credit you.');
    await form.getByRole('button', { name: 'Create draft' }).click();
    await form.getByText('Name is too long (maximum is 255 characters)').waitFor();
    expect(await form.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');

    await form.getByLabel('Name').fill('Bracket');
    await form.getByRole('button', { name: 'Create draft' }).click();
    await row('Bracket').waitFor();
    expect(await row('Bracket').locator('.badge').first().textContent()).toBe('Draft');
    await page.screenshot({ path: join(SCREENSHOTS, 'my-designs-light.png') });
  });

  it('edits a design without losing its description, and publishes only when asked and confirmed', async () => {
    await row('Hinge').getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: /Edit “Hinge”/ });
    expect(await form.getByLabel('Description').inputValue()).toBe('<p>Print at 0.2 mm.</p>');
    await form.getByLabel('Name').fill('Hinge v2');
    const cover = form.getByRole('group', { name: 'Cover image' });
    expect(await cover.getByRole('radio').count()).toBe(2);
    await cover.getByRole('radio', { name: 'side.png' }).check();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await row('Hinge v2').waitFor();
    const api = clientFor(app.service.url, app.makerToken);
    const [hinge] = (await api.listUserDesigns('maker', { limit: 100 })).items.filter((design) => design.name === 'Hinge v2');
    expect((await api.getDesign(hinge!.id)).description).toBe('<p>Print at 0.2 mm.</p>');
    const side = (await api.listImages(hinge!.id)).find((image) => image.name === 'side.png')!;
    expect((await api.getDesign(hinge!.id)).primary_image_id).toBe(side.id);
    expect((await api.getDesign(hinge!.id)).state).not.toBe('published');

    await row('Hinge v2').getByRole('button', { name: 'Publish…' }).click();
    await row('Hinge v2').getByRole('button', { name: 'Not now' }).click();
    expect((await api.getDesign(hinge!.id)).state).not.toBe('published');
    await row('Hinge v2').getByRole('button', { name: 'Publish…' }).click();
    await row('Hinge v2').getByRole('button', { name: 'Publish', exact: true }).click();
    await row('Hinge v2').getByText('Published', { exact: true }).waitFor();
    expect((await api.getDesign(hinge!.id)).state).toBe('published');
  });

  it('deletes a design only once the deletion is confirmed', async () => {
    const api = clientFor(app.service.url, app.makerToken);
    const bracket = (await api.listUserDesigns('maker', { limit: 100 })).items.find((design) => design.name === 'Bracket')!;
    await row('Bracket').getByRole('button', { name: 'Delete…' }).click();
    await row('Bracket').getByRole('button', { name: 'Keep it' }).click();
    expect((await api.getDesign(bracket.id)).name).toBe('Bracket');
    await row('Bracket').getByRole('button', { name: 'Delete…' }).click();
    await row('Bracket').getByRole('button', { name: 'Delete', exact: true }).click();
    await row('Bracket').waitFor({ state: 'detached' });
    await expect(api.getDesign(bracket.id)).rejects.toSatisfy((error: unknown) => isServiceError(error, 'not-found'));
  });
});
