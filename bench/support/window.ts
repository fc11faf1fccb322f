import { existsSync, mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { countCachedDesigns } from '../../electron/engine/cache/design-reads';
import type { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import type { WindowHost } from '../../electron/window-host/window-host';
import { openWindowOn, windowStarted as startedWindow } from '../../harness/window';
import { percentile, round, timed } from './measure';
import { scratchDir, serviceWithSyntheticDesigns } from './service';
import { installProbe, type ProbeState } from './window-probe';

export interface BenchWindow {
  engine: Engine;
  /** The contract endpoint the host serves (for timing requests as the engine answers them). */
  endpoint: ReturnType<typeof createContractEndpoint>;
  host: WindowHost;
  page: Page;
  /**
   * How long the engine's pull of the whole catalogue took, with the search index filled behind it (ms); null when a
   * kept profile's cache was used as it was.
   */
  pullMs: number | null;
  close(): Promise<void>;
}

/**
 * The window as a person with a large cache gets it: the local service (its own process) seeded with `designs`
 * synthetic designs, a signed-out engine whose cache a real pull filled, `design-sync ui`'s host serving a fresh
 * build of the window, and a page of Debian's Chromium (as the window tests launch it) on the library.
 */
export async function openBenchWindow(designs: number, options: { keptProfile?: string } = {}): Promise<BenchWindow> {
  const cleanups: (() => unknown)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const { engine, pullMs } = await filledEngine(designs, options.keptProfile, cleanups);
    const window = await openWindowOn(engine, {
      // Measured from the page's start: the probe is installed first, and nothing waits for the window here.
      waitForStart: false,
      async beforeLoad(page) {
        // tsx names functions with a helper of its own, which the probe's serialized functions then call.
        await page.addInitScript({ content: 'globalThis.__name = (target) => target;' });
        await page.addInitScript(installProbe, CARD_SELECTOR);
      },
    });
    cleanups.push(() => window.close());
    return { engine, endpoint: window.endpoint, host: window.host, page: window.page, pullMs, close };
  } catch (error) {
    await close();
    throw error;
  }
}

const openBenchEngine = (profileDir: string, serviceUrl: string) => openEngine({
  profileDir, serviceUrl, userAgent: 'design-sync-bench',
  tokenStore: () => new MemoryTokenStore(null), settingsStore: () => memorySettingsStore(),
});

/**
 * A signed-out engine whose cache holds `designs` synthetic designs, pulled from the local service. With
 * `keptProfile` (a folder), the profile is kept there for the next run, which uses its cache as it is (offline)
 * when it holds as many designs: a million take many minutes to seed and pull.
 */
export async function filledEngine(designs: number, keptProfile: string | undefined, cleanups: (() => unknown)[]): Promise<{ engine: Engine; pullMs: number | null }> {
  if (keptProfile && existsSync(keptProfile)) {
    // A service is chosen (without one the window welcomes a first run), but none listens there: the cache answers,
    // and no pull of the catalogue can change it.
    const kept = await openBenchEngine(keptProfile, 'http://127.0.0.1:9');
    if (countCachedDesigns(kept.cache.reader) === designs) {
      cleanups.push(() => kept.close());
      return { engine: kept, pullMs: null };
    }
    await kept.close();
  }
  const service = await serviceWithSyntheticDesigns(designs);
  cleanups.push(() => service.dispose());
  let profileDir = keptProfile;
  if (profileDir) {
    mkdirSync(profileDir, { recursive: true });
  } else {
    const profile = scratchDir('window-profile');
    cleanups.push(() => profile.dispose());
    profileDir = profile.path;
  }
  const engine = await openBenchEngine(profileDir, service.url);
  cleanups.push(() => engine.close());
  // The cache as the window finds it once the engine is done: the pull, and the search index filled behind it.
  const pull = await timed(async () => {
    await engine.catalogue.pullNow();
    await engine.searchIndex.whenIdle();
  });
  if (countCachedDesigns(engine.cache.reader) !== designs) throw new Error(`the cache holds ${countCachedDesigns(engine.cache.reader)} designs, expected ${designs}`);
  return { engine, pullMs: round(pull.ms, 0) };
}

/** An idle period this long means nothing waits to run in the page: no task queued, no frame due. */
const IDLE_PERIOD_MS = 45;

/**
 * Waits (with a deadline) until the page is idle: its start finished (the window's render after the host's first
 * frame, the answers its socket brought). A navigation started before then shares the page's one thread with the
 * page before it, and measures that page's start as much as its own.
 */
export async function waitForIdlePage(page: Page, timeoutMs = 5_000): Promise<void> {
  await page.evaluate(([period, timeout]) => new Promise<void>((resolve, reject) => {
    const world = globalThis as unknown as { requestIdleCallback(callback: (deadline: { timeRemaining(): number }) => void): void; performance: { now(): number } };
    const until = world.performance.now() + timeout;
    const check = (deadline: { timeRemaining(): number }) => {
      if (deadline.timeRemaining() >= period) resolve();
      else if (world.performance.now() > until) reject(new Error(`the page was not idle within ${timeout} ms`));
      else world.requestIdleCallback(check);
    };
    world.requestIdleCallback(check);
  }), [IDLE_PERIOD_MS, timeoutMs] as const);
}

/** The same grid selector the window tests wait on. */
export const CARD_SELECTOR = '[data-testid="design-card"]';

/** The probe's state in the page (see window-probe.ts). */
export function readProbe(page: Page): Promise<ProbeState> {
  return page.evaluate(() => (globalThis as unknown as { __bench: ProbeState }).__bench);
}

/** Waits for the window itself to have started (harness/window.ts), with the benchmarks' longer deadline. */
export const windowStarted = (page: Page, timeout = 30_000) => startedWindow(page, timeout);

/** Waits (with a deadline) until the probe in the page says `field` is measured. */
export async function waitForProbe(page: Page, field: 'firstCardPaintedAt' | 'keystrokeMs', timeout = 30_000): Promise<number> {
  await page.waitForFunction((name) => (globalThis as unknown as { __bench: ProbeState }).__bench[name] !== null, field, { timeout });
  return (await readProbe(page))[field]!;
}

/** Median, p95 and max of samples, rounded, under a prefix (e.g. warmMedianMs). */
export function spread(prefix: string, samples: readonly number[]): Record<string, number> {
  return {
    [`${prefix}MedianMs`]: round(percentile(samples, 50), 1),
    [`${prefix}P95Ms`]: round(percentile(samples, 95), 1),
    [`${prefix}MaxMs`]: round(Math.max(...samples), 1),
  };
}
