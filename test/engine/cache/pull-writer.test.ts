import { spawn } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { openDesignCache, type DesignCache } from '../../../electron/engine/cache/design-cache';
import { getCachedDesign, listCachedDesigns, searchCachedDesigns } from '../../../electron/engine/cache/design-reads';
import type { UpsertResult } from '../../../electron/engine/cache/design-writes';
import { pullDesigns } from '../../../electron/engine/cache/pull';
import { PullWriter } from '../../../electron/engine/cache/pull-writer';
import { runningCheckpointThreads } from '../../../electron/engine/cache/checkpoint-thread';
import { runningIndexThreads } from '../../../electron/engine/cache/index-thread';
import { searchBacklogSize } from '../../../electron/engine/cache/search-backlog';
import { beginBulkFill, INDEXES_SET_ASIDE_FOR_BULK_FILL, resumeSearchIndexMerges } from '../../../electron/engine/cache/bulk-fill';
import { SearchIndexFill } from '../../../electron/engine/runtime/search-index-fill';
import { startTestService, type TestService } from '../../../harness/local-service';
import { sendJson, sendText, useMisbehavingServices } from '../../support/misbehaving-service';
import { dumpDesignWrites, listFormDesign, tempDir } from './cache-fixtures';

const dirs: string[] = [];
const caches: DesignCache[] = [];

function scratchCache(): DesignCache {
  const dir = tempDir('pull-writer');
  dirs.push(dir);
  const cache = openDesignCache({ cacheDatabase: join(dir, 'cache.sqlite'), fileCache: join(dir, 'files') });
  caches.push(cache);
  return cache;
}

afterAll(() => {
  for (const cache of caches) cache.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const dump = (cache: DesignCache) => dumpDesignWrites(cache.db);

const PAGES: unknown[][] = [
  [
    listFormDesign({ id: 30, name: 'Planetary gear', tags: ['gear', { id: 4, name: 'Mechanical', taggings_count: 9 }] }),
    listFormDesign({ id: 10, description: '<p>A <b>hinge</b> &amp; pin</p>', user: { id: 8, screen_name: 'other' } }),
    { id: 11, name: 42 },
    'not a design',
  ],
  [listFormDesign({ id: 20, tags: ['GEAR', 'clip'] }), listFormDesign({ id: 10, excerpt: 'updated', updated_at: '2026-02-01T10:00:00.000+00:00' })],
  [listFormDesign({ id: 40 }), listFormDesign({ id: 40, name: 'twice in one page' })],
];

async function writeWalk(writer: PullWriter, cache: DesignCache): Promise<UpsertResult[][]> {
  const results: UpsertResult[][] = [];
  for (const page of PAGES) results.push(await writer.write(page, 'list', 1_700_000_000_000, { inListing: true }).results);
  await writer.endWalk();
  await writer.close();
  expect(cache.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  return results;
}

describe('the pull\'s writer', () => {
  const fileHoldsEveryPage = (cache: DesignCache) => statSync(cache.db.name).size
    === (cache.db.pragma('page_count', { simple: true }) as number) * (cache.db.pragma('page_size', { simple: true }) as number);

  it('with a checkpoint thread, writes a walk exactly as without one, checkpointing between pages; a page that comes meanwhile is written after it, in order', async () => {
    const alone = scratchCache();
    const withoutThread = await writeWalk(new PullWriter(alone.db, { checkpointThreadFrom: Number.POSITIVE_INFINITY }), alone);

    const cache = scratchCache();
    // A commit after each design, and a checkpoint after every two.
    const writer = new PullWriter(cache.db, { checkpointThreadFrom: 0, checkpointEveryDesigns: 2, commitEveryDesigns: 1 });
    writer.expect(1);
    expect(await writer.threadReady()).toBe(true);
    expect(runningCheckpointThreads()).toBe(1);
    const at = 1_700_000_000_000;
    const first = writer.write(PAGES[0]!, 'list', at, { inListing: true });
    expect(first.settled).toBe(true);
    // The first page began a checkpoint: the next pages wait for it, and are written in the order they came.
    const second = writer.write(PAGES[1]!, 'list', at, { inListing: true });
    const third = writer.write(PAGES[2]!, 'list', at, { inListing: true });
    expect([second.settled, third.settled]).toEqual([false, false]);
    const withThread = [await first.results, await second.results, await third.results];
    expect([second.settled, third.settled]).toEqual([true, true]);
    await writer.endWalk();
    await writer.close();

    expect(runningCheckpointThreads()).toBe(0);
    expect(withThread).toEqual(withoutThread);
    expect(withoutThread[1]!.map((result) => result.outcome)).toEqual(['inserted', 'updated']);
    expect(dump(cache)).toEqual(dump(alone));
    expect(searchCachedDesigns(cache.reader, 'updated').items.map((design) => design.id)).toEqual([10]);
    // Checkpointed at the end too: nothing it wrote is left in the WAL for the engine's next commit to copy.
    expect(fileHoldsEveryPage(cache)).toBe(true);
    expect(cache.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('starts no checkpoint thread for a small listing, nor for a database no second connection can open', async () => {
    const cache = scratchCache();
    const small = new PullWriter(cache.db);
    small.expect(50);
    expect(await small.threadReady()).toBe(false);
    await small.close();

    const memory = openDesignCache({ cacheDatabase: ':memory:', fileCache: join(tempDir('pull-writer-memory'), 'files') });
    caches.push(memory);
    const writer = new PullWriter(memory.db, { checkpointThreadFrom: 0 });
    writer.expect(10_000);
    expect(await writer.threadReady()).toBe(false);
    expect(runningCheckpointThreads()).toBe(0);
    await writeWalk(writer, memory);
    expect(listCachedDesigns(memory.reader, { limit: 10 }).map((design) => design.id)).toEqual(expect.arrayContaining([10, 20, 30, 40]));
  });

  it('waits for another connection that is writing (its busy timeout) rather than failing at once', async () => {
    const cache = scratchCache();
    const at = 1_700_000_000_000;
    const first = new PullWriter(cache.db);
    await first.write([listFormDesign({ id: 1 })], 'list', at, { inListing: true }).results;
    await first.close();
    // Another process holds the write lock for 300 ms (as the index thread does while it makes an index).
    const holder = spawn(process.execPath, ['-e', `
      const db = new (require('better-sqlite3'))(process.argv[1]);
      db.exec('BEGIN IMMEDIATE');
      db.prepare('UPDATE designs SET name = name WHERE id = 1').run();
      process.stdout.write('locked\\n');
      setTimeout(() => { db.exec('COMMIT'); db.close(); }, 300);
    `, cache.db.name], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      holder.stdout!.once('data', () => resolve());
      holder.once('exit', () => reject(new Error('the holder ended before it held the lock')));
    });
    // The page reads the design it changes before writing it: begun deferred, that write failed at once ("database is locked").
    const writer = new PullWriter(cache.db);
    const results = await writer.write([listFormDesign({ id: 1, name: 'Renamed', updated_at: '2026-03-01T00:00:00.000+00:00' })], 'list', at, { inListing: true }).results;
    await writer.close();
    await exited;
    expect(results.map((result) => result.outcome)).toEqual(['updated']);
    expect(cache.db.prepare('SELECT name FROM designs WHERE id = 1').pluck().get()).toBe('Renamed');
  });

  it('on the main thread, a page that fails is rolled back alone; the pages before and after it are committed for other connections', async () => {
    const cache = scratchCache();
    // The database refuses design 666 (as a full disk or a broken row would fail a page part-way).
    cache.db.exec(`CREATE TEMP TRIGGER refuse_666 BEFORE INSERT ON designs WHEN NEW.id = 666 BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    const writer = new PullWriter(cache.db);
    const at = 1_700_000_000_000;
    await writer.write([listFormDesign({ id: 1 }), listFormDesign({ id: 2 })], 'list', at, { inListing: true }).results;
    await expect(writer.write([listFormDesign({ id: 3 }), listFormDesign({ id: 666 })], 'list', at, { inListing: true }).results).rejects.toThrow('refused');
    await writer.write([listFormDesign({ id: 4, name: 'After the failure' })], 'list', at, { inListing: true }).results;
    await writer.endWalk();
    await writer.close();

    expect(cache.db.inTransaction).toBe(false);
    const other = new Database(cache.db.name, { readonly: true });
    try {
      expect(other.prepare('SELECT id FROM designs ORDER BY id').pluck().all()).toEqual([1, 2, 4]);
      expect(other.prepare(`SELECT rowid FROM designs_fts WHERE designs_fts MATCH '"failure"'`).pluck().all()).toEqual([4]);
    } finally {
      other.close();
    }
  });
});

const serviceOfItsOwnWriting = useMisbehavingServices(afterEach);

describe('a pull', () => {
  /** Designs written as a service may write them: indented, characters escaped, a count past what a double holds. */
  const WRITTEN = [
    `{"id": 7, "name": "Caf\\u00e9 \\"table\\"", "updated_at": "2026-01-01T00:00:00.000+00:00", "download_count": 12345678901234567891,
     "tags": [{"id": 3, "name": "furniture", "taggings_count": 1.0}]}`,
    '{"id":8,"name":"Stool","excerpt":"a [short] one, with {braces}","updated_at":"2026-01-01T00:00:00.000+00:00"}',
  ];
  const LISTING = `\uFEFF[\n  ${WRITTEN.join(' ,\n  ')}\n]\n`;

  const stored = (cache: DesignCache) => (cache.db.prepare('SELECT list_json FROM designs ORDER BY id').all() as { list_json: string }[]).map((row) => row.list_json);
  const readBack = (cache: DesignCache) => [7, 8].map((id) => getCachedDesign(cache.reader, id)!.forms.list);

  it('keeps each design as the service sent it, one with a number past what a double holds as the service wrote it', async () => {
    const service = await serviceOfItsOwnWriting((_request, response, seen) => {
      if (seen.path === '/v1/designs') sendText(response, LISTING, 200, 'application/json; charset=utf-8');
      else sendJson(response, { error: 'Not found' }, 404);
    });
    const cache = scratchCache();
    const summary = await pullDesigns(new ServiceClient({ baseUrl: service.url, token: () => null }), cache.db, cache.files, { pageSize: 10 });
    expect(summary.designs).toMatchObject({ inserted: 2, skipped: 0 });
    expect(readBack(cache)).toEqual(WRITTEN.map((text) => JSON.parse(text)));
    expect(stored(cache)[0]).toBe(WRITTEN[0]);
    expect(listCachedDesigns(cache.reader, { limit: 10 }).map((design) => design.name)).toEqual(['Stool', 'Café "table"']);
  });

  it('writes them out itself when their texts are not known', async () => {
    const items = JSON.parse(LISTING.slice(1)) as unknown[];
    const cache = scratchCache();
    const writer = new PullWriter(cache.db);
    await writer.write(items, 'list', 1_700_000_000_000, { inListing: true }).results;
    await writer.endWalk();
    await writer.close();
    expect(readBack(cache)).toEqual(items);
  });
});

describe('a pull of a listing large enough for a checkpoint thread', () => {
  let service: TestService;
  let client: ServiceClient;
  const DESIGNS = 40;

  beforeAll(async () => {
    service = await startTestService({ faultInjection: true });
    const token = service.addUser('maker').token;
    const maker = new ServiceClient({ baseUrl: service.url, token: () => token, timeoutMs: 5_000 });
    for (let i = 0; i < DESIGNS; i++) {
      const design = await maker.createDesign({ name: `Bracket ${i}`, excerpt: `Shelf bracket number ${i}` });
      await maker.publishDesign(design.id);
    }
    client = new ServiceClient({ baseUrl: service.url, token: () => null, timeoutMs: 5_000 });
  });

  afterAll(async () => {
    await service?.request('DELETE', '/__admin/faults');
    await service?.stop().catch(() => {});
  });

  /** Slow listing pages, so that the thread (started at the first page) is ready part-way through the walk. */
  async function slowListing() {
    await service.request('DELETE', '/__admin/faults');
    expect((await service.request('POST', '/__admin/faults', { json: { kind: 'latency', ms: 60, path: '^/v1/designs$' } })).status).toBe(201);
  }

  it('caches every design, searchable, and ends its thread; the next pull writes nothing', async () => {
    await slowListing();
    const cache = scratchCache();
    const summary = await pullDesigns(client, cache.db, cache.files, { pageSize: 1, checkpointThreadFrom: 0 });
    expect(runningCheckpointThreads()).toBe(0);
    expect(summary.listingComplete).toBe(true);
    expect(summary.designs).toMatchObject({ inserted: DESIGNS, updated: 0, skipped: 0 });
    expect(listCachedDesigns(cache.reader, { limit: 100 })).toHaveLength(DESIGNS);
    expect(searchCachedDesigns(cache.reader, 'shelf bracket', { limit: 100 }).items).toHaveLength(DESIGNS);
    expect(cache.db.prepare('SELECT count(*) AS n FROM search_backlog').get()).toEqual({ n: 0 });

    const again = await pullDesigns(client, cache.db, cache.files, { pageSize: 10, checkpointThreadFrom: 0 });
    expect(again.designs).toMatchObject({ inserted: 0, updated: 0, unchanged: DESIGNS, removed: 0 });
    expect(runningCheckpointThreads()).toBe(0);
  });

  it('with its checkpoint thread, leaves what it wrote checkpointed into the database: the engine\'s next commit copies none of it', async () => {
    await slowListing();
    const cache = scratchCache();
    const fileHoldsEveryPage = () => statSync(cache.db.name).size
      === (cache.db.pragma('page_count', { simple: true }) as number) * (cache.db.pragma('page_size', { simple: true }) as number);
    await pullDesigns(client, cache.db, cache.files, { pageSize: 10, checkpointThreadFrom: 0, searchRows: 'behind' });
    expect(fileHoldsEveryPage()).toBe(true);

    // Without it the checkpoint is left to the next commit, as SQLite does (one checkpoint, not one per 1000 pages).
    const here = scratchCache();
    await pullDesigns(client, here.db, here.files, { pageSize: 10, checkpointThreadFrom: Number.POSITIVE_INFINITY, searchRows: 'behind' });
    const hereHoldsEveryPage = statSync(here.db.name).size
      === (here.db.pragma('page_count', { simple: true }) as number) * (here.db.pragma('page_size', { simple: true }) as number);
    expect(hereHoldsEveryPage).toBe(false);
  });

  it('does not hold the cache\'s write lock while it waits for the next page', async () => {
    await slowListing();
    const cache = scratchCache();
    // Another connection, as another process on the same profile has: it must get to write while the walk waits.
    const other = new Database(cache.db.name);
    other.pragma('busy_timeout = 0');
    let wroteDuringWalk = false;
    let walking = true;
    const tryWriting = async () => {
      const deadline = Date.now() + 10_000;
      while (walking && !wroteDuringWalk && Date.now() < deadline) {
        try {
          other.exec('BEGIN IMMEDIATE; COMMIT');
          wroteDuringWalk = true;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    };
    let trying: Promise<void> | null = null;
    try {
      await pullDesigns(client, cache.db, cache.files, {
        pageSize: 5, checkpointThreadFrom: Number.POSITIVE_INFINITY,
        onProgress: (p) => { if (p.phase === 'designs' && p.done > 0 && !trying) trying = tryWriting(); },
      });
      walking = false;
      await trying;
      expect(wroteDuringWalk).toBe(true);
      expect(listCachedDesigns(cache.reader, { limit: 100 })).toHaveLength(DESIGNS);
    } finally {
      walking = false;
      other.close();
    }
  });

  it('stops when cancelled, keeping what it wrote, with no thread left behind', async () => {
    await slowListing();
    const cache = scratchCache();
    const abort = new AbortController();
    const pull = pullDesigns(client, cache.db, cache.files, {
      pageSize: 1, checkpointThreadFrom: 0, signal: abort.signal,
      // At the last page's progress no request is in flight (an aborted one would hold the test service's close).
      onProgress: (p) => { if (p.phase === 'designs' && p.done === DESIGNS) abort.abort(); },
    });
    await expect(pull).rejects.toMatchObject({ problem: { kind: 'cancelled' } });
    expect(runningCheckpointThreads()).toBe(0);
    expect(listCachedDesigns(cache.reader, { limit: 100 })).toHaveLength(DESIGNS);
    expect(searchCachedDesigns(cache.reader, 'bracket', { limit: 100 }).items).toHaveLength(DESIGNS);
  });

  const indexNames = (db: Database.Database) => db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`).pluck().all() as string[];
  const setAside = (db: Database.Database) => db.prepare('SELECT name FROM bulk_fill_undo ORDER BY name').pluck().all() as string[];
  const merges = (db: Database.Database) => db.prepare(`SELECT k, v FROM designs_fts_config WHERE k IN ('automerge', 'crisismerge') ORDER BY k`).all();
  const DEFAULT_MERGES = [{ k: 'automerge', v: 4 }, { k: 'crisismerge', v: 16 }];
  const byName = (cache: DesignCache) => listCachedDesigns(cache.reader, { limit: 100, sort: 'name' }).map((design) => design.name);

  for (const [where, checkpointThreadFrom] of [['without a checkpoint thread', Number.POSITIVE_INFINITY], ['with a checkpoint thread', 0]] as const) {
    it(`${where}, fills a nearly empty cache from a large listing in bulk (unordered indexes set aside, search merges paused), makes the indexes again one a page over the walk's last pages, and undoes the rest when the walk ends`, async () => {
      await slowListing();
      const cache = scratchCache();
      const allIndexes = indexNames(cache.db);
      const setAsideIndexes: string[] = [...INDEXES_SET_ASIDE_FOR_BULK_FILL].sort();
      const seenDuringWalk: { done: number; indexes: string[] }[] = [];
      const mergesDuringWalk: unknown[] = [];
      let threadsSeen = 0;
      const summary = await pullDesigns(client, cache.db, cache.files, {
        // Pages of one design, slowed: the thread (started at the first page) is ready part-way through the walk.
        pageSize: 1, checkpointThreadFrom, bulkFillFrom: 10,
        onProgress: (p) => {
          if (p.phase !== 'designs' || p.done === 0 || p.done === DESIGNS) return;
          seenDuringWalk.push({ done: p.done, indexes: indexNames(cache.db) });
          mergesDuringWalk.push(merges(cache.db));
          threadsSeen = Math.max(threadsSeen, runningCheckpointThreads());
        },
      });
      await service.request('DELETE', '/__admin/faults');
      expect(threadsSeen).toBe(checkpointThreadFrom === 0 ? 1 : 0);
      expect(summary.designs).toMatchObject({ inserted: DESIGNS, skipped: 0 });
      expect(seenDuringWalk.length).toBeGreaterThan(0);
      // One index made again with each of the last pages (as many as there are indexes set aside), in name order.
      for (const { done, indexes } of seenDuringWalk) {
        const madeAgain = indexes.filter((name) => setAsideIndexes.includes(name));
        expect(madeAgain).toEqual(setAsideIndexes.slice(0, Math.max(0, done - (DESIGNS - setAsideIndexes.length))));
        expect(indexes).toEqual(allIndexes.filter((name) => !setAsideIndexes.includes(name) || madeAgain.includes(name)));
      }
      expect(seenDuringWalk.filter(({ done }) => done <= DESIGNS - setAsideIndexes.length).length).toBeGreaterThan(0);
      for (const seen of mergesDuringWalk) expect(seen).toEqual([{ k: 'automerge', v: 0 }, { k: 'crisismerge', v: 10_000 }]);
      expect(indexNames(cache.db)).toEqual(allIndexes);
      expect(setAside(cache.db)).toEqual([]);
      expect(merges(cache.db)).toEqual(DEFAULT_MERGES);
      const plan = (cache.db.prepare('EXPLAIN QUERY PLAN SELECT id FROM designs ORDER BY name COLLATE NOCASE, id LIMIT 5').all() as { detail: string }[]).map((row) => row.detail).join(' ');
      expect(plan).toMatch(/designs_by_name/);
      expect(byName(cache)).toEqual([...byName(cache)].sort((a, b) => a.localeCompare(b, 'en', { numeric: false, sensitivity: 'base' })));
      expect(searchCachedDesigns(cache.reader, 'shelf bracket', { limit: 100 }).items).toHaveLength(DESIGNS);

      // The cache now holds the listing: the next pull writes with every index in place.
      const during: string[][] = [];
      await pullDesigns(client, cache.db, cache.files, {
        pageSize: 5, checkpointThreadFrom, bulkFillFrom: 10, onProgress: (p) => { if (p.phase === 'designs' && p.done > 0) during.push(indexNames(cache.db)); },
      });
      for (const seen of during) expect(seen).toEqual(allIndexes);
    });

    it(`${where}, with its search rows left behind the pull, a small bulk fill leaves the indexes it set aside behind it too, its merges given back; the fill behind the pull makes them again once every design is searchable`, async () => {
      await service.request('DELETE', '/__admin/faults');
      const cache = scratchCache();
      const allIndexes = indexNames(cache.db);
      const setAsideIndexes: string[] = [...INDEXES_SET_ASIDE_FOR_BULK_FILL].sort();
      const duringWalk: string[][] = [];
      const summary = await pullDesigns(client, cache.db, cache.files, {
        pageSize: 5, checkpointThreadFrom, bulkFillFrom: 10, indexesBehindUpTo: DESIGNS, searchRows: 'behind', imagePrefetchLimit: 0,
        onProgress: (p) => { if (p.phase === 'designs' && p.done > 0) duringWalk.push(indexNames(cache.db)); },
      });
      expect(summary.designs).toMatchObject({ inserted: DESIGNS, skipped: 0 });
      for (const seen of duringWalk) expect(seen).toEqual(allIndexes.filter((name) => !setAsideIndexes.includes(name)));
      expect(indexNames(cache.db)).toEqual(allIndexes.filter((name) => !setAsideIndexes.includes(name)));
      expect(setAside(cache.db)).toEqual(setAsideIndexes);
      expect(merges(cache.db)).toEqual(DEFAULT_MERGES);
      // Sorted right without them.
      expect(byName(cache)).toEqual([...byName(cache)].sort((a, b) => a.localeCompare(b, 'en', { numeric: false, sensitivity: 'base' })));

      const seenBetweenSlices: { setAside: string[]; searchRowsWaiting: number }[] = [];
      const fill = new SearchIndexFill(cache.db, {
        sliceDesigns: 10, nextTurn: async () => void seenBetweenSlices.push({ setAside: setAside(cache.db), searchRowsWaiting: searchBacklogSize(cache.db) }),
      });
      let indexThreadsSeen = 0;
      const watch = setInterval(() => (indexThreadsSeen = Math.max(indexThreadsSeen, runningIndexThreads())), 1);
      fill.start();
      await fill.whenIdle();
      clearInterval(watch);
      // Every search row written first, the indexes still set aside; then all made in one turn, on a thread of their own
      // (none left running).
      const searchable = seenBetweenSlices.findIndex((seen) => seen.searchRowsWaiting === 0);
      expect(searchable).toBeGreaterThan(0);
      expect(seenBetweenSlices.slice(0, searchable + 1).map((seen) => seen.setAside.filter((name) => setAsideIndexes.includes(name))))
        .toEqual(seenBetweenSlices.slice(0, searchable + 1).map(() => setAsideIndexes));
      expect(seenBetweenSlices.at(-1)).toEqual({ setAside: [], searchRowsWaiting: 0 });
      expect(indexThreadsSeen).toBe(1);
      expect(runningIndexThreads()).toBe(0);
      expect(indexNames(cache.db)).toEqual(allIndexes);
      expect(setAside(cache.db)).toEqual([]);
      expect(merges(cache.db)).toEqual(DEFAULT_MERGES);
      expect(searchCachedDesigns(cache.reader, 'shelf bracket', { limit: 100 }).items).toHaveLength(DESIGNS);
    });

    it(`${where}, with its search rows left behind the pull, a bulk fill of more than indexesBehindUpTo designs makes its indexes again during the walk`, async () => {
      await service.request('DELETE', '/__admin/faults');
      const cache = scratchCache();
      const allIndexes = indexNames(cache.db);
      await pullDesigns(client, cache.db, cache.files, {
        pageSize: 5, checkpointThreadFrom, bulkFillFrom: 10, indexesBehindUpTo: DESIGNS - 1, searchRows: 'behind', imagePrefetchLimit: 0,
      });
      expect(indexNames(cache.db)).toEqual(allIndexes);
      expect(setAside(cache.db)).toEqual([]);
      expect(merges(cache.db)).toEqual(DEFAULT_MERGES);
    });
  }

  it('for a database no second connection can open, the fill behind the pull makes the indexes set aside on the engine\'s thread, one a turn', async () => {
    const memory = openDesignCache({ cacheDatabase: ':memory:', fileCache: join(tempDir('pull-writer-memory'), 'files') });
    caches.push(memory);
    const allIndexes = indexNames(memory.db);
    beginBulkFill(memory.db);
    resumeSearchIndexMerges(memory.db);
    const setAsideIndexes: string[] = [...INDEXES_SET_ASIDE_FOR_BULK_FILL].sort();
    expect(setAside(memory.db)).toEqual(setAsideIndexes);

    const seenBetweenTurns: string[][] = [];
    const fill = new SearchIndexFill(memory.db, { nextTurn: async () => void seenBetweenTurns.push(setAside(memory.db)) });
    fill.start();
    await fill.whenIdle();
    expect(seenBetweenTurns).toEqual(setAsideIndexes.map((_, i) => setAsideIndexes.slice(i)).concat([[]]));
    expect(indexNames(memory.db)).toEqual(allIndexes);
    expect(runningIndexThreads()).toBe(0);
  });

  it('undoes its bulk fill when its walk fails part-way, and a small listing is written with every index', async () => {
    await slowListing();
    const cache = scratchCache();
    const allIndexes = indexNames(cache.db);
    let threadsSeen = 0;
    const summary = await pullDesigns(client, cache.db, cache.files, {
      pageSize: 1, checkpointThreadFrom: 0, bulkFillFrom: 10,
      onProgress: async (p) => {
        threadsSeen = Math.max(threadsSeen, runningCheckpointThreads());
        if (p.phase === 'designs' && p.done === 30) {
          await service.request('POST', '/__admin/faults', { json: { kind: 'status', status: 500, path: '^/v1/designs$', count: 50 } });
        }
      },
    });
    expect(threadsSeen).toBe(1);
    await service.request('DELETE', '/__admin/faults');
    expect(summary.listingComplete).toBe(false);
    expect(summary.designs.inserted).toBeGreaterThanOrEqual(30);
    expect(indexNames(cache.db)).toEqual(allIndexes);
    expect(setAside(cache.db)).toEqual([]);
    expect(merges(cache.db)).toEqual(DEFAULT_MERGES);

    const small = scratchCache();
    const during: string[][] = [];
    await pullDesigns(client, small.db, small.files, {
      pageSize: 5, checkpointThreadFrom: 0, bulkFillFrom: DESIGNS + 1, onProgress: (p) => { if (p.phase === 'designs' && p.done > 0) during.push(indexNames(small.db)); },
    });
    expect(during.length).toBeGreaterThan(0);
    for (const seen of during) expect(seen).toEqual(allIndexes);
  });
  it('finding indexes a bulk fill set aside still to be made: the engine\'s walk (search rows behind it) gives the merges back and leaves the indexes to the fill; one that writes its own search rows makes them first', async () => {
    await service.request('DELETE', '/__admin/faults');
    const cache = scratchCache();
    const allIndexes = indexNames(cache.db);
    beginBulkFill(cache.db);
    const setAsideIndexes: string[] = [...INDEXES_SET_ASIDE_FOR_BULK_FILL].sort();

    await pullDesigns(client, cache.db, cache.files, { pageSize: 10, bulkFillFrom: DESIGNS + 1, searchRows: 'behind', imagePrefetchLimit: 0 });
    expect(merges(cache.db)).toEqual(DEFAULT_MERGES);
    expect(setAside(cache.db)).toEqual(setAsideIndexes);
    expect(byName(cache)).toEqual([...byName(cache)].sort((a, b) => a.localeCompare(b, 'en', { numeric: false, sensitivity: 'base' })));

    await pullDesigns(client, cache.db, cache.files, { pageSize: 10, bulkFillFrom: DESIGNS + 1, imagePrefetchLimit: 0 });
    expect(setAside(cache.db)).toEqual([]);
    expect(indexNames(cache.db)).toEqual(allIndexes);
  });
});

describe('a bulk fill and another walk at the same time', () => {
  it('is undone only by the walk that began it: a sync pass\'s walk of own designs meanwhile leaves it as it is, writing in the transaction the catalogue\'s walk holds open', async () => {
    const cache = scratchCache();
    const names = () => cache.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`).pluck().all() as string[];
    // The catalogue with its checkpoint thread, as a listing this large has in the app.
    const catalogue = new PullWriter(cache.db, { checkpointThreadFrom: 0, bulkFillFrom: 10 });
    catalogue.expect(1_000);
    expect(await catalogue.threadReady()).toBe(true);
    catalogue.fillInBulkWhenLarge(1_000);
    expect(names()).not.toContain('designs_by_name');
    await catalogue.write(PAGES[0]!, 'list', 1_700_000_000_000, { inListing: true }).results;

    const ownDesigns = new PullWriter(cache.db, { bulkFillFrom: 10 });
    await ownDesigns.write([listFormDesign({ id: 50, name: 'Own draft' })], 'user', 1_700_000_000_000, { own: true, ownScreenName: 'maker' }).results;
    await ownDesigns.endWalk();
    await ownDesigns.close();
    expect(names()).not.toContain('designs_by_name');

    await catalogue.endWalk();
    await catalogue.close();
    expect(names()).toContain('designs_by_name');
    expect(cache.db.prepare('SELECT count(*) FROM bulk_fill_undo').pluck().get()).toBe(0);
    // The own designs' walk wrote in the catalogue's open transaction, committed with it.
    expect(cache.db.inTransaction).toBe(false);
    const other = new Database(cache.db.name, { readonly: true });
    try {
      expect(other.prepare('SELECT id FROM designs ORDER BY id').pluck().all()).toEqual([10, 11, 30, 50]);
    } finally {
      other.close();
    }
  });
});

describe('a cache whose bulk fill stopped (a crash)', () => {
  it('gives the search index back its merges when it is next opened, and leaves the indexes it set aside to the engine\'s fill behind the pull', async () => {
    const dir = tempDir('pull-writer-crash');
    dirs.push(dir);
    const paths = { cacheDatabase: join(dir, 'cache.sqlite'), fileCache: join(dir, 'files') };
    const first = openDesignCache(paths);
    const allIndexes = first.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`).pluck().all();
    beginBulkFill(first.db);
    expect(first.db.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'designs_by_name'`).pluck().get()).toBe(0);
    expect(first.db.prepare(`SELECT v FROM designs_fts_config WHERE k = 'automerge'`).pluck().get()).toBe(0);
    first.close();

    const reopened = openDesignCache(paths);
    caches.push(reopened);
    const indexes = () => reopened.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`).pluck().all();
    expect(reopened.db.prepare(`SELECT k, v FROM designs_fts_config WHERE k IN ('automerge', 'crisismerge') ORDER BY k`).all())
      .toEqual([{ k: 'automerge', v: 4 }, { k: 'crisismerge', v: 16 }]);
    expect(indexes()).not.toContain('designs_by_name');
    expect(reopened.db.prepare('SELECT name FROM bulk_fill_undo ORDER BY name').pluck().all()).toEqual([...INDEXES_SET_ASIDE_FOR_BULK_FILL].sort());

    const fill = new SearchIndexFill(reopened.db);
    fill.start();
    await fill.whenIdle();
    expect(indexes()).toEqual(allIndexes);
    expect(reopened.db.prepare('SELECT count(*) FROM bulk_fill_undo').pluck().get()).toBe(0);
  });
});
