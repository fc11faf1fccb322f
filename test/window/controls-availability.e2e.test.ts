import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chromiumSkipReason } from '../support/chromium';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../engine/sync/sync-fixtures';
import { until } from '../support/until';
import { ownAction } from './own-design-menu';
import { openWindow, type WindowFixture } from './window-fixture';

let app: WindowFixture;
let page: Page;
const rootParent = tempDir('window-controls-root');
const row = (name: string) => page.getByTestId('own-design').filter({ has: page.getByRole('link', { name, exact: true }) });
const ROW_BUTTONS = ['Edit', 'Publish…', 'Delete…'] as const;

/** The words a control is described by (aria-describedby), as a screen reader would read them with it. */
async function descriptionOf(control: Locator): Promise<string> {
  const ids = (await control.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(ids.split(/\s+/).filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ').trim();
}

async function myDesigns(): Promise<void> {
  await page.getByRole('link', { name: 'My designs' }).click();
  await row('Hinge').waitFor();
}

describe.skipIf(chromiumSkipReason !== undefined)('the window\'s controls say why they are off, in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async (service, makerToken) => {
      await clientFor(service.url, makerToken).createDesign({ name: 'Hinge', excerpt: 'A draft hinge', license: 'cc0' });
    });
    page = app.page;
    await app.engine.chooseSyncFolder(join(rootParent, 'Designs'));
    app.engine.acceptContentPolicy();
    await app.engine.startBackground();
    await myDesigns();
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    rmSync(rootParent, { recursive: true, force: true });
  });

  it('signed in with the service answering, offers every action of a design and says nothing against them', async () => {
    for (const name of ROW_BUTTONS) expect(await (await ownAction(row('Hinge'), name)).isEnabled()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await page.getByRole('button', { name: 'New design' }).isEnabled()).toBe(true);
    expect(await row('Hinge').getByTestId('action-reason').count()).toBe(0);
  });

  it('says a refused Summary with the label the window shows: "Summary can\'t be blank", never the service\'s field name', async () => {
    await (await ownAction(row('Hinge'), 'Edit')).click();
    const form = page.getByRole('form', { name: /Edit “Hinge”/ });
    await form.getByLabel('Summary').fill('');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByText("Summary can't be blank").waitFor();
    expect(await form.getByLabel('Summary').getAttribute('aria-invalid')).toBe('true');
    await form.getByRole('button', { name: 'Cancel' }).click();

    // A new folder proposed as a design, confirmed without a summary: the same words, beside the field.
    mkdirSync(join(rootParent, 'Designs', 'Shelf'));
    writeFileSync(join(rootParent, 'Designs', 'Shelf', 'shelf.stl'), 'solid shelf\nendsolid shelf\n');
    await page.getByRole('link', { name: 'Sync', exact: true }).click();
    const proposal = page.getByRole('form', { name: 'New design for the folder Shelf' });
    await proposal.waitFor({ timeout: 20_000 });
    await proposal.getByRole('button', { name: 'Create the design' }).click();
    await proposal.getByText("Summary can't be blank").waitFor();
    expect(await page.locator('.sync-view').textContent()).not.toMatch(/excerpt can't/i);
    expect(await proposal.getByLabel('Summary').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('waiting-item').filter({ hasText: 'Shelf' }).getByRole('button', { name: 'Not a design' }).click();
    await proposal.waitFor({ state: 'detached' });
    await myDesigns();
  });

  it('with the service stopped: publishing, deleting and creating are off because it cannot be reached; an edit is offered and waits', async () => {
    await app.service.stop();
    // The window learns it from the engine (an edit that could not be sent, or the engine's own probe).
    await (await ownAction(row('Hinge'), 'Edit')).click();
    const form = page.getByRole('form', { name: /Edit “Hinge”/ });
    await form.getByLabel('Name').fill('Hinge offline');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await row('Hinge offline').getByTestId('own-note').filter({ hasText: /when the service is back/ }).waitFor();

    const publish = await ownAction(row('Hinge offline'), 'Publish…');
    const remove = await ownAction(row('Hinge offline'), 'Delete…');
    await until('Publish… turned off', async () => await publish.isDisabled());
    expect(await remove.isDisabled()).toBe(true);
    for (const control of [publish, remove]) expect(await descriptionOf(control)).toMatch(/Publishing and deleting need the service, which cannot be reached now\./);
    const reason = row('Hinge offline').getByTestId('action-reason');
    expect(await reason.isVisible()).toBe(true);
    expect(await reason.textContent()).toContain('Edits are saved here and sent when the service is back.');

    const edit = await ownAction(row('Hinge offline'), 'Edit');
    expect(await edit.isEnabled()).toBe(true);
    await edit.click();
    const again = page.getByRole('form', { name: /Edit “Hinge offline”/ });
    expect(await descriptionOf(again.getByRole('button', { name: 'Save changes' }))).toBe('Saved here; sent when the service is back.');
    await again.getByRole('button', { name: 'Cancel' }).click();

    const create = page.getByRole('button', { name: 'New design' });
    expect(await create.isDisabled()).toBe(true);
    expect(await descriptionOf(create)).toBe('Creating a design needs the service, which cannot be reached now.');
  });

  it('with the service stopped: files can still be added and say they wait; Sync now is off; a new folder can be confirmed and waits', async () => {
    const add = row('Hinge offline').getByRole('button', { name: 'Add files…' });
    expect(await add.isEnabled()).toBe(true);
    expect(await descriptionOf(add)).toBe('Files added now go into the design\'s folder and are uploaded when the service is back.');

    mkdirSync(join(rootParent, 'Designs', 'Bracket'));
    writeFileSync(join(rootParent, 'Designs', 'Bracket', 'bracket.stl'), 'solid bracket\nendsolid bracket\n');
    await page.getByRole('link', { name: 'Sync', exact: true }).click();
    const syncNow = page.getByRole('region', { name: 'Sync folder' }).getByRole('button', { name: 'Sync now' });
    await until('Sync now turned off', async () => await syncNow.isDisabled());
    expect(await descriptionOf(syncNow)).toBe('Syncing now needs the service, which cannot be reached now.');

    // Confirming records the design in the queue, which creates it when the service is back: offered, saying so.
    const proposal = page.getByRole('form', { name: 'New design for the folder Bracket' });
    await proposal.waitFor({ timeout: 20_000 });
    const create = proposal.getByRole('button', { name: 'Create the design' });
    expect(await create.isEnabled()).toBe(true);
    expect(await descriptionOf(create)).toBe('Decisions are recorded now and carried out when the service is back.');
    await proposal.getByLabel('Summary').fill('A bracket');
    await create.click();
    await proposal.waitFor({ state: 'detached' });
    await page.getByTestId('queue-item').filter({ hasText: 'New design: Bracket' }).waitFor();
    expect(await page.locator('.sync-view [role="alert"]').count()).toBe(0);

    await page.getByRole('link', { name: 'My designs' }).click();
    await row('Hinge offline').waitFor();
  });

  it('signed out: no row offers Edit, Publish… or Delete…, and each says to sign in', async () => {
    await page.locator('.topbar .account').getByRole('button', { name: 'Sign out' }).click();
    await page.locator('.topbar .account').getByRole('button', { name: 'Sign in' }).waitFor();
    const rows = page.getByTestId('own-design');
    await until('the rows turned off', async () => await (await ownAction(row('Hinge offline'), 'Edit')).isDisabled());
    await page.keyboard.press('Escape');
    expect(await rows.count()).toBeGreaterThan(0);
    for (const own of await rows.all()) {
      for (const name of ROW_BUTTONS) {
        const button = await ownAction(own, name);
        if ((await button.count()) === 0) continue;
        expect(await button.isDisabled()).toBe(true);
        expect(await descriptionOf(button)).toMatch(/^Sign in to edit, publish or delete it\./);
      }
      expect(await own.getByTestId('action-reason').textContent()).toMatch(/Sign in to edit, publish or delete it\./);
      await page.keyboard.press('Escape');
    }
    expect(await descriptionOf(page.getByRole('button', { name: 'New design' }))).toBe('Sign in to create a design.');
    const add = row('Hinge offline').getByRole('button', { name: 'Add files…' });
    expect(await add.isDisabled()).toBe(true);
    expect(await descriptionOf(add)).toBe('Sign in to add files.');

    // What waits for the person in Sync can still be decided: the queue carries it out once someone signs in.
    mkdirSync(join(rootParent, 'Designs', 'Clamp'));
    writeFileSync(join(rootParent, 'Designs', 'Clamp', 'clamp.stl'), 'solid clamp\nendsolid clamp\n');
    await page.getByRole('link', { name: 'Sync', exact: true }).click();
    const proposal = page.getByRole('form', { name: 'New design for the folder Clamp' });
    await proposal.waitFor({ timeout: 20_000 });
    const notDesign = proposal.getByRole('button', { name: 'Not a design' });
    expect(await notDesign.isEnabled()).toBe(true);
    expect(await descriptionOf(notDesign)).toBe('Decisions are recorded now and carried out once you sign in.');
    await notDesign.click();
    await proposal.waitFor({ state: 'detached' });
    expect(app.cspViolations).toEqual([]);
  });
});
