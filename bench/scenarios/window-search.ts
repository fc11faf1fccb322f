import type { Page } from 'playwright-core';
import type { LicenseCode } from '../../shared';
import { percentile, round, type ScenarioResult } from '../support/measure';
import { openBenchWindow, spread, waitForProbe, type BenchWindow } from '../support/window';
import { armKeystroke, type ExpectedResults } from '../support/window-probe';
import { queries } from './search-designs';

const DESIGNS = 100_000;
/** Two queries of each kind search-100k types, letter by letter, each cleared with one Backspace after select-all. */
const QUERIES = queries().slice(0, 16);
/** The first row of cards at the window's size. */
const FIRST_CARDS = 4;
/** The window's first page (PAGE_SIZE in renderer/src/stores/library-store.ts). */
const WINDOW_PAGE_SIZE = 60;
export const KEYSTROKE_GOAL_MS = 50;

/**
 * What the library's page request answers for this search, asked of the engine as the window asks it (its count
 * may stop early, or be exact when the engine counted that search before).
 */
export async function expectedFor(window: BenchWindow, query: string, licenses: readonly LicenseCode[] = []): Promise<ExpectedResults> {
  const outcome = await window.endpoint.handle('library.page', { query, licenses, sort: 'newest', offset: 0, limit: WINDOW_PAGE_SIZE });
  if (!outcome.ok) throw new Error(`library.page failed: ${outcome.problem.message}`);
  const page = outcome.value as { total: number; items: { name: string }[] };
  return { query, total: page.total, firstNames: page.items.slice(0, FIRST_CARDS).map((card) => card.name) };
}

/** One key, from its keydown to the frame painted after the grid shows what it asked for. */
async function keystroke(page: Page, expected: ExpectedResults, press: () => Promise<void>): Promise<number> {
  await page.evaluate(armKeystroke, expected);
  await press();
  try {
    return await waitForProbe(page, 'keystrokeMs', 10_000);
  } catch (error) {
    const shown = await page.evaluate(() => {
      const { document } = globalThis as unknown as { document: { querySelector(selector: string): { textContent: string | null; getAttribute(name: string): string | null } | null } };
      return { query: document.querySelector('section.library')?.getAttribute('data-shown-query'), count: document.querySelector('.library .count')?.textContent };
    });
    throw new Error(`the window did not show ${JSON.stringify(expected)} within 10 s; it shows ${JSON.stringify(shown)}`, { cause: error });
  }
}

/**
 * Types each query letter by letter (each cleared with one Backspace after select-all), timing every key; `license`:
 * the license the window's filter has chosen (the expected results are then that license's).
 */
export async function typeQueries(window: BenchWindow, queries = QUERIES, license: readonly LicenseCode[] = []): Promise<{ samples: number[]; keystrokes: string[] }> {
  const { page } = window;
  const samples: number[] = [];
  const keystrokes: string[] = [];
  const box = page.getByPlaceholder('Search designs');
  await box.focus();
  for (const query of queries) {
    for (let typed = 1; typed <= query.length; typed++) {
      const char = query[typed - 1]!;
      samples.push(await keystroke(page, await expectedFor(window, query.slice(0, typed), license), () => page.keyboard.type(char)));
      keystrokes.push(query.slice(0, typed));
    }
    await page.keyboard.press('Control+A');
    samples.push(await keystroke(page, await expectedFor(window, '', license), () => page.keyboard.press('Backspace')));
    keystrokes.push('⌫');
  }
  return { samples, keystrokes };
}

/** The figures of typed keystrokes: their spread, p95, and the five slowest. */
export function keystrokeFigures({ samples, keystrokes }: { samples: number[]; keystrokes: string[] }) {
  const slowest = samples.map((ms, i) => ({ ms, key: keystrokes[i]! })).sort((a, b) => b.ms - a.ms).slice(0, 5);
  return {
    keystrokes: samples.length,
    ...spread('keystroke', samples),
    p95Ms: round(percentile(samples, 95), 1),
    slowestKeystrokes: slowest.map(({ ms, key }) => `"${key}" ${round(ms, 0)}`).join(', '),
  };
}

/** Search as you type over 100k cached designs in the window: each keystroke's latency, measured in the page. */
export async function windowSearchScenario(): Promise<ScenarioResult> {
  const window = await openBenchWindow(DESIGNS);
  try {
    await waitForProbe(window.page, 'firstCardPaintedAt');
    const measured = keystrokeFigures(await typeQueries(window));
    return {
      name: 'window-search',
      description: `search box in Chromium over design-sync ui, ${DESIGNS} cached designs: keydown → frame painted with the new results, ${measured.keystrokes} keystrokes of ${QUERIES.length} queries`,
      metrics: { designs: DESIGNS, cacheFillMs: window.pullMs ?? 'kept', ...measured },
      goals: [{ metric: 'p95Ms', target: `≤ ${KEYSTROKE_GOAL_MS}`, met: measured.p95Ms <= KEYSTROKE_GOAL_MS }],
    };
  } finally {
    await window.close();
  }
}
