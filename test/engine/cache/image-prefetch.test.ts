import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { openDesignCache } from '../../../electron/engine/cache/design-cache';
import { getCachedDesign } from '../../../electron/engine/cache/design-reads';
import { pullDesigns } from '../../../electron/engine/cache/pull';
import { startTestService, type TestService } from '../../../harness/local-service';
import { tempDir } from './cache-fixtures';

const image = join(import.meta.dirname, '../../fixtures/images/png-sample.png');
let service: TestService;
let ownerToken: string;
const ids: number[] = [];

beforeAll(async () => {
  service = await startTestService();
  ownerToken = service.addUser('prefetch-owner').token;
  const owner = new ServiceClient({ baseUrl: service.url, token: () => ownerToken });
  for (let i = 0; i < 3; i++) {
    const design = await owner.createDesign({ name: `Prefetched ${i}`, excerpt: 'x' });
    if (i < 2) await owner.uploadImage(design.id, { path: image });
    await owner.publishDesign(design.id);
    ids.push(design.id);
  }
});
afterAll(() => service.stop());

describe('image prefetch of a pull', () => {
  it('lists images and downloads covers only for the newest designs with a cover, up to the limit', async () => {
    const dir = tempDir('prefetch');
    const cache = openDesignCache({ cacheDatabase: join(dir, 'cache.sqlite'), fileCache: join(dir, 'files') });
    try {
      const reader = new ServiceClient({ baseUrl: service.url, token: () => null });
      const summary = await pullDesigns(reader, cache.db, cache.files, { imagePrefetchLimit: 1 });
      expect(summary.designs.inserted).toBe(3);
      expect(summary.images.designsChecked).toBe(1);
      // The newest design with a cover is the second one; the third has no image at all.
      expect(getCachedDesign(cache.reader, ids[1]!)!.images).toHaveLength(1);
      expect(getCachedDesign(cache.reader, ids[0]!)!.images).toHaveLength(0);

      const more = await pullDesigns(reader, cache.db, cache.files, { imagePrefetchLimit: 10 });
      expect(more.images.designsChecked).toBe(1);
      expect(getCachedDesign(cache.reader, ids[0]!)!.images).toHaveLength(1);
    } finally {
      cache.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('always fetches the signed-in user\'s own designs, beyond the limit', async () => {
    const dir = tempDir('prefetch-own');
    const cache = openDesignCache({ cacheDatabase: join(dir, 'cache.sqlite'), fileCache: join(dir, 'files') });
    try {
      const owner = new ServiceClient({ baseUrl: service.url, token: () => ownerToken });
      const summary = await pullDesigns(owner, cache.db, cache.files, { imagePrefetchLimit: 0 });
      expect(summary.images.designsChecked).toBe(3);
      expect(summary.images.documentsChecked).toBe(3);
    } finally {
      cache.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
