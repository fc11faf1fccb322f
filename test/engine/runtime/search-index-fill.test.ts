import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outcome, RequestResult } from '../../../shared';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { openDesignCache, type DesignCache } from '../../../electron/engine/cache/design-cache';
import { countCachedDesigns } from '../../../electron/engine/cache/design-reads';
import { pullDesigns } from '../../../electron/engine/cache/pull';
import { pauseSearchIndexMerges, setAsideIndexesLeft } from '../../../electron/engine/cache/bulk-fill';
import { holdCheckpoints, PULL_WAL_CHECKPOINT_PAGES } from '../../../electron/engine/cache/checkpoint-hold';
import { searchBacklogSize, writeBackloggedSearchRows } from '../../../electron/engine/cache/search-backlog';
import { mergeSearchIndexStep } from '../../../electron/engine/cache/search-rows';
import { searchTermsDeferred } from '../../../electron/engine/cache/search-terms';
import type { EventMessage } from '../../../electron/engine/contract/contract-endpoint';
import { createContractEndpoint } from '../../../electron/engine/contract/create-contract-endpoint';
import { subscribeToEngine } from '../../../electron/engine/contract/engine-events';
import type { DesignsChange } from '../../../electron/engine/runtime/design-changes';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { SearchIndexFill } from '../../../electron/engine/runtime/search-index-fill';
import { memorySettingsStore } from '../../../electron/engine/settings/settings-store';
import { seedSynthetic } from '../../../service/seed/synthetic-seed';
import { startTestService, type TestService } from '../../../harness/local-service';
import { searchIndexTerms, tempDir } from '../cache/cache-fixtures';
import { servicesOf } from '../../../electron/engine/composition/engine-services';

/** Every synthetic design's description says "Synthetic benchmark design": a search that finds them all. */
const DESIGNS = 250;
const EVERY_DESIGN = 'synthetic';

let service: TestService;
const dirs: string[] = [];
const caches: DesignCache[] = [];

function scratchCache(): DesignCache {
  const dir = tempDir('search-fill');
  dirs.push(dir);
  const cache = openDesignCache({ cacheDatabase: join(dir, 'cache.sqlite'), fileCache: join(dir, 'files') });
  caches.push(cache);
  return cache;
}

const client = () => new ServiceClient({ baseUrl: service.url, token: () => null });
const found = (cache: DesignCache) => countCachedDesigns(cache.reader, { query: EVERY_DESIGN });

async function pulledBehind(): Promise<DesignCache> {
  const cache = scratchCache();
  const summary = await pullDesigns(client(), cache.db, cache.files, { pageSize: 40, searchRows: 'behind', imagePrefetchLimit: 0 });
  expect(summary.designs.inserted).toBe(DESIGNS);
  return cache;
}

/** The search index as a search reads it: every row's terms, and the vocabulary of whole terms. */
function searchIndexOf(cache: DesignCache) {
  return {
    rows: searchIndexTerms(cache.db),
    terms: cache.db.prepare('SELECT term FROM search_terms ORDER BY term').all(),
  };
}

beforeAll(async () => {
  service = await startTestService();
  seedSynthetic(service.ctx, DESIGNS);
}, 60_000);

afterAll(async () => {
  for (const cache of caches) cache.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await service?.stop();
});

describe('the search index filled behind the catalogue\'s pull', () => {
  it('a pull that leaves the search rows behind it writes every design, and none of them is searchable yet', async () => {
    const cache = await pulledBehind();
    expect(cache.db.prepare('SELECT count(*) AS n FROM designs').get()).toEqual({ n: DESIGNS });
    expect(searchBacklogSize(cache.db)).toBe(DESIGNS);
    expect(found(cache)).toBe(0);
  });

  it('is filled a slice at a time, the engine\'s other work running between slices, search finding more each time', async () => {
    const cache = await pulledBehind();
    const seenBetweenSlices: number[] = [];
    const fill = new SearchIndexFill(cache.db, {
      sliceDesigns: 100,
      // What a request arriving between two slices would see.
      nextTurn: async () => void seenBetweenSlices.push(found(cache)),
    });
    const waiting: number[] = [];
    fill.on('progress', (progress) => waiting.push(progress.waiting));
    let filled = 0;
    fill.on('filled', () => filled++);
    expect(fill.waiting()).toBe(DESIGNS);

    fill.start();
    await fill.whenIdle();

    expect(seenBetweenSlices.slice(0, 3)).toEqual([0, 100, 200]);
    expect(waiting).toEqual([150, 50, 0]);
    expect(filled).toBe(1);
    expect(found(cache)).toBe(DESIGNS);
  });

  it('makes the same search index as a pull that writes it at the end of its walk', async () => {
    const behind = await pulledBehind();
    const fill = new SearchIndexFill(behind.db, { sliceDesigns: 64 });
    fill.start();
    await fill.whenIdle();
    const atWalkEnd = scratchCache();
    await pullDesigns(client(), atWalkEnd.db, atWalkEnd.files, { pageSize: 40, imagePrefetchLimit: 0 });
    expect(searchBacklogSize(atWalkEnd.db)).toBe(0);
    expect(searchIndexOf(behind)).toEqual(searchIndexOf(atWalkEnd));
    expect(() => behind.db.prepare(`INSERT INTO designs_fts (designs_fts) VALUES ('integrity-check')`).run()).not.toThrow();
  });

  it('behind a bulk fill, makes the same search index as a pull that writes it at the end of its walk, then the indexes it set aside, on their thread', async () => {
    const cache = scratchCache();
    await pullDesigns(client(), cache.db, cache.files, { pageSize: 40, searchRows: 'behind', bulkFillFrom: 100, imagePrefetchLimit: 0 });
    expect(setAsideIndexesLeft(cache.db)).toBeGreaterThan(0);
    const fill = new SearchIndexFill(cache.db, { sliceDesigns: 64 });
    fill.start();
    await fill.whenIdle();
    expect(setAsideIndexesLeft(cache.db)).toBe(0);
    expect(searchBacklogSize(cache.db)).toBe(0);
    const atWalkEnd = scratchCache();
    await pullDesigns(client(), atWalkEnd.db, atWalkEnd.files, { pageSize: 40, imagePrefetchLimit: 0 });
    expect(searchIndexOf(cache)).toEqual(searchIndexOf(atWalkEnd));
    expect(found(cache)).toBe(DESIGNS);
  });

  it('leaves the WAL to grow until every design is searchable, then gives the connection its own checkpoint setting back, also when a pull held it too', async () => {
    const cache = await pulledBehind();
    const autocheckpoint = () => cache.db.pragma('wal_autocheckpoint', { simple: true }) as number;
    const own = autocheckpoint();
    const seen: number[] = [];
    const fill = new SearchIndexFill(cache.db, { sliceDesigns: 64, nextTurn: async () => void seen.push(autocheckpoint()) });
    fill.once('filled', () => seen.push(-autocheckpoint()));
    fill.start();
    await fill.whenIdle();
    const filledAt = seen.findIndex((value) => value < 0);
    expect(filledAt).toBeGreaterThan(0);
    expect(new Set(seen.slice(0, filledAt))).toEqual(new Set([PULL_WAL_CHECKPOINT_PAGES]));
    expect(autocheckpoint()).toBe(own);

    // A pull that holds checkpoints back while a fill does: the setting comes back only when both let go, in either order.
    for (const order of [['fill', 'pull'], ['pull', 'fill']]) {
      const releases = { fill: holdCheckpoints(cache.db), pull: holdCheckpoints(cache.db) };
      releases[order[0] as 'fill']();
      releases[order[0] as 'fill']();
      expect(autocheckpoint()).toBe(PULL_WAL_CHECKPOINT_PAGES);
      releases[order[1] as 'pull']();
      expect(autocheckpoint()).toBe(own);
    }
  });

  it('a pull that comes while the terms of a fill wait leaves them to the next fill, which notes them though it has no rows to write', async () => {
    const cache = await pulledBehind();
    writeBackloggedSearchRows(cache.db, DESIGNS, 'after-fill');
    expect(searchTermsDeferred(cache.db)).toBe(true);
    // The catalogue pulled again before the fill noted its terms: nothing new, the terms still wait.
    await pullDesigns(client(), cache.db, cache.files, { pageSize: 40, searchRows: 'behind', imagePrefetchLimit: 0 });
    expect(searchTermsDeferred(cache.db)).toBe(true);
    expect(searchBacklogSize(cache.db)).toBe(0);

    const fill = new SearchIndexFill(cache.db);
    let filled = 0;
    fill.on('filled', () => filled++);
    fill.start();
    await fill.whenIdle();
    expect(searchTermsDeferred(cache.db)).toBe(false);
    expect(filled).toBe(1);
    const atWalkEnd = scratchCache();
    await pullDesigns(client(), atWalkEnd.db, atWalkEnd.files, { pageSize: 40, imagePrefetchLimit: 0 });
    expect(searchIndexOf(cache)).toEqual(searchIndexOf(atWalkEnd));
  });

  it('a large backlog is written with the index\'s merges paused, merged once at the end, the merges given back', async () => {
    const cache = await pulledBehind();
    const automerge = () => (cache.db.prepare(`SELECT v FROM designs_fts_config WHERE k = 'automerge'`).get() as { v: number } | undefined)?.v;
    const during: (number | undefined)[] = [];
    const fill = new SearchIndexFill(cache.db, { sliceDesigns: 50, pauseMergesFrom: 200, nextTurn: async () => void during.push(automerge()) });
    fill.start();
    await fill.whenIdle();
    // Paused from the first slice on; the default (4) back once the backlog is written.
    expect(during.slice(1, 5)).toEqual([0, 0, 0, 0]);
    expect(automerge()).toBe(4);
    expect(cache.db.prepare('SELECT count(*) AS n FROM bulk_fill_undo').get()).toEqual({ n: 0 });
    expect(found(cache)).toBe(DESIGNS);
  });

  it('merges the index\'s segments a step at a time until one step finds nothing left to merge', async () => {
    const cache = await pulledBehind();
    // A segment for each batch of 10, none merged.
    pauseSearchIndexMerges(cache.db);
    while (writeBackloggedSearchRows(cache.db, 10).more);
    const steps: number[] = [];
    for (let changed = Infinity; changed >= 2 && steps.length < 1_000;) steps.push((changed = mergeSearchIndexStep(cache.db, 20)));
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.at(-1)).toBeLessThan(2);
    expect(mergeSearchIndexStep(cache.db, 20)).toBeLessThan(2);
    expect(() => cache.db.prepare(`INSERT INTO designs_fts (designs_fts) VALUES ('integrity-check')`).run()).not.toThrow();
    expect(found(cache)).toBe(DESIGNS);
  });

  it('waits while a pull writes, and goes on where it stopped when started again', async () => {
    const cache = await pulledBehind();
    let pulling = false;
    let pullStarted = false;
    const fill = new SearchIndexFill(cache.db, {
      sliceDesigns: 100,
      paused: () => pulling,
      nextTurn: async () => {
        // A pull starts after the first slice.
        if (!pullStarted && found(cache) === 100) pulling = pullStarted = true;
      },
    });
    fill.start();
    await fill.whenIdle();
    expect(fill.filling).toBe(false);
    expect(found(cache)).toBe(100);
    expect(searchBacklogSize(cache.db)).toBe(DESIGNS - 100);

    pulling = false;
    fill.start();
    await fill.whenIdle();
    expect(found(cache)).toBe(DESIGNS);
  });

  it('writes a backlog of more slices than it may add segments in larger slices (FTS5 holds 2,000 at most)', async () => {
    const cache = await pulledBehind();
    const slices: number[] = [];
    const fill = new SearchIndexFill(cache.db, { sliceDesigns: 1, maxSlices: 100 });
    fill.on('progress', ({ waiting }) => slices.push(waiting));
    fill.start();
    await fill.whenIdle();
    expect(found(cache)).toBe(DESIGNS);
    expect(slices.length).toBe(Math.ceil(DESIGNS / Math.ceil(DESIGNS / 100)));
    expect(slices.length).toBeLessThanOrEqual(100);
  });

  it('stopped between two slices (the engine closing), leaves the rest in the backlog for the next run', async () => {
    const cache = await pulledBehind();
    let slices = 0;
    const fill = new SearchIndexFill(cache.db, { sliceDesigns: 100 });
    fill.on('progress', () => {
      slices++;
      if (slices === 1) void fill.stop();
    });
    fill.start();
    await fill.whenIdle();
    expect(found(cache)).toBe(100);
    // Stopped for good: asking again does nothing.
    fill.start();
    await fill.whenIdle();
    expect(found(cache)).toBe(100);

    const next = new SearchIndexFill(cache.db);
    expect(next.waiting()).toBe(DESIGNS - 100);
    next.start();
    await next.whenIdle();
    expect(found(cache)).toBe(DESIGNS);
  });
});

describe('the engine\'s library while the search index is filled', () => {
  it('says how many designs a search could not see yet, then tells the window the designs changed once they are searchable', async () => {
    const profile = tempDir('search-fill-engine');
    dirs.push(profile);
    const engine = await openEngine({
      profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test',
      tokenStore: () => new MemoryTokenStore(null), settingsStore: () => memorySettingsStore(),
    });
    const endpoint = createContractEndpoint(engine);
    const cleanups: (() => void)[] = [];
    try {
      const page = async (query: string) => {
        const outcome = (await endpoint.handle('library.page', { query, limit: 5 })) as Outcome<RequestResult<'library.page'>>;
        if (!outcome.ok) throw new Error(outcome.problem.message);
        return { total: outcome.value.total, notSearchedYet: outcome.value.notSearchedYet };
      };
      const filled = new Promise<void>((resolve) => engine.searchIndex.once('filled', resolve));
      const indexing: unknown[] = [];
      const unsubscribe = subscribeToEngine(servicesOf(engine), (event: EventMessage) => {
        if (event.name === 'search.indexing') indexing.push(event.payload);
      });
      cleanups.push(unsubscribe);

      await engine.catalogue.pullNow();
      const changes: DesignsChange[] = [];
      engine.changes.on('designs', (change) => changes.push(change));
      // The pull is over and the fill's first slice waits for the event loop's next turn: what a page says now.
      const { library } = servicesOf(engine);
      const now = (query: string) => library.page({ query, licenses: [] }, 'newest', 0, 5);
      expect(now(EVERY_DESIGN)).toMatchObject({ total: 0, notSearchedYet: DESIGNS });
      // Browsing is not searching: nothing to say there.
      expect(now('')).toMatchObject({ total: DESIGNS, notSearchedYet: 0 });

      await filled;
      expect(changes).toContainEqual({ ids: [], removed: [], all: true });
      expect(await page(EVERY_DESIGN)).toEqual({ total: DESIGNS, notSearchedYet: 0 });
      // The window heard the index grow, and that it is done (the rest of its progress at most once a second).
      expect(indexing.at(-1)).toEqual({ waiting: 0 });
    } finally {
      for (const cleanup of cleanups.splice(0)) cleanup();
      await endpoint.close();
      await engine.close();
    }
  });
});
