import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { until } from '../../harness/until';
import { ownAction } from './own-design-menu';
import { openWindow, type WindowFixture } from '../../harness/window';
import { showView } from './views';
import { StoppableService } from './stoppable-service';

let app: WindowFixture;
let page: Page;
const rootParent = tempDir('window-controls-root');
const service = new StoppableService();
const row = (name: string) => page.getByTestId('own-design').filter({ has: page.getByRole('link', { name, exact: true }) });
const ROW_BUTTONS = ['Edit', 'Publish…', 'Delete…'] as const;

/** The words a control is described by (aria-describedby), as a screen reader would read them with it. */
async function descriptionOf(control: Locator): Promise<string> {
  const ids = (await control.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(ids.split(/\s+/).filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ').trim();
}

/** My designs, drawn anew, once the row of `name` shows. */
async function myDesigns(name: string): Promise<void> {
  await showView(page, app.host.origin, '#/');
  await page.getByRole('link', { name: 'My designs' }).click();
  await row(name).waitFor();
}

/** The maker signed in (again, with a token given by hand as `login --with-token` does, after a test signed out). */
async function signedIn(): Promise<void> {
  await service.answering();
  if (app.engine.account.session.state.status !== 'signed-in') await app.engine.account.session.signInWithToken(app.service.url, app.makerToken);
  await page.locator('.topbar .account').getByRole('button', { name: 'Sign out' }).waitFor();
}

describe.skipIf(chromiumSkipReason !== undefined)('the window\'s controls say why they are off, in Chromium', () => {
  // Each test works on a design of its own, and first puts the service and the sign-in as it needs them.
  beforeAll(async () => {
    const ids: number[] = [];
    app = await openWindow(async (service, makerToken) => {
      for (const name of ['Hinge', 'Latch', 'Hasp', 'Pivot', 'Knob']) {
        ids.push((await clientFor(service.url, makerToken).createDesign({ name, excerpt: `A draft ${name.toLowerCase()}`, license: 'cc0' })).id);
      }
    }, { serviceDataDir: service.dataDir });
    page = app.page;
    service.of(app);
    await app.engine.sync.chooseFolder(join(rootParent, 'Designs'));
    app.engine.sync.acceptContentPolicy();
    await app.engine.startBackground();
    // Each design has its folder (where files added to it go) before a test reads its row.
    await until('the designs\' folders', () => ids.every((id) => app.engine.sync.syncParts().sync.folders.ofDesign(id) !== null), 20_000);
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await service.close();
    rmSync(rootParent, { recursive: true, force: true });
  });

  it('signed in with the service answering, offers every action of a design and says nothing against them', async () => {
    await signedIn();
    await myDesigns('Hinge');
    // The window hears of the service and the sign-in as events: the controls follow them.
    await until('the actions offered', async () => await page.getByRole('button', { name: 'New design' }).isEnabled());
    for (const name of ROW_BUTTONS) expect(await (await ownAction(row('Hinge'), name)).isEnabled()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await page.getByRole('button', { name: 'New design' }).isEnabled()).toBe(true);
    expect(await row('Hinge').getByTestId('action-reason').count()).toBe(0);
    expect(app.cspViolations).toEqual([]);
  });

  it('says a refused Summary with the label the window shows: "Summary can\'t be blank", never the service\'s field name', async () => {
    await signedIn();
    await myDesigns('Latch');
    await (await ownAction(row('Latch'), 'Edit')).click();
    const form = page.getByRole('form', { name: /Edit “Latch”/ });
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
    expect(app.cspViolations).toEqual([]);
  });

  it('with the service stopped: publishing, deleting and creating are off because it cannot be reached; an edit is offered and waits', async () => {
    await signedIn();
    await myDesigns('Hasp');
    await service.stopped();
    // The window learns it from the engine (its own probe, or an edit that could not be sent).
    await (await ownAction(row('Hasp'), 'Edit')).click();
    const form = page.getByRole('form', { name: /Edit “Hasp”/ });
    await form.getByLabel('Name').fill('Hasp offline');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await row('Hasp offline').getByTestId('own-note').filter({ hasText: /when the service is back/ }).waitFor();

    const publish = await ownAction(row('Hasp offline'), 'Publish…');
    const remove = await ownAction(row('Hasp offline'), 'Delete…');
    await until('Publish… turned off', async () => await publish.isDisabled());
    expect(await remove.isDisabled()).toBe(true);
    for (const control of [publish, remove]) expect(await descriptionOf(control)).toMatch(/Publishing and deleting need the service, which cannot be reached now\./);
    const reason = row('Hasp offline').getByTestId('action-reason');
    expect(await reason.isVisible()).toBe(true);
    expect(await reason.textContent()).toContain('Edits are saved here and sent when the service is back.');

    const edit = await ownAction(row('Hasp offline'), 'Edit');
    expect(await edit.isEnabled()).toBe(true);
    await edit.click();
    const again = page.getByRole('form', { name: /Edit “Hasp offline”/ });
    expect(await descriptionOf(again.getByRole('button', { name: 'Save changes' }))).toBe('Saved here; sent when the service is back.');
    await again.getByRole('button', { name: 'Cancel' }).click();

    const create = page.getByRole('button', { name: 'New design' });
    expect(await create.isDisabled()).toBe(true);
    expect(await descriptionOf(create)).toBe('Creating a design needs the service, which cannot be reached now.');
    expect(app.cspViolations).toEqual([]);
  });

  it('with the service stopped: files can still be added and say they wait; Sync now is off; a new folder can be confirmed and waits', async () => {
    await signedIn();
    await myDesigns('Pivot');
    await service.stopped();
    const add = row('Pivot').getByRole('button', { name: 'Add files…' });
    const waits = 'Files added now go into the design\'s folder and are uploaded when the service is back.';
    // The window hears of it as an event: the control follows it.
    await until('Add files… saying the files wait', async () => (await descriptionOf(add)) === waits);
    expect(await add.isEnabled()).toBe(true);
    expect(await descriptionOf(add)).toBe(waits);

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
    await row('Pivot').waitFor();
    expect(app.cspViolations).toEqual([]);
  });

  it('signed out: no row offers Edit, Publish… or Delete…, and each says to sign in', async () => {
    await signedIn();
    await myDesigns('Knob');
    await page.locator('.topbar .account').getByRole('button', { name: 'Sign out' }).click();
    await page.locator('.topbar .account').getByRole('button', { name: 'Sign in' }).waitFor();
    const rows = page.getByTestId('own-design');
    await until('the rows turned off', async () => await (await ownAction(row('Knob'), 'Edit')).isDisabled());
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
    const add = row('Knob').getByRole('button', { name: 'Add files…' });
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
