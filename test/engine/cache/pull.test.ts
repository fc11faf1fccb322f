import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { openDesignCache, type DesignCache } from '../../../electron/engine/cache/design-cache';
import { coverImage, getCachedDesign, listCachedDesigns, searchCachedDesigns } from '../../../electron/engine/cache/design-reads';
import { describeAge } from '../../../electron/engine/cache/describe-age';
import { searchOnline } from '../../../electron/engine/cache/online-search';
import { pullDesigns, type PullProgress } from '../../../electron/engine/cache/pull';
import { startTestService, type TestService } from '../../../harness/local-service';
import { tempDir } from './cache-fixtures';

const FIXTURES = join(import.meta.dirname, '../../fixtures/images');
const fastRetry = { retries: 2, minDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1_000 };

let service: TestService;
let makerToken: string;
let otherToken: string;
let cache: DesignCache;
let profileDir: string;
const published = new Map<string, number>();
const withImages: number[] = [];
let draftId: number;

function client(token: string | null = makerToken) {
  return new ServiceClient({ baseUrl: service.url, token: () => token, retry: fastRetry, timeoutMs: 5_000 });
}

async function fault(rule: Record<string, unknown>) {
  const response = await service.request('POST', '/__admin/faults', { json: rule });
  expect(response.status).toBe(201);
}

/** Which design rows the next statements write (a temp trigger on the test's side, not in the product). */
function recordDesignWrites(): { ids(): number[]; stop(): void } {
  const db = cache.db;
  db.exec(`
    CREATE TEMP TABLE IF NOT EXISTS design_writes (id INTEGER);
    DELETE FROM design_writes;
    CREATE TEMP TRIGGER IF NOT EXISTS log_design_insert AFTER INSERT ON main.designs BEGIN INSERT INTO design_writes VALUES (new.id); END;
    CREATE TEMP TRIGGER IF NOT EXISTS log_design_update AFTER UPDATE ON main.designs BEGIN INSERT INTO design_writes VALUES (new.id); END;
    CREATE TEMP TRIGGER IF NOT EXISTS log_design_delete AFTER DELETE ON main.designs BEGIN INSERT INTO design_writes VALUES (old.id); END;
  `);
  return {
    ids: () => [...new Set((db.prepare('SELECT id FROM design_writes').all() as { id: number }[]).map((r) => r.id))].sort((a, b) => a - b),
    stop: () => db.exec('DROP TRIGGER log_design_insert; DROP TRIGGER log_design_update; DROP TRIGGER log_design_delete; DROP TABLE design_writes;'),
  };
}

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  makerToken = service.addUser('maker').token;
  otherToken = service.addUser('other').token;
  const maker = client();
  const other = client(otherToken);
  for (let i = 0; i < 3; i++) {
    const design = await maker.createDesign({
      name: `Planetary gear ${i}`, excerpt: `Gear number ${i}`, license: i === 0 ? 'ccbysa' : 'cc0',
      description: `<p>A <b>planetary</b> reducer &amp; housing, part ${i}</p>`,
    });
    await maker.publishDesign(design.id);
    published.set(design.slug, design.id);
    const image = await maker.uploadImage(design.id, { path: join(FIXTURES, i === 1 ? 'png-sample.png' : 'jpg-sample.jpg') });
    if (i === 2) {
      // Two images, the second primary: the pull must take the primary one, not the first.
      const primary = await maker.uploadImage(design.id, { path: join(FIXTURES, 'png-sample.png') });
      await maker.updateDesign(design.id, { primary_image_id: primary.id });
    }
    expect(image.id).toBeGreaterThan(0);
    withImages.push(design.id);
  }
  draftId = (await maker.createDesign({ name: 'Secret draft widget', excerpt: 'Not published yet' })).id;
  for (let i = 0; i < 20; i++) {
    const design = await other.createDesign({ name: `Cable clip ${i}`, excerpt: 'Holds cables' });
    await other.publishDesign(design.id);
    published.set(design.slug, design.id);
  }
  profileDir = tempDir('pull');
  cache = openDesignCache({ cacheDatabase: join(profileDir, 'cache.sqlite'), fileCache: join(profileDir, 'files') });
});

afterAll(async () => {
  cache?.close();
  await service?.stop().catch(() => {});
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
});

describe('pull', () => {
  it('a first pull caches every published design, the user\'s own drafts, and the cover renditions', async () => {
    const progress: PullProgress[] = [];
    const summary = await pullDesigns(client(), cache.db, cache.files, { pageSize: 10, onProgress: (p) => { progress.push(p); } });
    expect(summary.warnings).toEqual([]);
    expect(summary.listingComplete).toBe(true);
    expect(summary.designs).toMatchObject({ inserted: 23, updated: 0, unchanged: 0, removed: 0 });
    expect(summary.ownDesigns).toMatchObject({ inserted: 1, updated: 3 }); // the draft is new; the 3 published gain their user-designs form
    expect(summary.signedInAs).toBe('maker');
    expect(summary.files.downloaded).toBe(6); // grid + large of 3 cover images
    expect(summary.files.bytes).toBeGreaterThan(0);
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['designs', 'own-designs', 'images', 'done']));
    expect(progress.filter((p) => p.phase === 'designs').map((p) => p.done)).toEqual([10, 20, 23]);

    expect(listCachedDesigns(cache.reader, { ownOnly: true, limit: 10 }).map((d) => d.id).sort()).toEqual([...withImages, draftId].sort());
    const draft = getCachedDesign(cache.reader, draftId)!;
    expect(draft.summary).toMatchObject({ state: 'draft', own: true, author: 'maker' });
    expect(draft.design).toHaveProperty('wiki_mode');

    const gear = getCachedDesign(cache.reader, withImages[2]!, { fileRoot: cache.files.root })!;
    expect(gear.images).toHaveLength(2);
    expect(coverImage(gear)!.id).toBe(gear.summary.primaryImageId);
    expect(coverImage(gear)!.localFiles.grid).toBeDefined();
    expect(gear.images[0]!.localFiles).toEqual({});
    expect(gear.design).toMatchObject({ tags: [], user: { screen_name: 'maker' }, wiki_mode: false, documents_zip: { url: null } });
  });

  it('a second pull with nothing changed writes no design row and downloads nothing', async () => {
    const writes = recordDesignWrites();
    try {
      const summary = await pullDesigns(client(), cache.db, cache.files, { pageSize: 10 });
      expect(summary.designs).toMatchObject({ inserted: 0, updated: 0, unchanged: 23, removed: 0 });
      expect(summary.ownDesigns).toMatchObject({ inserted: 0, updated: 0, unchanged: 4, removed: 0 });
      expect(summary.files).toMatchObject({ downloaded: 0, bytes: 0 });
      expect(summary.images.notModified).toBe(summary.images.designsChecked); // own designs: conditional GETs answered 304
      expect(summary.images.rowsWritten).toBe(0);
      expect(writes.ids()).toEqual([]);
    } finally {
      writes.stop();
    }
  });

  it('an incremental pull touches exactly what changed on the service: one changed, one added, one deleted', async () => {
    const other = client(otherToken);
    const changed = published.get('cable-clip-3')!;
    const deleted = published.get('cable-clip-4')!;
    await other.updateDesign(changed, { excerpt: 'Holds thicker cables' });
    await other.deleteDesign(deleted);
    const added = await other.createDesign({ name: 'Spool holder', excerpt: 'For filament', description: '<p>Fits a <i>1 kg</i> spool</p>' });
    await other.publishDesign(added.id);
    published.delete('cable-clip-4');
    published.set(added.slug, added.id);

    const writes = recordDesignWrites();
    try {
      const summary = await pullDesigns(client(), cache.db, cache.files, { pageSize: 10 });
      expect(summary.designs).toMatchObject({ inserted: 1, updated: 1, unchanged: 21, removed: 1 });
      expect(summary.files.downloaded).toBe(0);
      expect(writes.ids()).toEqual([changed, deleted, added.id].sort((a, b) => a - b));
    } finally {
      writes.stop();
    }
    expect(getCachedDesign(cache.reader, deleted)).toBeNull();
    expect(getCachedDesign(cache.reader, changed)!.summary.excerpt).toBe('Holds thicker cables');
    expect(searchCachedDesigns(cache.reader, 'spool 1 kg').items.map((d) => d.id)).toEqual([added.id]);
  });

  it('a walk that fails part-way removes nothing, and the next complete one does', async () => {
    const gone = published.get('cable-clip-5')!;
    await client(otherToken).deleteDesign(gone);
    published.delete('cable-clip-5');
    const summary = await pullDesigns(client(), cache.db, cache.files, {
      pageSize: 5,
      // Once the first page is written, every listing request fails with 500: pages 2 and 3, asked for ahead of it,
      // may have come, and page 4 on do not.
      onProgress: async (p) => { if (p.phase === 'designs' && p.done === 5) await fault({ kind: 'status', status: 500, path: '^/v1/designs$', count: 50 }); },
    });
    await service.request('DELETE', '/__admin/faults');
    expect(summary.listingComplete).toBe(false);
    expect(summary.designs.removed).toBe(0);
    expect(summary.removalsWithheld).toBeGreaterThanOrEqual(1);
    expect(summary.warnings.join('\n')).toMatch(/could not be read to the end.*no design was removed/);
    expect(getCachedDesign(cache.reader, gone)).not.toBeNull();

    const complete = await pullDesigns(client(), cache.db, cache.files, { pageSize: 10 });
    expect(complete.designs.removed).toBe(1);
    expect(getCachedDesign(cache.reader, gone)).toBeNull();
  });

  it('refuses to empty the cache when the listing suddenly shrinks to nothing', async () => {
    const scratch = tempDir('pull-shrink');
    const copy = openDesignCache({ cacheDatabase: join(scratch, 'cache.sqlite'), fileCache: join(scratch, 'files') });
    try {
      // A second profile, signed out, mirrors the listing; then every published design disappears from it.
      await pullDesigns(client(null), copy.db, copy.files, { pageSize: 50 });
      const before = listCachedDesigns(copy.reader, { limit: 500 }).length;
      expect(before).toBeGreaterThan(20);
      const hidden = [...published.values()];
      for (const id of hidden) await service.request('PATCH', `/v1/designs/${id}`, { token: withImages.includes(id) ? makerToken : otherToken, json: { design: { state: 'draft' } } });
      const summary = await pullDesigns(client(null), copy.db, copy.files, { pageSize: 50 });
      expect(summary.listingComplete).toBe(true);
      expect(summary.designs.removed).toBe(0);
      expect(summary.removalsWithheld).toBe(before);
      expect(summary.warnings.join('\n')).toMatch(/listed 0 designs where the cache holds \d+.*no design was removed/);
      expect(listCachedDesigns(copy.reader, { limit: 500 })).toHaveLength(before);
      for (const id of hidden) await service.request('PATCH', `/v1/designs/${id}`, { token: withImages.includes(id) ? makerToken : otherToken, json: { design: { state: 'published' } } });
    } finally {
      copy.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('online search asks the service and merges what it answers into the cache', async () => {
    const other = client(otherToken);
    const fresh = await other.createDesign({ name: 'Hexagonal trivet', excerpt: 'Not pulled yet' });
    await other.publishDesign(fresh.id);
    expect(searchCachedDesigns(cache.reader, 'hexagonal').items).toEqual([]);
    const answer = await searchOnline(client(), cache.designs, 'Hexagonal');
    expect(answer.source).toBe('online');
    expect(answer.items.map((d) => d.id)).toEqual([fresh.id]);
    expect(searchCachedDesigns(cache.reader, 'hexagonal').items.map((d) => d.id)).toEqual([fresh.id]);
  });

  it('stops when cancelled, keeping what it had written', async () => {
    const abort = new AbortController();
    const pull = pullDesigns(client(), cache.db, cache.files, {
      pageSize: 10, signal: abort.signal,
      onProgress: (p) => { if (p.phase === 'designs' && p.done === 10) abort.abort(); },
    });
    await expect(pull).rejects.toMatchObject({ problem: { kind: 'cancelled' } });
    expect(listCachedDesigns(cache.reader, { limit: 500 }).length).toBeGreaterThan(20);
  });

  it('with the service stopped: designs, their age, search and thumbnails all come from the cache', async () => {
    await service.stop();
    const gear = getCachedDesign(cache.reader, 'planetary-gear-0', { fileRoot: cache.files.root })!;
    expect(gear.summary.name).toBe('Planetary gear 0');
    expect(gear.license).toMatchObject({ code: 'ccbysa', attributionRequired: true });
    expect(gear.ageMs).toBeGreaterThanOrEqual(0);
    expect(gear.ageMs).toBeLessThan(60_000);
    expect(describeAge(gear.ageMs)).toBe('just now');
    expect(describeAge(3 * 60_000 + 10_000)).toBe('3 minutes ago');
    for (const id of withImages) {
      const design = getCachedDesign(cache.reader, id, { fileRoot: cache.files.root })!;
      const cover = coverImage(design)!;
      for (const rendition of ['grid', 'large'] as const) {
        const path = cover.localFiles[rendition]!;
        expect(existsSync(path)).toBe(true);
        const meta = await sharp(path).metadata();
        expect(meta.format).toBe('jpeg');
        expect(meta.width).toBeGreaterThan(0);
      }
      expect(cache.files.localPath(`/nope/${id}`)).toBeNull();
    }
    expect(searchCachedDesigns(cache.reader, 'planet reduc').items).toHaveLength(3);

    const fallback = await searchOnline(client(), cache.designs, 'planetary');
    expect(fallback.source).toBe('offline');
    expect(fallback.note).toMatch(/cannot be reached.*\. These results come from the cache\.$/);
    expect(fallback.items).toHaveLength(3);

    await expect(pullDesigns(client(), cache.db, cache.files)).rejects.toMatchObject({ problem: { kind: 'offline' } });
    expect(listCachedDesigns(cache.reader, { limit: 500 }).length).toBeGreaterThan(20);
  });
});
