import type { Page } from 'playwright-core';
import { countCachedDesigns, listCachedDesigns } from '../../electron/engine/cache/design-reads';
import type { Engine } from '../../electron/engine/runtime/engine';
import { percentile, round, type ScenarioResult } from '../support/measure';
import { openBenchWindow, spread, waitForProbe, type BenchWindow } from '../support/window';
import { armKeystroke, type ExpectedResults } from '../support/window-probe';
import { queries } from './search-designs';

const DESIGNS = 100_000;
/** Two queries of each kind search-100k types, letter by letter, each cleared with one Backspace after select-all. */
const QUERIES = queries().slice(0, 16);
/** The first row of cards at the window's size. */
const FIRST_CARDS = 4;
const GOAL_MS = 50;

/** What the library's page request answers for this search (the same reads as the engine's handler). */
function expectedFor(engine: Engine, query: string): ExpectedResults {
  const filter = { query, license: [] };
  return {
    query,
    total: countCachedDesigns(engine.cache.reader, filter),
    firstNames: listCachedDesigns(engine.cache.reader, { ...filter, sort: 'newest', offset: 0, limit: FIRST_CARDS }).map((design) => design.name),
  };
}

/** One key, from its keydown to the frame painted after the grid shows what it asked for. */
async function keystroke(page: Page, expected: ExpectedResults, press: () => Promise<void>): Promise<number> {
  await page.evaluate(armKeystroke, expected);
  await press();
  return waitForProbe(page, 'keystrokeMs', 10_000);
}

async function typeQueries(window: BenchWindow): Promise<{ samples: number[]; keystrokes: string[] }> {
  const { page, engine } = window;
  const samples: number[] = [];
  const keystrokes: string[] = [];
  const box = page.getByPlaceholder('Search designs');
  await box.focus();
  for (const query of QUERIES) {
    for (let typed = 1; typed <= query.length; typed++) {
      const char = query[typed - 1]!;
      samples.push(await keystroke(page, expectedFor(engine, query.slice(0, typed)), () => page.keyboard.type(char)));
      keystrokes.push(query.slice(0, typed));
    }
    await page.keyboard.press('Control+A');
    samples.push(await keystroke(page, expectedFor(engine, ''), () => page.keyboard.press('Backspace')));
    keystrokes.push('⌫');
  }
  return { samples, keystrokes };
}

/** Search as you type over 100k cached designs in the window: each keystroke's latency, measured in the page. */
export async function windowSearchScenario(): Promise<ScenarioResult> {
  const window = await openBenchWindow(DESIGNS);
  try {
    await waitForProbe(window.page, 'firstCardPaintedAt');
    const { samples, keystrokes } = await typeQueries(window);
    const p95 = percentile(samples, 95);
    const slowest = samples.map((ms, i) => ({ ms, key: keystrokes[i]! })).sort((a, b) => b.ms - a.ms).slice(0, 5);
    return {
      name: 'window-search',
      description: `search box in Chromium over design-sync ui, ${DESIGNS} cached designs: keydown → frame painted with the new results, ${samples.length} keystrokes of ${QUERIES.length} queries`,
      metrics: {
        designs: DESIGNS,
        cacheFillMs: window.pullMs,
        keystrokes: samples.length,
        ...spread('keystroke', samples),
        p95Ms: round(p95, 1),
        slowestKeystrokes: slowest.map(({ ms, key }) => `"${key}" ${round(ms, 0)}`).join(', '),
      },
      goals: [{ metric: 'p95Ms', target: `≤ ${GOAL_MS}`, met: p95 <= GOAL_MS }],
    };
  } finally {
    await window.close();
  }
}
