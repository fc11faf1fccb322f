import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LicenseCode } from '../../shared';
import { boundedDesignCount } from '../../electron/engine/cache/design-counts';
import { listCachedDesigns, searchCachedDesigns } from '../../electron/engine/cache/design-reads';
import { DEFAULT_COUNT_BOUND } from '../../electron/engine/library/library';
import { openDesignCache } from '../../electron/engine/cache/design-cache';
import { engineProcessArgs } from '../../harness/engine-process';
import { MB, percentile, round } from './measure';
import { queries } from './search-queries';

const SEARCHES = 1_000;
/** The window's library page: its first page of cards, newest first, and the total its scrollbar needs. */
const PAGE_SIZE = 60;
const PAGES = 200;
/** One license, as the window's filter sends it. */
const LICENSE: LicenseCode = 'ccby';

export interface SearchProbeResult {
  searches: number;
  searchesWithHits: number;
  searchP50Ms: number;
  searchP95Ms: number;
  searchP99Ms: number;
  searchMaxMs: number;
  /** CPU time of the same searches: on a machine shared with other work, what the wall-clock figures would be alone. */
  searchCpuP50Ms: number;
  searchCpuP95Ms: number;
  /**
   * library.page's reads (first page of 60 + total count, stopped at 10,000 as the page stops it) for what a person
   * types, one letter at a time included.
   */
  pages: number;
  pageP50Ms: number;
  pageP95Ms: number;
  pageP99Ms: number;
  pageMaxMs: number;
  pageCpuP95Ms: number;
  licensedPageP95Ms: number;
  licensedPageMaxMs: number;
  /** This process's resident memory: at the start (cache open), and its peak while searching. */
  rssOpenMb: number;
  rssPeakMb: number;
}

/** What the window asks as a person types: the search queries, and the first letters of some of them. */
export function pageQueries(): string[] {
  const typed = queries(PAGES);
  const prefixes = typed.slice(0, 16).flatMap((query) => [query.slice(0, 1), query.slice(0, 2)]);
  return [...prefixes, ...typed].slice(0, PAGES);
}

const summary = (samples: number[]) => ({
  p50: round(percentile(samples, 50), 3), p95: round(percentile(samples, 95), 3), p99: round(percentile(samples, 99), 3), max: round(Math.max(...samples), 3),
});

function timeEach<T>(inputs: readonly T[], work: (input: T) => unknown, onEach: () => void) {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const input of inputs) {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    work(input);
    wall.push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
    onEach();
  }
  return { ...summary(wall), cpu: summary(cpu) };
}

/** In this process: opens the cache as the engine does, then searches it and reads the window's pages. */
function probe(cacheDatabase: string, fileCache: string): SearchProbeResult {
  const cache = openDesignCache({ cacheDatabase, fileCache });
  try {
    global.gc?.();
    const rssOpen = process.memoryUsage.rss();
    let rssPeak = rssOpen;
    const sampleRss = () => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss()));
    const searchList = queries(SEARCHES);
    const pageList = pageQueries();
    const page = (query: string, license: LicenseCode[]) => {
      listCachedDesigns(cache.reader, { query, license, sort: 'newest', offset: 0, limit: PAGE_SIZE });
      boundedDesignCount(cache.reader, { query, license }, DEFAULT_COUNT_BOUND);
    };
    for (const query of searchList.slice(0, 50)) searchCachedDesigns(cache.reader, query, { limit: 20 }); // warm-up
    let hits = 0;
    const search = timeEach(searchList, (query) => (hits += searchCachedDesigns(cache.reader, query, { limit: 20 }).items.length > 0 ? 1 : 0), sampleRss);
    const pages = timeEach(pageList, (query) => page(query, []), sampleRss);
    const licensed = timeEach(pageList, (query) => page(query, [LICENSE]), sampleRss);
    return {
      searches: searchList.length, searchesWithHits: hits,
      searchP50Ms: search.p50, searchP95Ms: search.p95, searchP99Ms: search.p99, searchMaxMs: search.max, searchCpuP50Ms: search.cpu.p50, searchCpuP95Ms: search.cpu.p95,
      pages: pageList.length, pageP50Ms: pages.p50, pageP95Ms: pages.p95, pageP99Ms: pages.p99, pageMaxMs: pages.max, pageCpuP95Ms: pages.cpu.p95,
      licensedPageP95Ms: licensed.p95, licensedPageMaxMs: licensed.max,
      rssOpenMb: round(rssOpen / MB, 1), rssPeakMb: round(rssPeak / MB, 1),
    };
  } finally {
    cache.close();
  }
}

/**
 * Searches a filled cache in a fresh process, as the app would at its next start: the memory measured is the
 * engine's while searching, not what filling the cache left in the benchmark's heap.
 */
export async function probeSearch(cacheDatabase: string, fileCache: string): Promise<SearchProbeResult> {
  const child = spawn(process.execPath, engineProcessArgs(fileURLToPath(import.meta.url), cacheDatabase, fileCache), {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const last = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !last.startsWith('{')) throw new Error(`the search probe failed (exit ${code}):\n${out}`);
  return JSON.parse(last) as SearchProbeResult;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${JSON.stringify(probe(process.argv[2]!, process.argv[3]!))}\n`);
}
