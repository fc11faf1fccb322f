import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { startWindowHost, type WindowHost } from '../../electron/window-host/window-host';
import { launchChromium } from '../../test/support/chromium';
import { buildWindow } from '../../test/support/window-build';
import { percentile, round, timed } from './measure';
import { scratchDir, serviceWithSyntheticDesigns } from './service';
import { installProbe, type ProbeState } from './window-probe';

export interface BenchWindow {
  engine: Engine;
  host: WindowHost;
  page: Page;
  /** How long the engine's pull of the whole catalogue took (ms). */
  pullMs: number;
  close(): Promise<void>;
}

/**
 * The window as a person with a large cache gets it: the local service (its own process) seeded with `designs`
 * synthetic designs, a signed-out engine whose cache a real pull filled, `design-sync ui`'s host serving a fresh
 * build of the window, and a page of Debian's Chromium (as the window tests launch it) on the library.
 */
export async function openBenchWindow(designs: number): Promise<BenchWindow> {
  const cleanups: (() => unknown)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const service = await serviceWithSyntheticDesigns(designs);
    cleanups.push(() => service.dispose());
    const profile = scratchDir('window-profile');
    cleanups.push(() => profile.dispose());
    const built = await buildWindow();
    cleanups.push(() => rmSync(built, { recursive: true, force: true }));
    const engine = await openEngine({
      profileDir: profile.path, serviceUrl: service.url, userAgent: 'design-sync-bench',
      tokenStore: () => new MemoryTokenStore(null), settingsStore: () => memorySettingsStore(),
    });
    cleanups.push(() => engine.close());
    const pull = await timed(() => engine.catalogue.pullNow());
    if (pull.result.designs.inserted !== designs) throw new Error(`the cache holds ${pull.result.designs.inserted} designs, expected ${designs}`);
    const endpoint = createContractEndpoint(engine);
    cleanups.push(() => endpoint.close());
    const host = await startWindowHost({ endpoint, staticDir: built });
    cleanups.push(() => host.close());
    const chromium = await launchChromium();
    cleanups.push(() => chromium.close());
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width: 1100, height: 760 });
    // tsx names functions with a helper of its own, which the probe's serialized functions then call.
    await page.addInitScript({ content: 'globalThis.__name = (target) => target;' });
    await page.addInitScript(installProbe, CARD_SELECTOR);
    // The secret becomes the session's cookie: later navigations go to the origin alone.
    await page.goto(host.url);
    return { engine, host, page, pullMs: round(pull.ms, 0), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The same grid selector the window tests wait on. */
export const CARD_SELECTOR = '[data-testid="design-card"]';

/** The probe's state in the page (see window-probe.ts). */
export function readProbe(page: Page): Promise<ProbeState> {
  return page.evaluate(() => (globalThis as unknown as { __bench: ProbeState }).__bench);
}

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
