import { join } from 'node:path';
import { ServiceClient } from '../../electron/engine/api/service-client';
import { openDesignCache } from '../../electron/engine/cache/design-cache';
import { searchCachedDesigns } from '../../electron/engine/cache/design-reads';
import { pullDesigns } from '../../electron/engine/cache/pull';
import { SYNTHETIC_WORDS } from '../../service/seed/synthetic-seed';
import { MB, percentile, round, timed, type ScenarioResult } from '../support/measure';
import { scratchDir, serviceWithSyntheticDesigns } from '../support/service';

const DESIGNS = 100_000;
const QUERIES = 1_000;

/** What people type: one word, two words, half a word, a tag, an author, a material, and words nothing has. */
export function queries(): string[] {
  const nouns = SYNTHETIC_WORDS.nouns.map((n) => n.toLowerCase());
  const adjectives = SYNTHETIC_WORDS.adjectives.map((a) => a.toLowerCase());
  const kinds: ((i: number) => string)[] = [
    (i) => nouns[i % nouns.length]!,
    (i) => `${adjectives[i % adjectives.length]} ${nouns[(i * 7) % nouns.length]}`,
    (i) => nouns[i % nouns.length]!.slice(0, 3),
    (i) => SYNTHETIC_WORDS.tags[i % SYNTHETIC_WORDS.tags.length]!,
    (i) => `synthetic-${(i % 5) + 1}`,
    (i) => SYNTHETIC_WORDS.materials[i % SYNTHETIC_WORDS.materials.length]!,
    (i) => `${nouns[i % nouns.length]} ${SYNTHETIC_WORDS.purposes[i % SYNTHETIC_WORDS.purposes.length]!.split(' ').at(-1)}`,
    (i) => `zq${i}xv`,
  ];
  return Array.from({ length: QUERIES }, (_, i) => kinds[i % kinds.length]!(i));
}

export async function searchDesignsScenario(): Promise<ScenarioResult> {
  const service = await serviceWithSyntheticDesigns(DESIGNS);
  const scratch = scratchDir('search');
  const cache = openDesignCache({ cacheDatabase: join(scratch.path, 'cache.sqlite'), fileCache: join(scratch.path, 'files') });
  try {
    const client = new ServiceClient({ baseUrl: service.url, token: () => null });
    const fill = await timed(() => pullDesigns(client, cache.db, cache.files, { pageSize: 100 }));
    if (fill.result.designs.inserted !== DESIGNS) throw new Error(`the cache holds ${fill.result.designs.inserted} designs, expected ${DESIGNS}`);

    const list = queries();
    for (const q of list.slice(0, 50)) searchCachedDesigns(cache.reader, q, { limit: 20 }); // warm-up
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const samples: number[] = [];
    let hits = 0;
    for (const q of list) {
      const started = performance.now();
      const page = searchCachedDesigns(cache.reader, q, { limit: 20 });
      samples.push(performance.now() - started);
      if (page.items.length > 0) hits++;
    }
    const memory = process.memoryUsage();
    const p95 = percentile(samples, 95);
    return {
      name: 'search-100k',
      description: `offline FTS search over ${DESIGNS} cached designs, ${QUERIES} mixed queries (first page of 20)`,
      metrics: {
        designs: DESIGNS,
        cacheFillMs: round(fill.ms, 0),
        queries: QUERIES,
        queriesWithHits: hits,
        p50Ms: round(percentile(samples, 50), 3),
        p95Ms: round(p95, 3),
        p99Ms: round(percentile(samples, 99), 3),
        maxMs: round(Math.max(...samples), 3),
        rssMb: round(memory.rss / MB, 1),
        heapGrowthMb: round((memory.heapUsed - heapBefore) / MB, 1),
      },
      goals: [{ metric: 'p95Ms', target: '≤ 5', met: p95 <= 5 }],
    };
  } finally {
    cache.close();
    scratch.dispose();
    await service.dispose();
  }
}
