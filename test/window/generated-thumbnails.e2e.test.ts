import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chromiumSkipReason } from '../../harness/chromium';
import { until } from '../../harness/until';
import { confirmNewDesign } from '../../electron/engine/runtime/queue-actions';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { openWindow, type WindowFixture } from '../../harness/window';
import { seriousViolations } from './axe-check';
import { loadWindow, showView } from './views';

const MODELS = join(import.meta.dirname, '../fixtures/models');
const CUBE = join(MODELS, 'cube20.stl');

let app: WindowFixture;
let page: Page;
let rootParent: string;
let aliceToken: string;
const ids: Record<string, number> = {};

const imagesOnService = async (id: number, token: string) => clientFor(app.service.url, token).listImages(id);
const rowOf = (name: string) => page.getByTestId('own-design').filter({ hasText: name });

/**
 * What share of a shown picture is not its background (the light grey it is drawn on): the model, drawn and lit.
 * Read in the page from the picture as the window shows it.
 */
async function drawnShare(picture: Locator): Promise<{ width: number; height: number; share: number }> {
  return picture.evaluate((element) => {
    const shown = element as unknown as { naturalWidth?: number; naturalHeight?: number; width: number; height: number };
    const image = { naturalWidth: shown.naturalWidth ?? shown.width, naturalHeight: shown.naturalHeight ?? shown.height };
    const doc = (globalThis as unknown as { document: { createElement(name: 'canvas'): { width: number; height: number; getContext(kind: '2d'): { drawImage(image: unknown, x: number, y: number): void; getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } } } }).document;
    const canvas = doc.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d');
    context.drawImage(element, 0, 0);
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let drawn = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i]! - 0xe4) + Math.abs(data[i + 1]! - 0xe8) + Math.abs(data[i + 2]! - 0xee) > 30) drawn++;
    }
    return { width: canvas.width, height: canvas.height, share: drawn / (data.length / 4) };
  });
}

describe.skipIf(chromiumSkipReason !== undefined)('pictures made from a design\'s model when it has no image, in Chromium', () => {
  beforeAll(async () => {
    app = await openWindow(async (service, makerToken) => {
      aliceToken = service.addUser('alice').token;
      const alice = clientFor(service.url, aliceToken);
      const other = await alice.createDesign({ name: 'Stackable cube', excerpt: 'Only a model, no image', license: 'cc0' });
      await alice.uploadDocument(other.id, { path: CUBE }, { name: 'Cube (STL)' });
      await alice.publishDesign(other.id);
      ids.other = other.id;
      const maker = clientFor(service.url, makerToken);
      const own = await maker.createDesign({ name: 'Cube bracket', excerpt: 'My model, no image yet', license: 'cc0' });
      await maker.uploadDocument(own.id, { path: CUBE });
      await maker.publishDesign(own.id);
      ids.own = own.id;
      const broken = await alice.createDesign({ name: 'Broken cube', excerpt: 'Only a model that cannot be read', license: 'cc0' });
      await alice.uploadDocument(broken.id, { path: join(MODELS, 'cube20-truncated.3mf') });
      await alice.publishDesign(broken.id);
      ids.broken = broken.id;
    });
    page = app.page;
    rootParent = tempDir('window-thumbnails-root');
    await app.engine.sync.chooseFolder(join(rootParent, 'Designs'));
    app.engine.sync.acceptContentPolicy();
    await app.engine.startBackground();
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    if (rootParent) rmSync(rootParent, { recursive: true, force: true });
  });

  it('another\'s design with only an STL: its page and its library card show a picture drawn from it, marked generated; nothing is uploaded', async () => {
    await showView(page, app.host.origin, `#/designs/${ids.other}`);
    const cover = page.getByTestId('generated-cover');
    await cover.getByRole('img').waitFor({ timeout: 30_000 });
    expect(await cover.getByTestId('generated-mark').textContent()).toBe('Generated from cube20.stl');
    expect(await cover.getByRole('img').getAttribute('alt')).toBe('Stackable cube: generated from cube20.stl');
    // Drawn, not blank: the cube fills a good part of the 400×300 picture.
    const drawn = await drawnShare(cover.getByRole('img'));
    expect(drawn).toMatchObject({ width: 400, height: 300 });
    expect(drawn.share).toBeGreaterThan(0.1);
    expect(drawn.share).toBeLessThan(0.9);
    // Not the person's design: no cover to offer.
    expect(await page.getByRole('button', { name: 'Use as cover…' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await showView(page, app.host.origin, '#/');
    const card = page.getByRole('article', { name: 'Stackable cube' });
    await card.getByTestId('generated-mark').waitFor();
    expect(await card.getByTestId('generated-mark').textContent()).toBe('Generated from cube20.stl');
    expect((await drawnShare(card.getByTestId('generated-cover').locator('img'))).share).toBeGreaterThan(0.1);
    expect(await seriousViolations(page)).toEqual([]);

    expect(await imagesOnService(ids.other!, aliceToken)).toEqual([]);
  });

  it('a model that cannot be read leaves the blank cover, is told to the engine once and not tried again', async () => {
    await showView(page, app.host.origin, `#/designs/${ids.broken}`);
    await page.getByText('No images', { exact: true }).waitFor({ timeout: 30_000 });
    expect(app.answered('design.thumbnailFailed')).toBe(1);
    const log = readFileSync(join(app.engine.profile.root, 'logs', 'engine.log'), 'utf8');
    expect(log.split('\n').filter((line) => line.includes(`no picture could be made of design ${ids.broken} from cube20-truncated.3mf`))).toHaveLength(1);
    // Shown again, in a window loaded afresh: the engine remembers, nothing is drawn or told again.
    await loadWindow(page, app.host.origin, `#/designs/${ids.broken}`);
    await page.getByText('No images', { exact: true }).waitFor();
    await showView(page, app.host.origin, '#/');
    await page.getByRole('article', { name: 'Broken cube' }).locator('.thumb-none').waitFor();
    expect(app.answered('design.thumbnailFailed')).toBe(1);
    expect(existsSync(join(app.engine.profile.root, 'thumbnails', `${ids.broken}.png`))).toBe(false);
  });

  it('a folder proposed as a new design, not confirmed yet, is pictured in Sync by a drawing of its model', async () => {
    const folder = join(rootParent, 'Designs', 'desk-clip');
    mkdirSync(folder);
    copyFileSync(CUBE, join(folder, 'clip.stl'));
    await until('the new folder proposed as a design', () =>
      app.engine.queue.list({ states: ['attention'] }).some((item) => item.attention === 'confirm-design' && item.folder === 'desk-clip'));
    await showView(page, app.host.origin, '#/sync');
    const picture = page.getByRole('form', { name: 'New design for the folder desk-clip' }).getByTestId('proposal-picture');
    await picture.and(page.locator('[data-drawn="true"]')).waitFor({ timeout: 30_000 });
    // Made off the page's thread, in the thumbnail worker: a module of the window's own origin (kept a while after
    // its picture), allowed by the CSP as it is.
    const thumbnailWorkers = page.workers().map((worker) => new URL(worker.url())).filter((url) => /\/thumbnail-worker-[\w-]+\.js$/.test(url.pathname));
    expect(thumbnailWorkers.map((url) => url.origin)).toEqual([app.host.origin]);
    expect(app.cspViolations).toEqual([]);
    expect(await picture.getByTestId('generated-mark').textContent()).toBe('Generated from clip.stl');
    const drawn = await drawnShare(picture.getByRole('img'));
    expect(drawn).toMatchObject({ width: 400, height: 300 });
    expect(drawn.share).toBeGreaterThan(0.1);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('a folder holding only a model, confirmed as a new design: its row in My designs shows a picture drawn from the model', async () => {
    const folder = join(rootParent, 'Designs', 'wall-hook');
    mkdirSync(folder);
    copyFileSync(CUBE, join(folder, 'hook.stl'));
    const proposal = await until('the new folder proposed as a design', () =>
      app.engine.queue.list({ states: ['attention'] }).find((item) => item.attention === 'confirm-design' && item.folder === 'wall-hook') ?? null);
    confirmNewDesign(app.engine.queue, proposal.id, { name: 'Wall hook', excerpt: 'Made from a folder with only its model', license: 'cc0' }, false);
    app.engine.sync.queueWorkAdded();
    await showView(page, app.host.origin, '#/mine');
    const mark = rowOf('Wall hook').getByTestId('generated-mark');
    await mark.waitFor({ timeout: 30_000 });
    expect(await mark.textContent()).toBe('Generated from hook.stl');
    const created = (await clientFor(app.service.url, app.makerToken).listUserDesigns('maker', { limit: 100 })).items.find((design) => design.name === 'Wall hook');
    expect(await imagesOnService(created!.id, app.makerToken)).toEqual([]);
  });

  it('my design with only an STL: My designs shows the generated cover; "Use as cover" asks first, then uploads one image and the cover is real', async () => {
    // Its files came with the own designs' pull: its row draws the picture, its page need not be opened first.
    await showView(page, app.host.origin, '#/mine');
    await rowOf('Cube bracket').getByTestId('generated-mark').waitFor({ timeout: 30_000 });
    expect(await rowOf('Cube bracket').getByTestId('generated-mark').textContent()).toBe('Generated from cube20.stl');
    expect((await drawnShare(rowOf('Cube bracket').getByTestId('generated-cover').locator('img'))).share).toBeGreaterThan(0.1);

    await showView(page, app.host.origin, `#/designs/${ids.own}`);
    // Asked, and declined: nothing leaves.
    await page.getByRole('button', { name: 'Use as cover…' }).click();
    const question = page.getByRole('group', { name: 'Confirm the cover' });
    expect(await question.textContent()).toContain('Upload this picture to “Cube bracket” as its cover image? It is uploaded in your name and will be public.');
    expect(await seriousViolations(page)).toEqual([]);
    await question.getByRole('button', { name: 'Cancel' }).click();
    expect(existsSync(join(rootParent, 'Designs', 'cube-bracket', 'cube20 cover.png'))).toBe(false);
    expect(await app.engine.queue.list().filter((item) => item.path?.endsWith('cube20 cover.png')).length).toBe(0);

    // Asked, and confirmed: one image is uploaded, and it is the cover.
    await page.getByRole('button', { name: 'Use as cover…' }).click();
    await page.getByRole('group', { name: 'Confirm the cover' }).getByRole('button', { name: 'Upload as cover' }).click();
    await page.getByTestId('cover-queued').waitFor();
    const images = await until('the picture on the service', async () => {
      const listed = await imagesOnService(ids.own!, app.makerToken);
      return listed.length > 0 ? listed : null;
    });
    expect(images).toHaveLength(1);
    await until('the design page showing its image', async () => (await page.getByTestId('generated-cover').count()) === 0 && (await page.locator('img.gallery-main').count()) === 1);
    await showView(page, app.host.origin, '#/mine');
    await rowOf('Cube bracket').locator('img.own-cover').waitFor();
    expect(await rowOf('Cube bracket').getByTestId('generated-mark').count()).toBe(0);
    // Still one: nothing was sent twice.
    expect(await imagesOnService(ids.own!, app.makerToken)).toHaveLength(1);
  });
});
