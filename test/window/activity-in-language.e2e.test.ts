import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { clientFor } from '../../harness/sync-computers';
import { until } from '../../harness/until';
import { openWindow, type WindowFixture } from '../../harness/window';
import { tempDir } from '../engine/cache/cache-fixtures';
import { seriousViolations } from './axe-check';
import { loadWindow } from './views';

const FIXTURES = join(import.meta.dirname, '../fixtures');

let app: WindowFixture;
let page: Page;
const rootParent = tempDir('window-activity-language');
/** The designs the maker had on the service: Tandwiel stays, Klem is deleted there before its edit is sent. */
const ids = new Map<string, number>();

describe.skipIf(chromiumSkipReason !== undefined)('the Sync view words the engine\'s lines and reasons in the window\'s language, in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async (service, makerToken) => {
      const maker = clientFor(service.url, makerToken);
      for (const name of ['Tandwiel', 'Klem']) ids.set(name, (await maker.createDesign({ name, excerpt: `Een ${name.toLowerCase()}`, license: 'cc0' })).id);
    });
    page = app.page;
    await page.setViewportSize({ width: 1400, height: 900 });
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    rmSync(rootParent, { recursive: true, force: true });
  });

  it('shows an upload\'s line in the activity list and a failed edit\'s reason in Dutch, as the engine stored their facts', async () => {
    const { engine } = app;
    // Klem is deleted on the service before the folder is chosen (no folder of it is made): its edit fails when sent.
    await clientFor(app.service.url, app.makerToken).deleteDesign(ids.get('Klem')!);
    await engine.sync.chooseFolder(join(rootParent, 'Designs'));
    engine.sync.acceptContentPolicy();
    const parts = engine.sync.syncParts();
    await parts.sync.syncOnce();
    const folder = (await until('Tandwiel\'s folder', () => parts.sync.folders.ofDesign(ids.get('Tandwiel')!))).folder;
    const path = `${folder}/tandwiel.stl`;
    copyFileSync(join(FIXTURES, 'models/cube.stl'), join(parts.sync.root.current()!.path, folder, 'tandwiel.stl'));
    await parts.sync.scan({ settle: 'wait' });
    // An edit of a design no longer on the service: the queue fails it, saying why.
    const edit = engine.queue.enqueueDesignEdit(ids.get('Klem')!, { name: 'Klem twee' }, 'Klem');
    await engine.startBackground();
    await until('the upload sent and the edit failed', () => engine.queue.get(edit.id)?.state === 'failed'
      && engine.queue.recentActivity(50).some((line) => line.words?.id === 'activity.queue.uploaded' && line.path === path));

    app.engine.appSettings.store.update({ language: 'nl' });
    await loadWindow(page, app.host.origin, '#/sync');
    await page.locator('html[lang="nl"]').waitFor();
    const activity = page.getByRole('region', { name: 'Recente activiteit' });
    await activity.getByText(`${path} geüpload.`).waitFor();
    const failed = page.getByTestId('queue-item').filter({ hasText: 'Klem' });
    await failed.getByText('Het ontwerp “Klem” staat niet meer op de dienst (verwijderd, of niet meer van jou): de wijziging die hier is gemaakt, is niet verstuurd.').waitFor();
    // Nothing of it in the engine's English.
    const shown = await page.locator('main').textContent();
    expect(shown).not.toContain(`Uploaded ${path}.`);
    expect(shown).not.toContain('is no longer on the service');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
