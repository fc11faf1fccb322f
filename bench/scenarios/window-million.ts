import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { DEFAULT_COUNT_BOUND } from '../../electron/engine/library/library';
import type { LicenseCode } from '../../shared';
import { percentile, round, type ScenarioResult } from '../support/measure';
import { pageQueries } from '../support/search-probe';
import { queries } from '../support/search-queries';
import { openBenchWindow, spread, waitForProbe, type BenchWindow } from '../support/window';
import { FIRST_RENDER_GOAL_MS, measureFirstRender, NAVIGATIONS } from './window-first-render';
import { measureScroll } from './window-scroll';
import { expectedFor, KEYSTROKE_GOAL_MS, keystrokeFigures, typeQueries } from './window-search';

/** Where a filled million-design profile is kept between runs (filling it takes many minutes): a folder. */
export const KEPT_PROFILE_ENV = 'BENCH_WINDOW_1M_PROFILE';
const LICENSE: LicenseCode = 'ccby';
/** Fewer queries than window-search: each is typed twice (without and with a license). */
const QUERIES = queries().slice(0, 12);
/** A million designs are 78 million pixels of grid: the first few thousand viewports are scrolled. */
const SCROLL_FRAMES = 3_000;
const PAGE_GOAL_MS = 50;

/** Chooses a license in the window's filter and waits until the grid shows its count. */
async function chooseLicense(window: BenchWindow, license: LicenseCode | ''): Promise<void> {
  const { total: expected } = await expectedFor(window, '', license ? [license] : []);
  await window.page.getByLabel('License').selectOption(license);
  await window.page.waitForFunction(
    (total) => Number((globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('.library .count')?.textContent?.replace(/\D/g, '') || '-1') === total,
    expected, { timeout: 30_000 },
  );
}

/** library.page as the engine answers it (count, cards and their authors), for what a person types. */
async function timePages(window: BenchWindow, licenses: LicenseCode[]): Promise<number[]> {
  const samples: number[] = [];
  for (const query of pageQueries()) {
    const started = performance.now();
    const outcome = await window.endpoint.handle('library.page', { query, licenses, sort: 'newest', offset: 0, limit: 60 });
    samples.push(performance.now() - started);
    if (!outcome.ok) throw new Error(`library.page failed: ${outcome.problem.message}`);
  }
  return samples;
}

/**
 * The exact counts the window asks after a page that stopped counting: how long each takes to answer, and the longest
 * the engine's thread (this process's) was held meanwhile, which a keystroke's page would wait for.
 */
async function timeExactCounts(window: BenchWindow): Promise<{ samples: number[]; engineHeldMaxMs: number }> {
  const samples: number[] = [];
  const held = monitorEventLoopDelay({ resolution: 10 });
  held.enable();
  for (const query of pageQueries().slice(0, 32)) {
    const started = performance.now();
    await window.endpoint.handle('library.count', { query, licenses: [LICENSE] });
    samples.push(performance.now() - started);
  }
  held.disable();
  return { samples, engineHeldMaxMs: round(held.max / 1e6, 1) };
}

/** Figures under a prefix: worstP95Ms → firstRenderWorstP95Ms. */
function prefixed(prefix: string, figures: Record<string, number | string>): Record<string, number | string> {
  return Object.fromEntries(Object.entries(figures).map(([key, value]) => [`${prefix}${key[0]!.toUpperCase()}${key.slice(1)}`, value]));
}

async function settle(page: Page): Promise<void> {
  await waitForProbe(page, 'firstCardPaintedAt');
}

/**
 * The window over a million cached designs (opt-in: `npm run bench -- window-1m`; BENCH_WINDOW_1M_PROFILE keeps the
 * filled profile for the next run): first render, search as you type without and with a license filter, the
 * engine's library pages, the exact counts that follow them, and scrolling.
 */
export async function windowMillionScenario(designs = 1_000_000, name = 'window-1m'): Promise<ScenarioResult> {
  const window = await openBenchWindow(designs, { keptProfile: process.env[KEPT_PROFILE_ENV] || undefined });
  try {
    const firstRender = await measureFirstRender(window);
    await settle(window.page);
    const typed = keystrokeFigures(await typeQueries(window, QUERIES));
    await chooseLicense(window, LICENSE);
    const licensed = keystrokeFigures(await typeQueries(window, QUERIES, [LICENSE]));
    await chooseLicense(window, '');
    const pages = await timePages(window, []);
    const licensedPages = await timePages(window, [LICENSE]);
    const exactCounts = await timeExactCounts(window);
    const scroll = await measureScroll(window, SCROLL_FRAMES);
    const licensedPageP95 = round(percentile(licensedPages, 95), 1);
    return {
      name,
      description: `the library in Chromium over design-sync ui with ${designs} cached designs: first render (${NAVIGATIONS} warm, ${NAVIGATIONS} cold navigations), `
        + `${typed.keystrokes} keystrokes without and ${licensed.keystrokes} with a license filter, ${pages.length} library.page requests `
        + `without and with it (counts stop at ${DEFAULT_COUNT_BOUND}), exact counts, and ${SCROLL_FRAMES} frames of scrolling`,
      metrics: {
        designs,
        cacheFillMs: window.pullMs ?? 'kept',
        ...prefixed('firstRender', firstRender),
        ...prefixed('typed', typed),
        ...prefixed('licensed', licensed),
        ...spread('page', pages),
        ...spread('licensedPage', licensedPages),
        ...spread('exactLicensedCount', exactCounts.samples),
        engineHeldDuringExactCountsMaxMs: exactCounts.engineHeldMaxMs,
        scrollFrames: scroll.frames, scrollFrameP95Ms: scroll.frameP95Ms, scrollFramesWithPlaceholders: scroll.framesWithPlaceholders,
        longTasksOver50Ms: scroll.longTasksOver50Ms, longestTaskMs: scroll.longestTaskMs,
      },
      goals: [
        { metric: 'firstRenderWorstP95Ms', target: `≤ ${FIRST_RENDER_GOAL_MS}`, met: firstRender.worstP95Ms <= FIRST_RENDER_GOAL_MS },
        { metric: 'typedP95Ms', target: `≤ ${KEYSTROKE_GOAL_MS}`, met: typed.p95Ms <= KEYSTROKE_GOAL_MS },
        { metric: 'licensedP95Ms', target: `≤ ${KEYSTROKE_GOAL_MS}`, met: licensed.p95Ms <= KEYSTROKE_GOAL_MS },
        { metric: 'licensedPageP95Ms', target: `≤ ${PAGE_GOAL_MS}`, met: licensedPageP95 <= PAGE_GOAL_MS },
        { metric: 'longTasksOver50Ms', target: '= 0', met: scroll.longTasksOver50Ms === 0 },
      ],
    };
  } finally {
    await window.close();
  }
}
