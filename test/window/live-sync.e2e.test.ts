import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { until } from '../../harness/until';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { ownAction } from './own-design-menu';
import { openWindow, type WindowFixture } from '../../harness/window';
import { showView } from './views';

/**
 * While the window runs sync, what changes on the service reaches the sync folder within a poll of the service, and
 * what the person does in the window takes effect in the folder at once — each said in the activity list.
 */
const POLL_MS = 1_000;
/** What a poll, its pass and the pill's refresh may take beyond the poll interval on a slow machine. */
const MARGIN_MS = 8_000;
const IMAGE = join(import.meta.dirname, '../fixtures/images/png-sample.png');

let app: WindowFixture;
let page: Page;
let hingeId: number;
let doomedId: number;
let latchId: number;
const rootParent = tempDir('window-live-root');
const root = join(rootParent, 'Designs');

const upToDate = (page: Page) => page.getByRole('button', { name: /^Up to date/ });
const activity = (page: Page) => page.locator('.activity-list');

/** Sync, drawn anew. */
const onSync = () => showView(page, app.host.origin, '#/sync');

/**
 * Stops the engine's polls of the service for this test (what it checks is brought by something else), and starts
 * them again after it, whatever its outcome: the other tests count on them.
 */
function noPollsDuringThisTest(): void {
  app.engine.sync.syncParts().sync.watch.stop();
  onTestFinished(() => app.engine.sync.syncParts().sync.watch.start());
}

describe.skipIf(chromiumSkipReason !== undefined)('live sync in the window, in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async (service, makerToken) => {
      const maker = clientFor(service.url, makerToken);
      hingeId = (await maker.createDesign({ name: 'Hinge', excerpt: 'A hinge', license: 'cc0' })).id;
      doomedId = (await maker.createDesign({ name: 'Doomed', excerpt: 'Soon gone', license: 'cc0' })).id;
      latchId = (await maker.createDesign({ name: 'Latch', excerpt: 'A latch', license: 'cc0' })).id;
    }, { remotePollMs: POLL_MS });
    page = app.page;
    await app.engine.sync.chooseFolder(root);
    app.engine.sync.acceptContentPolicy();
    await app.engine.startBackground();
    await until('the designs\' folders', () => ['hinge', 'doomed', 'latch'].every((folder) => existsSync(join(root, folder))), 30_000);
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    rmSync(rootParent, { recursive: true, force: true });
  });

  it('an image and a document added on the service land in the design\'s folder within a poll; the pill never says up to date long without them', async () => {
    await onSync();
    await upToDate(page).waitFor({ timeout: 20_000 });
    const api = clientFor(app.service.url, app.makerToken);
    const source = join(rootParent, 'bolt.stl');
    writeFileSync(source, 'solid bolt\nendsolid bolt\n');
    const addedAt = Date.now();
    await api.uploadImage(hingeId, { path: IMAGE, fileName: 'photo.png' }, { name: 'photo.png' });
    await api.uploadDocument(hingeId, { path: source }, { name: 'bolt.stl' });
    const arrived = () => existsSync(join(root, 'hinge', 'photo.png')) && existsSync(join(root, 'hinge', 'bolt.stl'));

    // Polled with a deadline: while a file is missing, "Up to date" is allowed only within a poll and its margin.
    const deadline = addedAt + POLL_MS + MARGIN_MS;
    for (;;) {
      if (arrived()) break;
      const now = Date.now();
      if (now > deadline) {
        const saysUpToDate = (await upToDate(page).count()) > 0;
        throw new Error(`${now - addedAt} ms after the upload the files are not in the folder${saysUpToDate ? ', yet the pill says "Up to date"' : ''}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(readFileSync(join(root, 'hinge', 'bolt.stl'), 'utf8')).toBe('solid bolt\nendsolid bolt\n');
    await activity(page).getByText('hinge/photo.png was added on the service: downloaded.').waitFor({ timeout: 10_000 });
    await activity(page).getByText('hinge/bolt.stl was added on the service: downloaded.').waitFor({ timeout: 10_000 });
    await upToDate(page).waitFor({ timeout: 10_000 });
  });

  it('a design deleted in the window (My designs → Delete…) has its unchanged folder moved to the trash within seconds, and says so', async () => {
    // No poll in this test: what moves the folder is the deletion in the window, not a later look at the service.
    noPollsDuringThisTest();
    await onSync();
    await page.getByRole('link', { name: 'My designs' }).click();
    const row = page.getByTestId('own-design').filter({ has: page.getByRole('link', { name: 'Doomed', exact: true }) });
    await (await ownAction(row, 'Delete…')).click();
    const deletedAt = Date.now();
    await row.getByRole('group', { name: 'Confirm deletion' }).getByRole('button', { name: 'Delete', exact: true }).click();
    // The rename ends on the disk a moment before the engine, in this process, hears of it and forgets the link:
    // the outcome is both, so the test waits for both.
    await until('the folder moved to the trash and its link forgotten',
      () => !existsSync(join(root, 'doomed')) && app.engine.sync.syncParts().sync.folders.ofDesign(doomedId) === null, 5_000);
    expect(Date.now() - deletedAt).toBeLessThan(5_000);
    const trash = join(root, '.design-sync-trash');
    expect(readdirSync(trash).flatMap((at) => readdirSync(join(trash, at)))).toContain('doomed');

    await page.getByRole('link', { name: 'Sync', exact: true }).click();
    await activity(page).getByText(/“Doomed” was deleted on the service: its folder doomed was moved to /).waitFor({ timeout: 5_000 });
    await activity(page).getByText('You deleted the design “Doomed” on the service.').waitFor();
  });

  it('"Sync now" brings a change of the service at once, without waiting for a poll', async () => {
    const api = clientFor(app.service.url, app.makerToken);
    const source = join(rootParent, 'washer.stl');
    writeFileSync(source, 'solid washer\nendsolid washer\n');
    // The watch is stopped: nothing but the button brings it.
    noPollsDuringThisTest();
    await api.uploadDocument(latchId, { path: source }, { name: 'washer.stl' });
    await onSync();
    await page.getByRole('region', { name: 'Sync folder' }).getByRole('button', { name: 'Sync now' }).click();
    await until('the document in the folder', () => existsSync(join(root, 'latch', 'washer.stl')), 10_000);
    await activity(page).getByText('latch/washer.stl was added on the service: downloaded.').waitFor({ timeout: 5_000 });
    expect(app.cspViolations).toEqual([]);
  });
});
