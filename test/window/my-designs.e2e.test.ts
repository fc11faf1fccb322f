import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { isServiceError } from '../../electron/engine/api/service-error';
import { chromiumSkipReason } from '../../harness/chromium';
import { until } from '../../harness/until';
import { clientFor } from '../../harness/sync-computers';
import { seriousViolations } from './axe-check';
import { actionsButton, ownAction } from './own-design-menu';
import { openWindow, type WindowFixture } from '../../harness/window';

const FIXTURES = join(import.meta.dirname, '../fixtures');

let app: WindowFixture;
let page: Page;
const row = (name: string) => page.getByTestId('own-design').filter({ has: page.getByRole('link', { name, exact: true }) });
const focused = (locator: Locator) => locator.evaluate((element) => element === element.ownerDocument.activeElement);
const untilFocused = (what: string, locator: Locator) => until(`the focus on ${what}`, () => focused(locator), 10_000);

describe.skipIf(chromiumSkipReason !== undefined)('the window\'s My designs in Chromium', () => {
  beforeAll(async () => {
    // Each test reads and changes designs of its own: none depends on what another did or left behind.
    app = await openWindow(async (service, makerToken) => {
      const maker = clientFor(service.url, makerToken);
      const withImages = async (name: string, excerpt: string) => {
        const design = await maker.createDesign({ name, excerpt, license: 'cc0', description: '<p>Print at 0.2 mm.</p>' });
        await maker.uploadImage(design.id, { path: join(FIXTURES, 'images', 'jpg-sample.jpg'), fileName: 'front.jpg' });
        await maker.uploadImage(design.id, { path: join(FIXTURES, 'images', 'png-sample.png'), fileName: 'side.png' });
      };
      // Only looked at: its card, its menu, its edit form opened and closed.
      await withImages('Hinge', 'A draft hinge');
      // Edited and published.
      await withImages('Latch', 'A draft latch');
      // Synced into a folder (a draft), beside a published design in step.
      await maker.createDesign({ name: 'Shelf', excerpt: 'Holds books', license: 'cc0' });
      const peg = await maker.createDesign({ name: 'Peg', excerpt: 'Hangs a bag', license: 'cc0' });
      await maker.publishDesign(peg.id);
      // Deleted.
      await maker.createDesign({ name: 'Spare', excerpt: 'Not needed', license: 'cc0' });
    });
    page = app.page;
    await page.getByRole('link', { name: 'My designs' }).click();
    await page.getByRole('heading', { name: 'My designs', level: 2 }).waitFor();
  }, 90_000);

  afterAll(() => app?.close());

  it('lists my designs, drafts included, each with its cover, state, files and folder', async () => {
    await row('Hinge').waitFor();
    expect(await row('Hinge').locator('.badge').allTextContents()).toEqual(['Draft', 'No folder yet']);
    expect(await row('Hinge').getByTestId('own-files').textContent()).toBe('2 images · 0 documents');
    // No folder: nothing synced to say when.
    expect(await row('Hinge').getByTestId('own-last-sync').count()).toBe(0);

    const cover = row('Hinge').locator('img.own-cover');
    await until('the cover loaded', () => cover.evaluate((element) => {
      const image = element as unknown as { complete: boolean; naturalWidth: number };
      return image.complete && image.naturalWidth > 0;
    }), 20_000);
    const card = (await row('Hinge').boundingBox())!;
    const badge = (await row('Hinge').getByTestId('own-state').boundingBox())!;
    expect(badge.width).toBeGreaterThan(0);
    expect(badge.x).toBeGreaterThanOrEqual(card.x);
    expect(badge.y).toBeGreaterThanOrEqual(card.y);
    expect(badge.x + badge.width).toBeLessThanOrEqual(card.x + card.width);
    expect(badge.y + badge.height).toBeLessThanOrEqual(card.y + card.height);
    expect(await row('Hinge').getByTestId('own-state').evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  });

  it('offers a card\'s actions in a menu that the keyboard opens, walks and closes, the focus back on its button', async () => {
    const button = actionsButton(row('Hinge'));
    expect(await button.getAttribute('aria-haspopup')).toBe('menu');
    await button.focus();
    await page.keyboard.press('Enter');
    const menu = row('Hinge').getByRole('menu');
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Open', 'Edit', 'Publish…', 'Delete…']);
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await untilFocused('Open', menu.getByRole('menuitem', { name: 'Open' }));
    await page.keyboard.press('ArrowDown');
    await untilFocused('Edit', menu.getByRole('menuitem', { name: 'Edit' }));
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await untilFocused('Delete… (↑ from the first wraps)', menu.getByRole('menuitem', { name: 'Delete…' }));
    await page.keyboard.press('Home');
    await untilFocused('Open (Home)', menu.getByRole('menuitem', { name: 'Open' }));
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await untilFocused('the menu button', button);
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    await page.keyboard.press('ArrowUp');
    await untilFocused('Delete… (↑ opens on the last)', menu.getByRole('menuitem', { name: 'Delete…' }));
    await page.keyboard.press('Enter');
    const confirmation = row('Hinge').getByRole('group', { name: 'Confirm deletion' });
    await untilFocused('Keep it', confirmation.getByRole('button', { name: 'Keep it' }));
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await confirmation.waitFor({ state: 'detached' });
    await untilFocused('the menu button after the confirmation', button);
  });

  it('moves the focus into the new-design form, and Escape closes it (asking first once something was typed)', async () => {
    const newDesign = page.getByRole('button', { name: 'New design' });
    await newDesign.focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: /New design/ });
    await untilFocused('the Name field', form.getByLabel('Name'));
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    await untilFocused('New design', newDesign);

    await page.keyboard.press('Enter');
    await untilFocused('the Name field', form.getByLabel('Name'));
    await page.keyboard.type('Clamp');
    await page.keyboard.press('Escape');
    const question = form.getByRole('group', { name: 'Discard what you typed' });
    await untilFocused('Keep editing', question.getByRole('button', { name: 'Keep editing' }));
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    await untilFocused('the Name field again', form.getByLabel('Name'));
    expect(await form.getByLabel('Name').inputValue()).toBe('Clamp');
    await page.keyboard.press('Escape');
    await question.getByRole('button', { name: 'Discard' }).click();
    await form.waitFor({ state: 'detached' });
    await untilFocused('New design', newDesign);
  });

  it('opens a card\'s edit form with the focus in it; Escape closes it, the focus back on the menu button', async () => {
    await (await ownAction(row('Hinge'), 'Edit')).click();
    const form = page.getByRole('form', { name: /Edit “Hinge”/ });
    await untilFocused('the Name field', form.getByLabel('Name'));
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    await untilFocused('the menu button', actionsButton(row('Hinge')));
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
  });

  it('edits a design without losing its description, and publishes only when asked and confirmed', async () => {
    await (await ownAction(row('Latch'), 'Edit')).click();
    const form = page.getByRole('form', { name: /Edit “Latch”/ });
    expect(await form.getByLabel('Description').inputValue()).toBe('<p>Print at 0.2 mm.</p>');
    await form.getByLabel('Name').fill('Latch v2');
    const cover = form.getByRole('group', { name: 'Cover image' });
    expect(await cover.getByRole('radio').count()).toBe(2);
    await cover.getByRole('radio', { name: 'side.png' }).check();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await row('Latch v2').waitFor();
    const api = clientFor(app.service.url, app.makerToken);
    const [latch] = (await api.listUserDesigns('maker', { limit: 100 })).items.filter((design) => design.name === 'Latch v2');
    expect((await api.getDesign(latch!.id)).description).toBe('<p>Print at 0.2 mm.</p>');
    const side = (await api.listImages(latch!.id)).find((image) => image.name === 'side.png')!;
    expect((await api.getDesign(latch!.id)).primary_image_id).toBe(side.id);
    expect((await api.getDesign(latch!.id)).state).not.toBe('published');

    await (await ownAction(row('Latch v2'), 'Publish…')).click();
    await row('Latch v2').getByRole('button', { name: 'Not now' }).click();
    await untilFocused('the menu button', actionsButton(row('Latch v2')));
    expect((await api.getDesign(latch!.id)).state).not.toBe('published');
    // Escape closes the question as "Not now" does: nothing published, the focus back on the menu button.
    await (await ownAction(row('Latch v2'), 'Publish…')).click();
    await row('Latch v2').getByRole('button', { name: 'Not now' }).waitFor();
    await page.keyboard.press('Escape');
    await row('Latch v2').getByRole('button', { name: 'Not now' }).waitFor({ state: 'detached' });
    await untilFocused('the menu button', actionsButton(row('Latch v2')));
    expect((await api.getDesign(latch!.id)).state).not.toBe('published');
    await (await ownAction(row('Latch v2'), 'Publish…')).click();
    await row('Latch v2').getByRole('button', { name: 'Publish', exact: true }).click();
    await row('Latch v2').getByText('Published', { exact: true }).waitFor();
    expect((await api.getDesign(latch!.id)).state).toBe('published');
  });

  it('says each folder\'s state as it syncs: in step, uploading, then when it last synced', async () => {
    const root = mkdtempSync(join(tmpdir(), 'my-designs-root-'));
    try {
      const { engine } = app;
      await engine.sync.chooseFolder(root);
      engine.sync.acceptContentPolicy();
      const { sync, runner } = engine.sync.syncParts();
      await sync.syncOnce({ settle: 'wait' });
      const folderState = (name: string) => row(name).getByTestId('own-folder-state');
      await until('Shelf in step', async () => (await folderState('Shelf').textContent()) === 'In step', 10_000);
      // The pass's scan found its folder in step.
      await until('its last sync said', async () => (await row('Shelf').getByTestId('own-last-sync').textContent()) === 'Synced just now', 10_000);

      const shelfId = (await clientFor(app.service.url, app.makerToken).listUserDesigns('maker', { limit: 100 })).items.find((design) => design.name === 'Shelf')!.id;
      const shelf = engine.sync.syncParts().sync.folders.ofDesign(shelfId)!.folder;
      copyFileSync(join(FIXTURES, 'images', 'png-sample.png'), join(root, shelf, 'front.png'));
      await sync.scan({ settle: 'wait' });
      await until('Shelf uploading', async () => (await folderState('Shelf').textContent()) === 'Uploading 1');

      // Its upload needs the person: the card says so, and its menu leads to where that is done.
      const upload = engine.queue.list({ states: ['waiting'] }).find((item) => item.folder === shelf)!;
      engine.queue.needsAttention(upload.id, 'conflict', 'Changed here and on the service.');
      await until('Shelf in conflict', async () => (await folderState('Shelf').textContent()) === 'Conflict');
      await actionsButton(row('Peg')).click();
      // Published, in step: nothing to publish, nothing to look at in Sync.
      expect(await row('Peg').getByRole('menuitem').allTextContents()).toEqual(['Open', 'Edit', 'Delete…']);
      await page.keyboard.press('Escape');
      await (await ownAction(row('Shelf'), 'Show in Sync')).click();
      await page.getByRole('heading', { name: 'Recent activity' }).waitFor();
      await page.getByRole('link', { name: 'My designs' }).click();
      engine.queue.confirm(upload.id);
      await until('Shelf uploading again', async () => (await folderState('Shelf').textContent()) === 'Uploading 1');
      runner.start();
      await runner.waitForIdle({ timeoutMs: 20_000 });
      await until('Shelf in step again', async () => (await folderState('Shelf').textContent()) === 'In step');
      await until('its last sync said', async () => (await row('Shelf').getByTestId('own-last-sync').textContent()) === 'Synced just now');
      await until('its image counted', async () => (await row('Shelf').getByTestId('own-files').textContent()) === '1 image · 0 documents');
      // No cover was chosen for it: its one image is shown, not an empty frame.
      await until('its image as its cover', () => row('Shelf').locator('img.own-cover').evaluate((element) => {
        const image = element as unknown as { complete: boolean; naturalWidth: number };
        return image.complete && image.naturalWidth > 0;
      }).catch(() => false), 20_000);
    } finally {
      await app.engine.sync.syncParts().runner.stop();
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);

  it('deletes a design only once the deletion is confirmed', async () => {
    const api = clientFor(app.service.url, app.makerToken);
    const spare = (await api.listUserDesigns('maker', { limit: 100 })).items.find((design) => design.name === 'Spare')!;
    await (await ownAction(row('Spare'), 'Delete…')).click();
    await row('Spare').getByRole('button', { name: 'Keep it' }).click();
    expect((await api.getDesign(spare.id)).name).toBe('Spare');
    await (await ownAction(row('Spare'), 'Delete…')).click();
    await row('Spare').getByRole('button', { name: 'Delete', exact: true }).click();
    await row('Spare').waitFor({ state: 'detached' });
    await expect(api.getDesign(spare.id)).rejects.toSatisfy((error: unknown) => isServiceError(error, 'not-found'));
  });
});
