import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../support/chromium';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../engine/sync/sync-fixtures';
import { openWindow, type WindowFixture } from './window-fixture';
import { until } from '../support/until';
import { seriousViolations } from './axe-check';


let app: WindowFixture;
let page: Page;
let hingeId: number;
let root: string;
const rootParent = tempDir('window-sync-root');

/** axe-core's serious and critical findings, in both themes, at a desktop window's size and a small one's. */
async function expectNoSeriousViolationsAtBothSizes() {
  for (const size of [{ width: 1024, height: 700 }, { width: 1400, height: 900 }]) {
    await page.setViewportSize(size);
    expect(await seriousViolations(page)).toEqual([]);
  }
}

describe.skipIf(chromiumSkipReason !== undefined)('the window\'s sync view in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async (service, makerToken) => {
      const maker = clientFor(service.url, makerToken);
      const hinge = await maker.createDesign({ name: 'Hinge', excerpt: 'A hinge', license: 'cc0' });
      await maker.publishDesign(hinge.id);
      hingeId = hinge.id;
    });
    page = app.page;
    root = join(rootParent, 'Designs');
    // A desktop window's size, as people use it (and as the README's screenshots are taken: npm run screenshots).
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.getByRole('link', { name: 'Sync', exact: true }).click();
    await page.getByRole('heading', { name: 'Sync', level: 2 }).waitFor();
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    rmSync(rootParent, { recursive: true, force: true });
  });

  it('asks for a sync folder, then for the content policy before anything is uploaded (rule 5)', async () => {
    await page.getByRole('region', { name: 'Sync folder' }).getByText('Choose a sync folder to sync your designs with.').waitFor();
    await page.getByLabel('Sync folder (full path; made if missing)').fill(root);
    await page.getByRole('button', { name: 'Choose' }).click();
    await page.getByText(`Sync folder: ${root}`).waitFor();
    const policy = page.getByRole('region', { name: 'Content policy' });
    await policy.getByText('you have the right to publish').waitFor();
    await policy.getByRole('button', { name: 'I confirm' }).click();
    await policy.waitFor({ state: 'detached' });
    expect(app.engine.contentPolicyAccepted()).toBe(true);
  });

  it('starts syncing: the design gets its folder, and a file dropped in it is uploaded, its activity shown', async () => {
    await page.getByRole('button', { name: 'Start syncing' }).click();
    await until('the design folder', () => existsSync(join(root, 'hinge')));
    writeFileSync(join(root, 'hinge', 'part.stl'), 'solid part\nendsolid part\n');
    const api = clientFor(app.service.url, app.makerToken);
    await until('the upload', async () => (await api.listDocuments(hingeId)).some((document) => document.name === 'part.stl'));
    await page.locator('.activity-list').getByText(/part\.stl/).first().waitFor();
    await page.getByText('Nothing to send.').waitFor();
  });

  it('shows a refused file with its reason', async () => {
    writeFileSync(join(root, 'hinge', 'tool.exe'), Buffer.from('MZ\x90\x00 not for upload'));
    const refused = page.getByTestId('waiting-item').filter({ hasText: 'tool.exe' });
    await refused.waitFor({ timeout: 20_000 });
    expect(await refused.textContent()).toMatch(/exe/i);
    await refused.getByRole('button', { name: 'Dismiss' }).click();
    await refused.waitFor({ state: 'detached' });
  });

  it('waits for confirmation before deleting on the service (no accessibility problem at both sizes), and deletes once confirmed', async () => {
    const api = clientFor(app.service.url, app.makerToken);
    rmSync(join(root, 'hinge', 'part.stl'));
    const deletion = page.getByTestId('waiting-item').filter({ hasText: 'part.stl' });
    await deletion.waitFor({ timeout: 20_000 });
    expect((await api.listDocuments(hingeId)).map((document) => document.name)).toEqual(['part.stl']);
    await expectNoSeriousViolationsAtBothSizes();
    await deletion.getByRole('button', { name: 'Delete on the service' }).click();
    await until('the deletion on the service', async () => (await api.listDocuments(hingeId)).length === 0);
    expect(app.cspViolations).toEqual([]);
  });

  it('lists a file changed on both sides with both versions and when each changed', async () => {
    const api = clientFor(app.service.url, app.makerToken);
    writeFileSync(join(root, 'hinge', 'gear.stl'), 'solid base\nendsolid base\n');
    await until('the first upload', async () => (await api.listDocuments(hingeId)).some((document) => document.name === 'gear.stl'));
    await page.getByText('Nothing to send.').waitFor();
    await page.getByRole('button', { name: 'Stop syncing' }).click();
    await page.getByRole('button', { name: 'Start syncing' }).waitFor();
    const theirs = join(rootParent, 'theirs.stl');
    writeFileSync(theirs, 'solid theirs, edited on the service\nendsolid theirs\n');
    const gear = (await api.listDocuments(hingeId)).find((document) => document.name === 'gear.stl')!;
    await api.updateDocument(hingeId, gear.id, {}, { path: theirs, fileName: 'gear.stl' });
    writeFileSync(join(root, 'hinge', 'gear.stl'), 'solid mine, edited here\nendsolid mine\n');
    await page.getByRole('button', { name: 'Start syncing' }).click();

    const conflict = page.getByRole('group', { name: 'Conflict on gear.stl' });
    await conflict.waitFor({ timeout: 30_000 });
    const text = (await conflict.textContent()) ?? '';
    expect(text).toMatch(/The service's version\s*gear\.stl, changed /);
    expect(text).toMatch(/Your version, kept as\s*gear \(conflicted copy \d{4}-\d{2}-\d{2} \d{4}\)\.stl, changed /);
    expect(text).not.toMatch(/an unknown time/);
  });

  it('asks before keeping only the service\'s version, with the focus on "Not now"; Escape closes the question and the focus goes back', async () => {
    const conflict = page.getByRole('group', { name: 'Conflict on gear.stl' });
    const keepService = conflict.getByRole('button', { name: 'Keep only the service\'s version…' });
    await keepService.focus();
    await page.keyboard.press('Enter');
    const question = conflict.getByRole('group', { name: 'Keep only the service\'s version?' });
    await question.waitFor();
    await expectNoSeriousViolationsAtBothSizes();
    await until('the focus on "Not now"', () => question.getByRole('button', { name: 'Not now' }).evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement));
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    await until('the focus back on the button that asked', () => keepService.evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement));
    expect(await conflict.getByRole('button', { name: /Keep both/ }).isVisible()).toBe(true);
  });

  it('keeps both versions when asked: my copy is uploaded as a new file', async () => {
    const api = clientFor(app.service.url, app.makerToken);
    const conflict = page.getByRole('group', { name: 'Conflict on gear.stl' });
    await conflict.getByRole('button', { name: /Keep both/ }).click();
    await until('my copy on the service', async () => (await api.listDocuments(hingeId)).some((document) => /conflicted copy/.test(document.name)));
    expect(app.cspViolations).toEqual([]);
  });
});
