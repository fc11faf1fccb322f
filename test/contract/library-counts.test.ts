import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ContractProblem, Outcome, RequestName, RequestResult } from '../../shared';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { upsertDesign } from '../../electron/engine/cache/design-writes';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import { runningCountThreads } from '../../electron/engine/cache/count-thread';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { seedSynthetic } from '../../service/seed/synthetic-seed';
import { startTestService, type TestService } from '../../harness/local-service';
import { listFormDesign, tempDir } from '../engine/cache/cache-fixtures';

/** Designs in the catalogue, and the bound a page's count stops at: more designs than the bound match "synthetic". */
const DESIGNS = 400;
const BOUND = 50;

let service: TestService;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let profile: string;
const boundBefore = process.env.DESIGN_SYNC_COUNT_BOUND;

async function call<K extends RequestName>(name: K, input: unknown): Promise<Outcome<RequestResult<K>>> {
  return endpoint.handle(name, input) as Promise<Outcome<RequestResult<K>>>;
}

async function ok<K extends RequestName>(name: K, input: unknown): Promise<RequestResult<K>> {
  const outcome = await call(name, input);
  if (!outcome.ok) throw new Error(`${name}: expected success, got ${JSON.stringify(outcome.problem)}`);
  return outcome.value;
}

async function problemOf(answer: Promise<Outcome<unknown>>): Promise<ContractProblem> {
  const outcome = await answer;
  if (outcome.ok) throw new Error(`expected a problem, got ${JSON.stringify(outcome.value).slice(0, 200)}`);
  return outcome.problem;
}

/** What the service holds: every design's name and license (each synthetic description says "Synthetic benchmark design"). */
const serviceCount = (where = '1', ...params: unknown[]) =>
  (service.db.prepare(`SELECT count(*) AS n FROM designs WHERE ${where}`).get(...params) as { n: number }).n;

beforeAll(async () => {
  service = await startTestService();
  seedSynthetic(service.ctx, DESIGNS);
  profile = tempDir('library-counts');
  engine = await openEngine({
    profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test',
    tokenStore: () => new MemoryTokenStore(null), settingsStore: () => memorySettingsStore(),
  });
  await engine.catalogue.pullNow();
  await engine.searchIndex.whenIdle();
  process.env.DESIGN_SYNC_COUNT_BOUND = String(BOUND);
  endpoint = createContractEndpoint(engine);
}, 60_000);

afterAll(async () => {
  if (boundBefore === undefined) delete process.env.DESIGN_SYNC_COUNT_BOUND;
  else process.env.DESIGN_SYNC_COUNT_BOUND = boundBefore;
  await endpoint?.close();
  await engine?.close();
  await service?.stop();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

describe('library.page counts that stop early', () => {
  it('a search matching more designs than the bound answers "at least the bound", with its page of cards', async () => {
    const page = await ok('library.page', { query: 'synthetic', limit: 20 });
    expect({ total: page.total, totalIsLowerBound: page.totalIsLowerBound, cards: page.items.length }).toEqual({ total: BOUND, totalIsLowerBound: true, cards: 20 });
  });

  it('a lower bound is never below the designs the page itself holds', async () => {
    const page = await ok('library.page', { query: 'synthetic', offset: 100, limit: 60 });
    expect({ total: page.total, totalIsLowerBound: page.totalIsLowerBound }).toEqual({ total: 160, totalIsLowerBound: true });
  });

  it('a search matching fewer designs than the bound is counted exactly', async () => {
    const page = await ok('library.page', { query: 'pulley' });
    expect(page.totalIsLowerBound).toBe(false);
    expect(page.total).toBe(serviceCount("name LIKE '%Pulley%'"));
    expect(page.total).toBeGreaterThan(0);
    expect(page.total).toBeLessThan(BOUND);
  });

  it('without words, every design and every design of a license are counted exactly (the indexes count them at once)', async () => {
    expect(await ok('library.page', {})).toMatchObject({ total: DESIGNS, totalIsLowerBound: false });
    expect(await ok('library.page', { licenses: ['ccby'] })).toMatchObject({ total: serviceCount("license = 'ccby'"), totalIsLowerBound: false });
  });

  it('words and a license: the licensed designs among the newest matches, at least that many', async () => {
    const page = await ok('library.page', { query: 'synthetic', licenses: ['ccby'], limit: 5 });
    const exact = serviceCount("license = 'ccby'");
    expect(page.totalIsLowerBound).toBe(true);
    expect(page.total).toBeGreaterThan(0);
    expect(page.total).toBeLessThan(exact);
    expect(page.items.every((card) => card.license?.code === 'ccby')).toBe(true);
  });
});

describe('library.count: the exact count that follows', () => {
  it('counts every match of a search the page stopped counting', async () => {
    expect(await ok('library.count', { query: 'synthetic' })).toEqual({ total: DESIGNS });
    expect(await ok('library.count', { query: 'synthetic', licenses: ['ccby'] })).toEqual({ total: serviceCount("license = 'ccby'") });
    expect(await ok('library.count', { query: 'pulley', licenses: ['ccby', 'cc0'] })).toEqual({ total: serviceCount("name LIKE '%Pulley%' AND license IN ('ccby', 'cc0')") });
  });

  it('a newer count stops the one before: it ends cancelled, the newer one answers', async () => {
    const older = call('library.count', { query: 'synthetic' });
    const newer = call('library.count', { query: 'synth' });
    expect((await problemOf(older)).kind).toBe('cancelled');
    expect(await newer).toEqual({ ok: true, value: { total: DESIGNS } });
  });

  it('a page of another search stops the count; a page of the same search (scrolling) does not', async () => {
    const stopped = call('library.count', { query: 'synthetic' });
    await ok('library.page', { query: 'pulley' });
    expect((await problemOf(stopped)).kind).toBe('cancelled');

    const kept = call('library.count', { query: 'synthetic' });
    await ok('library.page', { query: 'synthetic', offset: 60 });
    expect(await kept).toEqual({ ok: true, value: { total: DESIGNS } });
  });

  it('the window going away stops the count', async () => {
    const gone = new AbortController();
    const answer = endpoint.handle('library.count', { query: 'synthetic' }, gone.signal);
    gone.abort();
    expect((await problemOf(answer)).kind).toBe('cancelled');
  });

  it('refuses a license that is not one', async () => {
    const problem = await problemOf(call('library.count', { query: 'x', licenses: ['mine'] }));
    expect(problem).toMatchObject({ kind: 'validation', fieldErrors: { 'licenses.0': expect.any(Array) } });
  });
});

/** Another engine on the same profile (as a second process would open it): its services, and their threads, are its own. */
async function openAnotherEngine(): Promise<Engine> {
  return openEngine({
    profileDir: profile, userAgent: 'design-sync-test',
    tokenStore: () => new MemoryTokenStore(null), settingsStore: () => memorySettingsStore({ serviceUrl: service.url }),
  });
}

describe('library.count on a thread of its own, from a large cache', () => {
  let threadedEngine: Engine;
  let threaded: ReturnType<typeof createContractEndpoint>;
  const count = async (input: unknown) => {
    const outcome = await threaded.handle('library.count', input);
    if (!outcome.ok) throw new Error(`library.count: ${JSON.stringify(outcome.problem)}`);
    return outcome.value as { total: number };
  };

  /** The window's endpoint on an engine of its own, with every cache large enough to count on the thread. */
  async function openThreaded() {
    threadedEngine = await openAnotherEngine();
    const before = process.env.DESIGN_SYNC_COUNT_THREAD_FROM;
    process.env.DESIGN_SYNC_COUNT_THREAD_FROM = '1';
    threaded = createContractEndpoint(threadedEngine);
    if (before === undefined) delete process.env.DESIGN_SYNC_COUNT_THREAD_FROM;
    else process.env.DESIGN_SYNC_COUNT_THREAD_FROM = before;
  }

  beforeAll(openThreaded);

  afterAll(async () => {
    await threaded?.close();
    await threadedEngine?.close();
  });

  it('counts what the engine\'s own thread counts, on one thread, ended with its engine', async () => {
    const before = runningCountThreads();
    for (const input of [{ query: 'synthetic' }, { query: 'synthetic', licenses: ['ccby'] }, { query: 'pulley', licenses: ['ccby', 'cc0'] }, { query: 'nothing-like-this' }]) {
      expect(await count(input)).toEqual(await ok('library.count', input));
    }
    expect(runningCountThreads()).toBe(before + 1);
    await threaded.close();
    await threadedEngine.close();
    await vi.waitFor(() => expect(runningCountThreads()).toBe(before));
    await openThreaded();
  });

  it('a newer count stops the one before: it ends cancelled at once, the newer one answers', async () => {
    const older = threaded.handle('library.count', { query: 'synthetic', licenses: ['cc0'] });
    const newer = threaded.handle('library.count', { query: 'synth' });
    expect(await older).toMatchObject({ ok: false, problem: { kind: 'cancelled' } });
    expect(await newer).toEqual({ ok: true, value: await count({ query: 'synthetic' }) });
  });

  it('counts a design written after its thread started', async () => {
    const before = (await count({ query: 'walnut' })).total;
    upsertDesign(engine.cache.db, listFormDesign({ id: 999_997, name: 'Walnut coaster', license: 'cc0' }), 'list', Date.now());
    expect((await count({ query: 'walnut' })).total).toBe(before + 1);
  });
});

describe('opening a large cache', () => {
  /** The window's endpoint on an engine of its own, with its cache taken as large from `fromBytes` bytes. */
  async function openWithWarmUpFrom(fromBytes: number) {
    const opened = await openAnotherEngine();
    const before = process.env.DESIGN_SYNC_WARM_UP_FROM_BYTES;
    process.env.DESIGN_SYNC_WARM_UP_FROM_BYTES = String(fromBytes);
    try {
      const endpoint = createContractEndpoint(opened);
      return { handle: endpoint.handle.bind(endpoint), close: async () => { await endpoint.close(); await opened.close(); } };
    } finally {
      if (before === undefined) delete process.env.DESIGN_SYNC_WARM_UP_FROM_BYTES;
      else process.env.DESIGN_SYNC_WARM_UP_FROM_BYTES = before;
    }
  }

  it('the window\'s endpoint reads a large cache\'s narrow index through on the count thread, which then counts; a smaller cache starts none', async () => {
    // The threads of the endpoints before it have ended (none of this file's other endpoints starts one).
    await vi.waitFor(() => expect(runningCountThreads()).toBe(0));
    const before = 0;
    const small = await openWithWarmUpFrom(1024 ** 4);
    expect(runningCountThreads()).toBe(before);
    await small.close();

    const large = await openWithWarmUpFrom(1);
    expect(runningCountThreads()).toBe(before + 1);
    const counted = await large.handle('library.count', { query: 'synthetic', licenses: ['ccby'] });
    expect(counted).toEqual({ ok: true, value: await ok('library.count', { query: 'synthetic', licenses: ['ccby'] }) });
    expect(runningCountThreads()).toBe(before + 1);
    await large.close();
    await vi.waitFor(() => expect(runningCountThreads()).toBe(before));
  });
});

describe('library.licenseCounts with upTo', () => {
  it('counts the newest matches only and says the counts are "at least"; without upTo, every match', async () => {
    const bounded = await ok('library.licenseCounts', { query: 'synthetic', upTo: BOUND });
    expect(bounded.lowerBound).toBe(true);
    expect(bounded.total).toBe(BOUND + 1);
    const exact = await ok('library.licenseCounts', { query: 'synthetic' });
    expect(exact.total).toBe(DESIGNS);
    expect(exact.lowerBound).toBeUndefined();
    for (const [code, n] of Object.entries(bounded.counts)) expect(n).toBeLessThanOrEqual(exact.counts[code as keyof typeof exact.counts]);
  });

  it('a search with fewer matches than upTo is counted whole', async () => {
    const bounded = await ok('library.licenseCounts', { query: 'pulley', upTo: BOUND });
    expect(bounded).toEqual({ ...(await ok('library.licenseCounts', { query: 'pulley' })), lowerBound: false });
  });
});

describe('exact counts remembered while the cache is unchanged', () => {
  it('after library.count, a page of the same search answers the exact count; a pull that adds a design counts again', async () => {
    expect(await ok('library.count', { query: 'synthetic' })).toEqual({ total: DESIGNS });
    expect(await ok('library.page', { query: 'synthetic', limit: 20 })).toMatchObject({ total: DESIGNS, totalIsLowerBound: false });

    seedSynthetic(service.ctx, 1);
    await engine.catalogue.pullNow();
    await engine.searchIndex.whenIdle();
    expect(await ok('library.page', { query: 'synthetic', limit: 20 })).toMatchObject({ total: BOUND, totalIsLowerBound: true });
    expect(await ok('library.count', { query: 'synthetic' })).toEqual({ total: DESIGNS + 1 });
  });

  it('a design written to the cache by any path (no change told) is counted: the remembered count is dropped', async () => {
    expect(await ok('library.page', { query: 'zebrawood' })).toMatchObject({ total: 0, totalIsLowerBound: false });
    upsertDesign(engine.cache.db, listFormDesign({ id: 999_999, name: 'Zebrawood box', license: 'cc0' }), 'list', Date.now());
    expect(await ok('library.page', { query: 'zebrawood' })).toMatchObject({ total: 1, totalIsLowerBound: false });
  });

  it('settings count the cached designs from the remembered count, and again once a design was written', async () => {
    const cached = () => (engine.cache.reader.prepare('SELECT count(*) AS n FROM designs').get() as { n: number }).n;
    const before = cached();
    expect((await ok('library.page', { query: '' })).total).toBe(before);
    expect((await ok('settings.get', {})).cacheDesigns).toBe(before);
    upsertDesign(engine.cache.db, listFormDesign({ id: 999_998, name: 'Another box' }), 'list', Date.now());
    expect((await ok('settings.get', {})).cacheDesigns).toBe(before + 1);
    expect((await ok('library.page', { query: '' })).total).toBe(before + 1);
  });
});
