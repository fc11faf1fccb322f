import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { openWindow, type WindowFixture } from '../../harness/window';
import { until } from '../../harness/until';
import { seriousViolations } from './axe-check';
import { showView } from './views';


let app: WindowFixture;
let page: Page;
let root: string;
let rootParent: string;
/** The maker's published designs by name: each test works on its own. */
const ids = new Map<string, number>();
const api = () => clientFor(app.service.url, app.makerToken);
const documentsOf = async (name: string) => (await api().listDocuments(ids.get(name)!)).map((document) => document.name);

/** axe-core's serious and critical findings, in both themes, at a desktop window's size and a small one's. */
async function expectNoSeriousViolationsAtBothSizes() {
  for (const size of [{ width: 1024, height: 700 }, { width: 1400, height: 900 }]) {
    await page.setViewportSize(size);
    expect(await seriousViolations(page)).toEqual([]);
  }
}

/**
 * A window on the maker's published designs `designs` (each with the files named, on the service), at a desktop
 * window's size (as people use it, and as the README's screenshots are taken: npm run screenshots), with a sync folder
 * of its own to choose. Each group of tests below has one: what one chooses or starts is another's "not yet".
 */
async function openOnDesigns(designs: Record<string, readonly string[]>): Promise<void> {
  app = await openWindow(async (service, makerToken) => {
    const maker = clientFor(service.url, makerToken);
    for (const [name, files] of Object.entries(designs)) {
      const design = await maker.createDesign({ name, excerpt: `A ${name.toLowerCase()}`, license: 'cc0' });
      for (const file of files) {
        const source = join(rootParent, file);
        writeFileSync(source, `solid ${file}\nendsolid ${file}\n`);
        await maker.uploadDocument(design.id, { path: source }, { name: file });
      }
      await maker.publishDesign(design.id);
      ids.set(name, design.id);
    }
  });
  page = app.page;
  await page.setViewportSize({ width: 1400, height: 900 });
}

/** Sync, drawn anew. */
async function onSync(): Promise<void> {
  await showView(page, app.host.origin, '#/sync');
  await page.getByRole('heading', { name: 'Sync', level: 2 }).waitFor();
}

describe.skipIf(chromiumSkipReason !== undefined)('the window\'s sync view in Chromium', () => {
  beforeAll(() => {
    rootParent = tempDir('window-sync-root');
    root = join(rootParent, 'Designs');
  });

  afterAll(() => rmSync(rootParent, { recursive: true, force: true }));

  describe('with no sync folder chosen yet', () => {
    beforeAll(() => openOnDesigns({ Hinge: [] }), 90_000);
    afterAll(() => app?.close());

    it('asks for a sync folder, then for the content policy before anything is uploaded (rule 5)', async () => {
      await onSync();
      await page.getByRole('region', { name: 'Sync folder' }).getByText('Choose a sync folder to sync your designs with.').waitFor();
      const chosen = join(rootParent, 'Chosen');
      await page.getByLabel('Sync folder (full path; made if missing)').fill(chosen);
      await page.getByRole('button', { name: 'Choose' }).click();
      await page.getByText(`Sync folder: ${chosen}`).waitFor();
      const policy = page.getByRole('region', { name: 'Content policy' });
      await policy.getByText('you have the right to publish').waitFor();
      await policy.getByRole('button', { name: 'I confirm' }).click();
      await policy.waitFor({ state: 'detached' });
      expect(app.engine.sync.contentPolicyAccepted()).toBe(true);
    });
  });

  describe('with a sync folder chosen and the content policy accepted', () => {
    /** The designs' files, as the folder has them. */
    const fileOf = (design: string, name: string) => join(root, design.toLowerCase(), name);

    /**
     * `name` of `design` changed on both sides while sync was stopped: the service's version replaced, the folder's
     * edited here; then sync starts again and finds the conflict.
     */
    async function changedOnBothSides(design: string, name: string): Promise<void> {
      await page.getByRole('button', { name: 'Stop syncing' }).click();
      await page.getByRole('button', { name: 'Start syncing' }).waitFor();
      const theirs = join(rootParent, `theirs-${name}`);
      writeFileSync(theirs, `solid theirs, edited on the service\nendsolid ${name}\n`);
      const document = (await api().listDocuments(ids.get(design)!)).find((each) => each.name === name)!;
      await api().updateDocument(ids.get(design)!, document.id, {}, { path: theirs, fileName: name });
      writeFileSync(fileOf(design, name), `solid mine, edited here\nendsolid ${name}\n`);
      await page.getByRole('button', { name: 'Start syncing' }).click();
    }

    /** Sync runs again after a test that stopped it, whatever its outcome: the other tests need it running. */
    const syncingAgainAfterThisTest = () => onTestFinished(() => app.engine.startBackground());

    beforeAll(async () => {
      // Clamp for a refused file; Latch, with a file to delete; Gearbox, Cog and Lever, each for a conflict. (Hinge is
      // made by the test that starts syncing.)
      await openOnDesigns({ Clamp: [], Latch: ['plate.stl'], Gearbox: [], Cog: ['cog.stl'], Lever: ['lever.stl'] });
      await app.engine.sync.chooseFolder(root);
      app.engine.sync.acceptContentPolicy();
      await app.engine.startBackground();
      await until('the designs\' folders and files', () => ['clamp', 'gearbox'].every((folder) => existsSync(join(root, folder)))
        && [fileOf('Latch', 'plate.stl'), fileOf('Cog', 'cog.stl'), fileOf('Lever', 'lever.stl')].every((file) => existsSync(file)), 30_000);
    }, 90_000);
    afterAll(() => app?.close());

    it('starts syncing: the design gets its folder, and a file dropped in it is uploaded, its activity shown', async () => {
      syncingAgainAfterThisTest();
      await onSync();
      await page.getByRole('button', { name: 'Stop syncing' }).click();
      await page.getByRole('button', { name: 'Start syncing' }).waitFor();
      // A design of the maker's made on the service while sync is stopped: it has no folder yet.
      const hinge = await api().createDesign({ name: 'Hinge', excerpt: 'A hinge', license: 'cc0' });
      await api().publishDesign(hinge.id);
      ids.set('Hinge', hinge.id);
      expect(existsSync(join(root, 'hinge'))).toBe(false);
      await page.getByRole('button', { name: 'Start syncing' }).click();
      await until('the design folder', () => existsSync(join(root, 'hinge')));
      writeFileSync(fileOf('Hinge', 'part.stl'), 'solid part\nendsolid part\n');
      await until('the upload', async () => (await documentsOf('Hinge')).includes('part.stl'));
      await page.locator('.activity-list').getByText(/part\.stl/).first().waitFor();
      await page.getByText('Nothing to send.').waitFor();
      expect(app.cspViolations).toEqual([]);
    });

    it('shows a refused file with its reason', async () => {
      await onSync();
      writeFileSync(fileOf('Clamp', 'tool.exe'), Buffer.from('MZ\x90\x00 not for upload'));
      const refused = page.getByTestId('waiting-item').filter({ hasText: 'tool.exe' });
      await refused.waitFor({ timeout: 20_000 });
      expect(await refused.textContent()).toMatch(/exe/i);
      await refused.getByRole('button', { name: 'Dismiss' }).click();
      await refused.waitFor({ state: 'detached' });
    });

    it('waits for confirmation before deleting on the service (no accessibility problem at both sizes), and deletes once confirmed', async () => {
      await onSync();
      rmSync(fileOf('Latch', 'plate.stl'));
      const deletion = page.getByTestId('waiting-item').filter({ hasText: 'plate.stl' });
      await deletion.waitFor({ timeout: 20_000 });
      expect(await documentsOf('Latch')).toEqual(['plate.stl']);
      await expectNoSeriousViolationsAtBothSizes();
      await deletion.getByRole('button', { name: 'Delete on the service' }).click();
      await until('the deletion on the service', async () => (await documentsOf('Latch')).length === 0);
      expect(app.cspViolations).toEqual([]);
    });

    it('lists a file changed on both sides with both versions and when each changed', async () => {
      syncingAgainAfterThisTest();
      await onSync();
      writeFileSync(fileOf('Gearbox', 'gear.stl'), 'solid base\nendsolid base\n');
      await until('the first upload', async () => (await documentsOf('Gearbox')).includes('gear.stl'));
      await page.getByText('Nothing to send.').waitFor();
      await changedOnBothSides('Gearbox', 'gear.stl');

      const conflict = page.getByRole('group', { name: 'Conflict on gear.stl' });
      await conflict.waitFor({ timeout: 30_000 });
      const text = (await conflict.textContent()) ?? '';
      expect(text).toMatch(/The service's version\s*gear\.stl, changed /);
      expect(text).toMatch(/Your version, kept as\s*gear \(conflicted copy \d{4}-\d{2}-\d{2} \d{4}\)\.stl, changed /);
      expect(text).not.toMatch(/an unknown time/);
    });

    it('asks before keeping only the service\'s version, with the focus on "Not now"; Escape closes the question and the focus goes back', async () => {
      syncingAgainAfterThisTest();
      await onSync();
      await changedOnBothSides('Cog', 'cog.stl');
      const conflict = page.getByRole('group', { name: 'Conflict on cog.stl' });
      await conflict.waitFor({ timeout: 30_000 });
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
      syncingAgainAfterThisTest();
      await onSync();
      await changedOnBothSides('Lever', 'lever.stl');
      const conflict = page.getByRole('group', { name: 'Conflict on lever.stl' });
      await conflict.waitFor({ timeout: 30_000 });
      await conflict.getByRole('button', { name: /Keep both/ }).click();
      await until('my copy on the service', async () => (await documentsOf('Lever')).some((name) => /conflicted copy/.test(name)));
      expect(app.cspViolations).toEqual([]);
    });
  });
});
