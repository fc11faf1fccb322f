import { percentile, round, type ScenarioResult } from '../support/measure';
import { openBenchWindow, readProbe, waitForProbe, windowStarted, type BenchWindow } from '../support/window';
import { scrollWholeGrid } from '../support/window-probe';

const DESIGNS = 100_000;
const LONG_TASK_MS = 50;

/** The whole grid scrolled from top to bottom, one viewport a frame, long tasks recorded by the page. */
export async function measureScroll(window: BenchWindow, maxFrames?: number) {
  const { page } = window;
  await waitForProbe(page, 'firstCardPaintedAt');
  // The first card may be the host's first frame (inert, the first screen's rows only): the grid scrolled is the window's.
  await windowStarted(page);
  const run = await page.evaluate(scrollWholeGrid, maxFrames);
  const longTasks = (await readProbe(page)).longTasks.filter((task) => task.startTime >= run.startedAt && task.startTime <= run.endedAt);
  const over = longTasks.filter((task) => task.duration > LONG_TASK_MS);
  const longest = Math.max(0, ...longTasks.map((task) => task.duration));
  return {
    scrolledPx: run.scrolledPx,
    frames: run.frames,
    durationMs: round(run.durationMs, 0),
    frameP50Ms: round(percentile(run.frameIntervals, 50), 1),
    frameP95Ms: round(percentile(run.frameIntervals, 95), 1),
    frameMaxMs: round(Math.max(...run.frameIntervals), 1),
    framesWithPlaceholders: run.framesWithPlaceholders,
    longTasksOver50Ms: over.length,
    // The Long Tasks API reports only tasks over 50 ms: none means the longest was shorter.
    longestTaskMs: longTasks.length > 0 ? round(longest, 1) : `< ${LONG_TASK_MS}`,
  };
}

export async function windowScrollScenario(): Promise<ScenarioResult> {
  const window = await openBenchWindow(DESIGNS);
  try {
    const measured = await measureScroll(window);
    return {
      name: 'window-scroll',
      description: `the library grid in Chromium over design-sync ui, ${DESIGNS} cached designs scrolled top to bottom one viewport a frame; long tasks from PerformanceObserver('longtask')`,
      metrics: { designs: DESIGNS, cacheFillMs: window.pullMs ?? 'kept', ...measured },
      goals: [{ metric: 'longTasksOver50Ms', target: '= 0', met: measured.longTasksOver50Ms === 0 }],
    };
  } finally {
    await window.close();
  }
}
