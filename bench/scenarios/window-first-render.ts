import { percentile, round, type ScenarioResult } from '../support/measure';
import { openBenchWindow, spread, waitForIdlePage, waitForProbe, type BenchWindow } from '../support/window';

const DESIGNS = 100_000;
/**
 * Warm navigations, and as many cold ones. With 12 of each (until 2026-11-27) the p95 by nearest rank was the slowest
 * of the 12: one slow navigation decided the figure. With 20 it is the 19th of 20; the slowest is reported beside it.
 */
export const NAVIGATIONS = 20;
export const FIRST_RENDER_GOAL_MS = 150;

/**
 * Navigation start → the first frame painted with a design card in it, measured in the page, over fresh navigations
 * to the library: warm (the browser's cache holds the window's scripts) and cold (the browser's cache cleared first).
 * Each starts from an idle page, as a window is opened: not while the page before is still starting.
 */
export async function measureFirstRender(window: BenchWindow, navigations = NAVIGATIONS) {
  const { page } = window;
  const cdp = await page.context().newCDPSession(page);
  const navigate = async (cold: boolean) => {
    await waitForIdlePage(page);
    if (cold) await cdp.send('Network.clearBrowserCache');
    await page.goto(`${window.host.origin}/`);
    return waitForProbe(page, 'firstCardPaintedAt');
  };
  const first = await navigate(false);
  const warm: number[] = [];
  const cold: number[] = [];
  for (let i = 0; i < navigations; i++) {
    cold.push(await navigate(true));
    warm.push(await navigate(false));
  }
  const p95 = round(Math.max(percentile(warm, 95), percentile(cold, 95)), 1);
  return { firstNavigationMs: round(first, 1), ...spread('warm', warm), ...spread('cold', cold), worstP95Ms: p95, navigations: warm.length + cold.length };
}

export async function windowFirstRenderScenario(): Promise<ScenarioResult> {
  const window = await openBenchWindow(DESIGNS);
  try {
    const measured = await measureFirstRender(window);
    return {
      name: 'window-first-render',
      description: `library in Chromium over design-sync ui, ${DESIGNS} cached designs: navigation start → first frame painted with a card (${NAVIGATIONS} warm and ${NAVIGATIONS} cold navigations)`,
      metrics: { designs: DESIGNS, cacheFillMs: window.pullMs ?? 'kept', ...measured },
      goals: [{ metric: 'worstP95Ms', target: `≤ ${FIRST_RENDER_GOAL_MS}`, met: measured.worstP95Ms <= FIRST_RENDER_GOAL_MS }],
    };
  } finally {
    await window.close();
  }
}
