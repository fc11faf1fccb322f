import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { until } from '../../harness/until';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { seriousViolations } from './axe-check';
import { openWindow, type WindowFixture } from '../../harness/window';
import { loadWindow } from './views';

let app: WindowFixture;
let page: Page;
let designId: number;
const rootParent = tempDir('window-never-sent');
const root = join(rootParent, 'Designs');
const panel = () => page.getByRole('region', { name: 'Never sent' });
const groups = () => panel().getByTestId('held-back-group').allTextContents();
const onService = async () => (await clientFor(app.service.url, app.makerToken).listDocuments(designId)).map((document) => document.name).sort();

describe.skipIf(chromiumSkipReason !== undefined)('the window\'s "Never sent" in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async (service, makerToken) => {
      designId = (await clientFor(service.url, makerToken).createDesign({ name: 'Lamp', excerpt: 'A lamp', license: 'cc0' })).id;
    });
    page = app.page;
    // Its own sync folder, syncing: every test here reads what it puts there.
    await app.engine.sync.chooseFolder(root);
    app.engine.sync.acceptContentPolicy();
    await app.engine.startBackground();
    await until('the design\'s folder', () => app.engine.sync.syncParts().sync.folders.ofDesign(designId) !== null, 20_000);
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.getByRole('link', { name: 'Sync', exact: true }).click();
    await panel().waitFor();
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    rmSync(rootParent, { recursive: true, force: true });
  });

  const folder = () => join(root, app.engine.sync.syncParts().sync.folders.ofDesign(designId)!.folder);

  it('lists what was held back, grouped, with the rule that matched, as the folder changes', async () => {
    writeFileSync(join(folder(), 'lamp.blend'), 'blend');
    writeFileSync(join(folder(), 'lamp.blend1'), 'backup');
    writeFileSync(join(folder(), 'lamp.blend2'), 'older backup');
    await until('the Blender backups said', async () => (await groups()).some((text) => text.startsWith('Blender backups: 2 not sent (built-in list, Blender)')), 20_000);
    expect((await groups()).find((text) => text.startsWith('Blender backups'))).toContain('lamp/lamp.blend1, lamp/lamp.blend2');
    await until('lamp.blend sent', async () => (await onService()).includes('lamp.blend'), 20_000);
    expect(await onService()).toEqual(['lamp.blend']);
  });

  it('saves the ignore file typed in the window, and what it holds back is said at once with its line', async () => {
    // Uploads wait while the person types: a file already on its way before the save is the person's to delete, and
    // how long typing takes is no part of what this test says. Resumed below, the queue must not send it.
    app.engine.queueService.pauseAll();
    try {
      writeFileSync(join(folder(), 'lamp.autosave'), 'half');
      const editor = panel().getByLabel(/Your ignore file/);
      await editor.fill('# my habits\n*.autosave\n');
      await panel().getByRole('button', { name: 'Save ignore file' }).click();
      await panel().getByText('Saved: the folder was looked at again.').waitFor();
      expect(readFileSync(join(root, '.designsyncignore'), 'utf8')).toBe('# my habits\n*.autosave\n');
      await until('its line said', async () => (await groups()).some((text) => text.includes('1 not sent by *.autosave (line 2 of .designsyncignore)')), 10_000);
    } finally {
      app.engine.queueService.resumeAll();
    }
    await until('nothing left to send', () => {
      const counts = app.engine.queue.status().counts;
      return counts.waiting === 0 && counts.running === 0;
    }, 20_000);
    expect(await onService()).not.toContain('lamp.autosave');
  });

  it('refuses a line it cannot take, beside the editor, and leaves the file as it was', async () => {
    const before = readFileSync(join(root, '.designsyncignore'), 'utf8');
    const editor = panel().getByLabel(/Your ignore file/);
    await editor.fill('*.autosave\nrenders\\old\n');
    await panel().getByRole('button', { name: 'Save ignore file' }).click();
    await panel().getByRole('alert').getByText('Line 2 of .designsyncignore: “renders\\old” holds a backslash: write folders with /').waitFor();
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    expect(readFileSync(join(root, '.designsyncignore'), 'utf8')).toBe(before);
    await panel().getByRole('button', { name: 'Undo changes' }).click();
    expect(await editor.inputValue()).toBe(before);
  });

  it('shows the built-in list read-only, each entry with where its tool documents it; fits and passes axe at both sizes, both themes', async () => {
    await panel().getByText(/Built-in list \(\d+ entries, always applied\)/).click();
    const list = panel().getByRole('list', { name: 'Built-in list' });
    await list.waitFor();
    expect(await list.getByText('Documented at https://docs.blender.org/manual/en/latest/editors/preferences/save_load.html').count()).toBe(1);
    for (const size of [{ width: 1024, height: 700 }, { width: 1400, height: 900 }]) {
      await page.setViewportSize(size);
      expect(await seriousViolations(page)).toEqual([]);
      // Nothing of the panel runs past the window's right edge.
      const box = (await panel().boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(size.width);
      expect(await panel().evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }
  });

  it('in Dutch: refuses a line it cannot take in Dutch, and names the built-in entry for hidden files in Dutch', async () => {
    try {
      app.engine.appSettings.store.update({ language: 'nl' });
      await loadWindow(page, app.host.origin, '#/sync');
      await page.locator('html[lang="nl"]').waitFor({ timeout: 8000 });
      const dutch = page.getByRole('region', { name: 'Nooit verstuurd' });
      await dutch.waitFor({ timeout: 8000 });
      await dutch.getByLabel(/Je negeerbestand/).fill('*.autosave\nrenders\\old\n');
      await dutch.getByRole('button', { name: 'Negeerbestand opslaan' }).click();
      const alert = dutch.getByRole('alert');
      await alert.getByText('Regel 2 van .designsyncignore: “renders\\old” bevat een backslash: schrijf mappen met /').waitFor({ timeout: 8000 });
      expect(await alert.textContent()).not.toMatch(/Line 2|holds a backslash/);
      await dutch.getByText(/Ingebouwde lijst \(\d+ regels, altijd toegepast\)/).click();
      const list = dutch.getByRole('list', { name: 'Ingebouwde lijst' });
      await list.getByText('Elk programma', { exact: true }).waitFor({ timeout: 8000 });
      expect(await list.textContent()).not.toContain('Any program');
    } finally {
      app.engine.appSettings.store.update({ language: 'system' });
      await loadWindow(page, app.host.origin, '#/sync');
      await panel().waitFor({ timeout: 8000 });
    }
    // Two loads of the window and four steps, each bounded by its own wait: on a busy machine more than vitest's 30 s.
  }, 90_000);
});
