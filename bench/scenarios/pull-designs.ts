import { join } from 'node:path';
import { ServiceClient } from '../../electron/engine/api/service-client';
import { openDesignCache } from '../../electron/engine/cache/design-cache';
import { pullDesigns } from '../../electron/engine/cache/pull';
import { SearchIndexFill } from '../../electron/engine/runtime/search-index-fill';
import { PAGINATION_HEADERS } from '../../shared';
import { median, round, timed, withMemoryPeak, type ScenarioResult } from '../support/measure';
import { processCpuMs, scratchDir, serviceWithSyntheticDesigns } from '../support/service';

const PAGE_SIZE = 100;
const ROUNDS = 3;
/** The wait the service adds to each listing request for the pull over a link: a round trip to a service far away. */
const LINK_LATENCY_MS = 20;

/** The floor: fetch every page and parse it, nothing else. */
async function bareFetchLoop(baseUrl: string): Promise<number> {
  let count = 0;
  for (let page = 1; ; page++) {
    const response = await fetch(`${baseUrl}/v1/designs?page=${page}&limit=${PAGE_SIZE}`);
    const designs = (await response.json()) as unknown[];
    count += designs.length;
    if (!response.headers.get(PAGINATION_HEADERS.nextPage)) return count;
  }
}

/** This process's CPU time (every thread: the pull's writer thread too) and the service's, while `work` runs. */
async function withCpu<T>(servicePid: number | undefined, work: () => Promise<T>): Promise<{ result: T; cpuMs: number; serviceCpuMs: number | null }> {
  const before = process.cpuUsage();
  const serviceBefore = processCpuMs(servicePid);
  const result = await work();
  const used = process.cpuUsage(before);
  const serviceAfter = processCpuMs(servicePid);
  return { result, cpuMs: (used.user + used.system) / 1000, serviceCpuMs: serviceBefore === null || serviceAfter === null ? null : serviceAfter - serviceBefore };
}

/**
 * The engine's pull of the catalogue (as CatalogueRefresh asks it: the search rows left behind the walk), then the
 * engine's fill of the search index behind it, timed apart: the pull's figure is the walk alone, and the time until
 * every design is searchable is told beside it.
 */
async function enginePull(baseUrl: string, servicePid: number | undefined) {
  const scratch = scratchDir('pull');
  const cache = openDesignCache({ cacheDatabase: join(scratch.path, 'cache.sqlite'), fileCache: join(scratch.path, 'files') });
  try {
    const client = new ServiceClient({ baseUrl, token: () => null });
    const options = { pageSize: PAGE_SIZE, searchRows: 'behind' } as const;
    const first = await withCpu(servicePid, () => timed(() => pullDesigns(client, cache.db, cache.files, options)));
    let searchableMs: number | null = null;
    let searchableCpuMs = 0;
    const fill = await withCpu(undefined, () => timed(async () => {
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const searchIndex = new SearchIndexFill(cache.db);
      searchIndex.once('filled', () => {
        searchableMs = performance.now() - started;
        const used = process.cpuUsage(cpuBefore);
        searchableCpuMs = (used.user + used.system) / 1000;
      });
      searchIndex.start();
      await searchIndex.whenIdle();
    }));
    if (searchableMs === null) throw new Error('the search index fill ended without telling that every design is searchable');
    // The pull leaves the WAL's checkpoint to the next commit after it (one checkpoint instead of one per 1000 pages):
    // its cost, measured apart, is not hidden.
    const checkpoint = await timed(async () => cache.db.pragma('wal_checkpoint(PASSIVE)'));
    const again = await timed(() => pullDesigns(client, cache.db, cache.files, options));
    return {
      first: first.result, cpuMs: first.cpuMs, serviceCpuMs: first.serviceCpuMs, again, checkpointMs: checkpoint.ms,
      searchFillMs: fill.result.ms, searchFillCpuMs: fill.cpuMs, searchableMs: searchableMs as number, searchableCpuMs,
    };
  } finally {
    cache.close();
    scratch.dispose();
  }
}

const medianOrNull = (samples: (number | null)[]) => (samples.some((sample) => sample === null) ? null : median(samples as number[]));

/**
 * The goals of a full pull: against the bare loop on loopback and over the link, the client's CPU a design, and the
 * time until every design it wrote is searchable (the pull, then the search index filled behind it).
 */
const GOALS = { ratio: 1.5, ratioOverLink: 1.05, cpuPerDesignUs: 45, ratioUntilSearchable: 1.5 } as const;

/**
 * A full pull of `designs` synthetic designs against the bare fetch loop over the same pages (GOALS).
 * On loopback the service shares the machine's cores with the client, so the CPU time of both is reported beside the
 * wall clock; then the same two over a link where each listing request waits LINK_LATENCY_MS (`linkRounds` rounds).
 */
export async function pullDesignsScenario(name: string, designs: number, linkRounds = ROUNDS): Promise<ScenarioResult> {
  const service = await serviceWithSyntheticDesigns(designs, { faults: true });
  const pid = service.child.pid;
  try {
    await bareFetchLoop(service.url); // warm-up: the service's own caches and JIT
    const bare: number[] = [];
    const bareCpu: number[] = [];
    const bareServiceCpu: (number | null)[] = [];
    const pulls: number[] = [];
    const pullCpu: number[] = [];
    const pullServiceCpu: (number | null)[] = [];
    const checkpoints: number[] = [];
    const repulls: number[] = [];
    const searchFills: number[] = [];
    const searchables: number[] = [];
    const searchFillCpu: number[] = [];
    const searchableCpu: number[] = [];
    let memory = { rssPeakMb: 0, rssGrowthMb: 0 };
    let counted = 0;
    for (let round_ = 0; round_ < ROUNDS; round_++) {
      const loop = await withCpu(pid, () => timed(() => bareFetchLoop(service.url)));
      bare.push(loop.result.ms);
      bareCpu.push(loop.cpuMs);
      bareServiceCpu.push(loop.serviceCpuMs);
      counted = loop.result.result;
      const measured = await withMemoryPeak(() => enginePull(service.url, pid));
      pulls.push(measured.result.first.ms);
      pullCpu.push(measured.result.cpuMs);
      pullServiceCpu.push(measured.result.serviceCpuMs);
      repulls.push(measured.result.again.ms);
      searchFills.push(measured.result.searchFillMs);
      searchables.push(measured.result.searchableMs);
      searchFillCpu.push(measured.result.searchFillCpuMs);
      searchableCpu.push(measured.result.searchableCpuMs);
      checkpoints.push(measured.result.checkpointMs);
      if (measured.result.first.result.designs.inserted !== designs) {
        throw new Error(`the pull stored ${measured.result.first.result.designs.inserted} designs, expected ${designs}`);
      }
      memory = { rssPeakMb: Math.max(memory.rssPeakMb, measured.rssPeakMb), rssGrowthMb: Math.max(memory.rssGrowthMb, measured.rssGrowthMb) };
    }

    const fault = await fetch(`${service.url}/__admin/faults`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'latency', ms: LINK_LATENCY_MS, method: 'GET', path: '^/v1/designs$' }),
    });
    if (fault.status !== 201) throw new Error(`the service did not take the latency rule (${fault.status})`);
    const bareOverLink: number[] = [];
    const pullsOverLink: number[] = [];
    for (let round_ = 0; round_ < linkRounds; round_++) {
      bareOverLink.push((await timed(() => bareFetchLoop(service.url))).ms);
      pullsOverLink.push((await enginePull(service.url, pid)).first.ms);
    }

    const ratio = median(pulls) / median(bare);
    // From the pull's start until the fill tells every design is searchable (its backlog written, its terms noted).
    const ratioUntilSearchable = median(pulls.map((pull, i) => pull + searchables[i]!)) / median(bare);
    const ratioOverLink = median(pullsOverLink) / median(bareOverLink);
    const cpuPerDesignUs = (median(pullCpu) * 1000) / designs;
    const serviceCpuDuringPull = medianOrNull(pullServiceCpu);
    const serviceCpuDuringBare = medianOrNull(bareServiceCpu);
    return {
      name,
      description: `full pull of ${designs} designs into an empty cache (as the engine pulls the catalogue: search rows written behind it, timed apart) vs a bare fetch loop over the same ${Math.ceil(designs / PAGE_SIZE)} pages `
        + `(median of ${ROUNDS}), on loopback and over a link adding ${LINK_LATENCY_MS} ms to each listing request (median of ${linkRounds}); `
        + 'CPU: this process (every thread) and the service process, during the pull',
      metrics: {
        designs: counted,
        bareFetchMs: round(median(bare), 0),
        pullMs: round(median(pulls), 0),
        ratio: round(ratio, 2),
        pullCpuMs: round(median(pullCpu), 0),
        pullCpuPerDesignUs: round(cpuPerDesignUs, 1),
        // Each round's, in order: they move with the machine's hour, and the first runs code the JIT has not optimized yet.
        pullCpuPerDesignUsByRound: pullCpu.map((cpu) => round((cpu * 1000) / designs, 1)).join(' / '),
        // The floor the pull's CPU stands on: fetch and JSON.parse of the same pages, nothing written.
        bareFetchCpuPerDesignUs: round((median(bareCpu) * 1000) / designs, 1),
        // Until every design is searchable, then until the fill is idle (the library's indexes made, the index merged).
        searchableBehindMs: round(median(searchables), 0),
        // This process's CPU until then (every thread), a design: what a loaded machine stretches the time from.
        searchableBehindCpuPerDesignUs: round((median(searchableCpu) * 1000) / designs, 1),
        searchIndexBehindMs: round(median(searchFills), 0),
        searchIndexBehindCpuMs: round(median(searchFillCpu), 0),
        ratioUntilSearchable: round(ratioUntilSearchable, 2),
        ratioUntilFillIdle: round(median(pulls.map((pull, i) => pull + searchFills[i]!)) / median(bare), 2),
        serviceCpuDuringPullMs: serviceCpuDuringPull === null ? 'n/a' : round(serviceCpuDuringPull, 0),
        serviceCpuDuringBareMs: serviceCpuDuringBare === null ? 'n/a' : round(serviceCpuDuringBare, 0),
        walCheckpointAfterMs: round(median(checkpoints), 0),
        repullNothingChangedMs: round(median(repulls), 0),
        rssPeakMb: memory.rssPeakMb,
        rssGrowthMb: memory.rssGrowthMb,
        linkLatencyMs: LINK_LATENCY_MS,
        bareFetchOverLinkMs: round(median(bareOverLink), 0),
        pullOverLinkMs: round(median(pullsOverLink), 0),
        ratioOverLink: round(ratioOverLink, 2),
      },
      goals: [
        { metric: 'ratio', target: `≤ ${GOALS.ratio}`, met: ratio <= GOALS.ratio },
        { metric: 'ratioOverLink', target: `≤ ${GOALS.ratioOverLink}`, met: ratioOverLink <= GOALS.ratioOverLink },
        { metric: 'pullCpuPerDesignUs', target: `≤ ${GOALS.cpuPerDesignUs}`, met: cpuPerDesignUs <= GOALS.cpuPerDesignUs },
        { metric: 'ratioUntilSearchable', target: `≤ ${GOALS.ratioUntilSearchable}`, met: ratioUntilSearchable <= GOALS.ratioUntilSearchable },
      ],
    };
  } finally {
    await service.dispose();
  }
}
