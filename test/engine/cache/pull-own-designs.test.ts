import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { openDesignCache, type DesignCache } from '../../../electron/engine/cache/design-cache';
import { countCachedDesigns, coverImage, getCachedDesign, ownDesignRefs } from '../../../electron/engine/cache/design-reads';
import { pullDesigns, pullOwnDesigns, type PullProgress } from '../../../electron/engine/cache/pull';
import type { OwnDesignRef } from '../../../electron/engine/sync/remote-pass';
import { startTestService, type TestService } from '../../../harness/local-service';
import { tempDir } from './cache-fixtures';

const FIXTURES = join(import.meta.dirname, '../../fixtures');
const fastRetry = { retries: 1, minDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1_000 };

let service: TestService;
let ownerToken: string;
let otherToken: string;
const own: { published: number[]; draft: number } = { published: [], draft: 0 };
const others: number[] = [];
const dirs: string[] = [];
const caches: DesignCache[] = [];

function client(token: string | null = ownerToken): ServiceClient {
  return new ServiceClient({ baseUrl: service.url, token: () => token, retry: fastRetry, timeoutMs: 5_000 });
}

function freshCache(): DesignCache {
  const dir = tempDir('pull-own');
  dirs.push(dir);
  const cache = openDesignCache({ cacheDatabase: join(dir, 'cache.sqlite'), fileCache: join(dir, 'files') });
  caches.push(cache);
  return cache;
}

/**
 * Counts the requests whose path matches, through the service's fault injection: a latency rule of 0 ms
 * changes nothing but counts its hits (read back from the service).
 */
async function countRequests(path: string): Promise<() => Promise<number>> {
  const response = await service.request('POST', '/__admin/faults', { json: { kind: 'latency', ms: 0, path } });
  expect(response.status).toBe(201);
  const { id } = (await response.json()) as { id: number };
  return async () => {
    const rules = (await (await service.request('GET', '/__admin/faults')).json()) as { id: number; hits: number }[];
    return rules.find((rule) => rule.id === id)!.hits;
  };
}

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  ownerToken = service.addUser('own-maker').token;
  otherToken = service.addUser('someone-else').token;
  const owner = client();
  for (let i = 0; i < 2; i++) {
    const design = await owner.createDesign({ name: `Own bracket ${i}`, excerpt: 'mine' });
    await owner.uploadImage(design.id, { path: join(FIXTURES, 'images', 'jpg-sample.jpg') });
    await owner.uploadDocument(design.id, { path: join(FIXTURES, 'models', 'cube.stl') });
    await owner.publishDesign(design.id);
    own.published.push(design.id);
  }
  const draft = await owner.createDesign({ name: 'Own secret draft', excerpt: 'not published' });
  await owner.uploadImage(draft.id, { path: join(FIXTURES, 'images', 'png-sample.png') });
  own.draft = draft.id;
  const other = client(otherToken);
  for (let i = 0; i < 3; i++) {
    const design = await other.createDesign({ name: `Someone's clip ${i}`, excerpt: 'theirs' });
    await other.uploadImage(design.id, { path: join(FIXTURES, 'images', 'jpg-sample.jpg') });
    await other.publishDesign(design.id);
    others.push(design.id);
  }
});

afterEach(async () => {
  await service.request('DELETE', '/__admin/faults');
});

afterAll(async () => {
  for (const cache of caches) cache.close();
  await service?.stop().catch(() => {});
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('pullOwnDesigns', () => {
  it('brings the own designs, drafts included, with their images, documents and covers, and never reads the public listing', async () => {
    const cache = freshCache();
    const listing = await countRequests('^/v1/designs$');
    const imageLists = await countRequests('^/v1/designs/\\d+/images$');
    const progress: PullProgress[] = [];
    const summary = await pullOwnDesigns(client(), cache.db, cache.files, { onProgress: (p) => { progress.push(p); } });

    expect(summary.warnings).toEqual([]);
    expect(summary.signedInAs).toBe('own-maker');
    expect(summary.ownDesigns).toMatchObject({ inserted: 3, updated: 0, unchanged: 0, removed: 0 });
    expect(summary.designs).toEqual({ inserted: 0, updated: 0, unchanged: 0, removed: 0, skipped: 0 });
    expect(summary.listingComplete).toBe(false);
    expect(summary.images).toMatchObject({ designsChecked: 3, documentsChecked: 3 });
    expect(summary.files.downloaded).toBe(6); // grid + large of 3 covers
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['own-designs', 'images', 'done']));
    expect(progress.map((p) => p.phase)).not.toContain('designs');

    expect(await listing()).toBe(0);
    expect(await imageLists()).toBe(3); // the own designs' only
    expect(countCachedDesigns(cache.reader)).toBe(3);
    for (const id of others) expect(getCachedDesign(cache.reader, id)).toBeNull();

    const refs = ownDesignRefs(cache.reader);
    expect(refs.map((ref) => ref.id)).toEqual([...own.published, own.draft].sort((a, b) => a - b));
    expect(refs.find((ref) => ref.id === own.draft)).toMatchObject({ name: 'Own secret draft', slug: expect.any(String), created_at: expect.any(String) });
    const assignable: OwnDesignRef[] = refs;
    expect(assignable).toHaveLength(3);

    const draft = getCachedDesign(cache.reader, own.draft, { fileRoot: cache.files.root })!;
    expect(draft.summary).toMatchObject({ state: 'draft', own: true, author: 'own-maker' });
    expect(existsSync(coverImage(draft)!.localFiles.large!)).toBe(true);
    const bracket = getCachedDesign(cache.reader, own.published[0]!, { fileRoot: cache.files.root })!;
    expect(bracket.documents.map((d) => d.name)).toEqual(['cube.stl']);
    expect(existsSync(coverImage(bracket)!.localFiles.grid!)).toBe(true);
  });

  it('in a cache that holds the catalogue too, lists the images of own designs only (no prefetch of other people\'s)', async () => {
    const cache = freshCache();
    // The catalogue, read signed out and without any image prefetch: other people's designs have covers not read yet.
    await pullDesigns(client(null), cache.db, cache.files, { imagePrefetchLimit: 0 });
    for (const id of others) expect(getCachedDesign(cache.reader, id)!.images).toHaveLength(0);
    const imageLists = await countRequests('^/v1/designs/\\d+/images$');
    const summary = await pullOwnDesigns(client(), cache.db, cache.files);
    expect(summary.images.designsChecked).toBe(3);
    expect(await imageLists()).toBe(3);
    for (const id of others) expect(getCachedDesign(cache.reader, id)!.images).toHaveLength(0);
    // The published own designs it already had as listed are now own too; nothing else changed ownership.
    expect(ownDesignRefs(cache.reader).map((ref) => ref.id)).toEqual([...own.published, own.draft].sort((a, b) => a - b));
  });

  it('with nothing changed, writes no row and downloads nothing (conditional GETs)', async () => {
    const cache = freshCache();
    await pullOwnDesigns(client(), cache.db, cache.files);
    const again = await pullOwnDesigns(client(), cache.db, cache.files);
    expect(again.ownDesigns).toMatchObject({ inserted: 0, updated: 0, unchanged: 3, removed: 0 });
    expect(again.images).toMatchObject({ designsChecked: 3, notModified: 3, rowsWritten: 0 });
    expect(again.files).toMatchObject({ downloaded: 0, alreadyCached: 6 });
  });

  it('releases an own design gone from the user\'s listing that the cache has as published, and removes one it has not', async () => {
    const owner = client();
    const listed = await owner.createDesign({ name: 'Soon gone, published', excerpt: 'x' });
    await owner.publishDesign(listed.id);
    const draft = await owner.createDesign({ name: 'Soon gone, draft', excerpt: 'x' });
    const cache = freshCache();
    // A full pull first: the published one is in the cache's copy of the listing (in_listing = 1).
    await pullDesigns(client(), cache.db, cache.files);
    expect(getCachedDesign(cache.reader, listed.id)!.summary.own).toBe(true);
    expect(getCachedDesign(cache.reader, draft.id)!.summary.own).toBe(true);

    await owner.deleteDesign(listed.id);
    await owner.deleteDesign(draft.id);
    const summary = await pullOwnDesigns(client(), cache.db, cache.files);
    expect(summary.ownDesigns).toMatchObject({ removed: 1 });
    expect(summary.removalsWithheld).toBe(0);
    expect(getCachedDesign(cache.reader, draft.id)).toBeNull();
    // Kept as a published design (no longer own) until the catalogue's own pull sees it gone.
    expect(getCachedDesign(cache.reader, listed.id)!.summary.own).toBe(false);
    expect(ownDesignRefs(cache.reader).map((ref) => ref.id)).not.toContain(listed.id);
    expect(ownDesignRefs(cache.reader).map((ref) => ref.id)).not.toContain(draft.id);

    const full = await pullDesigns(client(), cache.db, cache.files);
    expect(full.designs.removed).toBe(1);
    expect(getCachedDesign(cache.reader, listed.id)).toBeNull();
  });

  it('keeps the shrink guard: a user\'s listing that suddenly lost most designs removes nothing', async () => {
    const token = service.addUser('shrinker').token;
    const shrinker = client(token);
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push((await shrinker.createDesign({ name: `Shrinking ${i}`, excerpt: 'x' })).id);
    const cache = freshCache();
    const options = { shrinkGuardMinimum: 2, maxShrinkRatio: 0.5 };
    await pullOwnDesigns(client(token), cache.db, cache.files, options);
    for (const id of ids.slice(1)) await shrinker.deleteDesign(id);

    const summary = await pullOwnDesigns(client(token), cache.db, cache.files, options);
    expect(summary.ownDesigns).toMatchObject({ removed: 0 });
    expect(summary.removalsWithheld).toBe(3);
    expect(summary.warnings.join('\n')).toMatch(/listed as yours 1 designs where the cache holds 4.*no design was removed/);
    expect(ownDesignRefs(cache.reader)).toHaveLength(4);
  });

  it('throws when the own designs cannot be read, keeping the cache as it was', async () => {
    const cache = freshCache();
    await pullOwnDesigns(client(), cache.db, cache.files);
    const before = ownDesignRefs(cache.reader);

    const response = await service.request('POST', '/__admin/faults', { json: { kind: 'status', status: 500, path: '^/v1/users/\\d+/designs$', count: 10 } });
    expect(response.status).toBe(201);
    await expect(pullOwnDesigns(client(), cache.db, cache.files)).rejects.toMatchObject({ problem: { kind: 'server-error' } });
    expect(ownDesignRefs(cache.reader)).toEqual(before);
  });

  it('not signed in: throws a token-rejected ServiceError without sending anything', async () => {
    const cache = freshCache();
    const whoami = await countRequests('^/v1/user/whoami$');
    await expect(pullOwnDesigns(client(null), cache.db, cache.files)).rejects.toMatchObject({ name: 'ServiceError', problem: { kind: 'token-rejected' } });
    expect(await whoami()).toBe(0);
    expect(countCachedDesigns(cache.reader)).toBe(0);
  });

  it('a revoked token: throws the service\'s token-rejected answer', async () => {
    const cache = freshCache();
    await expect(pullOwnDesigns(client('not-a-real-token'), cache.db, cache.files)).rejects.toMatchObject({ problem: { kind: 'token-rejected' } });
  });
});
