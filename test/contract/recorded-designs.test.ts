import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesignCard, DesignDetail, LibraryPage, Outcome } from '../../shared';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { replaceImages } from '../../electron/engine/cache/child-writes';
import { upsertDesigns } from '../../electron/engine/cache/design-writes';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { tempDir } from '../engine/cache/cache-fixtures';
import { startRecordedService, type RecordedService } from '../support/recorded-service';

/**
 * The window's view of the live service's recorded answers (test/fixtures/recorded), through the contract: the first
 * recorded listing holds "M4 Carry Handle for Retaliator" (14706) without `primary_image` though its
 * `primary_image_id` is set (the image is gone); eight designs carry the service's free-text `attribution`.
 */

let service: RecordedService;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let profile: string;

async function value<T>(name: string, params: unknown): Promise<T> {
  const outcome = await endpoint.handle(name as never, params as never) as Outcome<T>;
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problem));
  return outcome.value;
}

async function card(id: number): Promise<DesignCard> {
  return (await value<DesignDetail>('design.get', { id })).card;
}

beforeAll(async () => {
  service = await startRecordedService(['all', 'page_5']);
  profile = tempDir('contract-recorded');
  engine = await openEngine({ profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test', tokenStore: () => new MemoryTokenStore(null), settingsStore: () => memorySettingsStore() });
  endpoint = createContractEndpoint(engine);
  await engine.catalogue.pullNow();
  await engine.searchIndex.whenIdle();
}, 60_000);

afterAll(async () => {
  endpoint?.close();
  await engine?.close();
  await service?.stop();
  rmSync(profile, { recursive: true, force: true });
});

describe('recorded designs through the contract', () => {
  it('shows no cover for a design whose cover image is gone, and the cover of the others', async () => {
    const page = await value<LibraryPage>('library.page', { limit: 100 });
    expect(page.items).toHaveLength(36);
    const gone = page.items.find((item) => item.id === 14706)!;
    expect(gone.thumbnailUrl).toBeNull();
    expect((await value<DesignDetail>('design.get', { id: 14706 })).primaryImageId).toBeNull();
    for (const item of page.items.filter((other) => other.id !== 14706)) expect(item.thumbnailUrl, `design ${item.id}`).toMatch(/^\/files\/images\/\d+\/grid$/);
    expect((await card(14712)).thumbnailUrl).toBe('/files/images/155054/grid');
  });

  it('falls back to the design\'s first listed image when its cover is gone but other images remain', async () => {
    // 14706 as recorded (no primary_image, a gone primary_image_id), with two images of its own listed after it.
    const recorded = service.designs().get(14706)!;
    const coverOf = (id: number) => ({ id, design_id: 990_002, name: `view-${id}.png`, file: { url: `${service.storageUrl}/files.youmagine.com/uploads/image/file/${id}/view.png` } });
    upsertDesigns(engine.cache.db, [{ ...recorded, id: 990_002, slug: 'gone-cover-with-images' }], 'list', Date.now(), { inListing: true });
    replaceImages(engine.cache.db, 990_002, [coverOf(880_001), coverOf(880_002)], Date.now());
    expect(recorded.primary_image).toBeUndefined();
    expect(recorded.primary_image_id).toEqual(expect.any(Number));
    expect((await card(990_002)).thumbnailUrl).toBe('/files/images/880001/grid');
  });

  it('gives the service\'s attribution text as what a design is based on, and none where it is empty', async () => {
    const adapted = await value<DesignDetail>('design.get', { id: 14695 });
    expect(adapted.basedOn).toBe('https://3dprint.nih.gov/discover/3dpx-004001');
    expect(adapted.card.attribution.text).toContain('licensed');
    expect((await value<DesignDetail>('design.get', { id: 14712 })).basedOn).toBeNull();
  });

  it('gives attribution text with markup as plain text, its links dropped', async () => {
    const marked = { ...service.designs().get(14712)!, id: 990_001, attribution: '<a href="javascript:alert(1)">Motor cover</a>\r\n by <b>someone</b>' };
    upsertDesigns(engine.cache.db, [marked], 'list', Date.now(), { inListing: true });
    expect((await value<DesignDetail>('design.get', { id: 990_001 })).basedOn).toBe('Motor cover by someone');
  });

  it('finds designs by their attribution text', async () => {
    // Words that no recorded design has anywhere but in its attribution.
    const ids = async (query: string) => (await value<LibraryPage>('library.page', { query, limit: 10 })).items.map((item) => item.id);
    expect(await ids('3dpx')).toEqual([14695]);
    expect(await ids('102844')).toEqual([14597]);
    expect(await ids('wild imagination')).toEqual([14697]);
    expect(await ids('EE4777')).toEqual([14596]);
  });
});

describe('recorded designs whose image lists cannot be read', () => {
  it('serves a cover from the URLs of the design\'s own primary_image', async () => {
    const bare = await startRecordedService(['all'], { imageLists: false });
    const bareProfile = tempDir('contract-recorded-bare');
    const bareEngine = await openEngine({ profileDir: bareProfile, serviceUrl: bare.url, userAgent: 'design-sync-test', tokenStore: () => new MemoryTokenStore(null), settingsStore: () => memorySettingsStore() });
    const bareEndpoint = createContractEndpoint(bareEngine);
    try {
      await bareEngine.catalogue.pullNow();
      const detail = await bareEndpoint.handle('design.get', { id: 14712 }) as Outcome<DesignDetail>;
      const cover = detail.ok ? detail.value.card.thumbnailUrl : null;
      expect(cover).toBe('/files/images/155054/grid');
      expect(bare.requests.some((request) => request.url.startsWith('/v1/designs/14712/images'))).toBe(true);
      const served = await bareEndpoint.file(cover!);
      expect(served).toMatchObject({ contentType: 'image/png' });
      expect(bare.storageRequests.map((request) => request.url)).toContain('/files.youmagine.com/uploads/image/file/155054/grid_jamrendering_14712_5219420161209-18447-bsqu24.png');
    } finally {
      bareEndpoint.close();
      await bareEngine.close();
      await bare.stop();
      rmSync(bareProfile, { recursive: true, force: true });
    }
  }, 60_000);
});
