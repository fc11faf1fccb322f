import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { serveFileAddress } from '../../electron/engine/contract/file-addresses';
import { writeLarge3mf, writeLargeGcode } from '../../harness/model-large-files';
import { writeLargeStl } from '../../harness/model-large-stl';
import { clientFor } from '../../harness/sync-computers';
import { openWindow } from '../../harness/window';
import { openBareModelPage, type BareRun } from '../support/bare-model-page';
import { sampleChromiumMemory } from '../support/chromium-memory';
import { round, type ScenarioResult } from '../support/measure';
import { MODEL_MARK_PREFIX } from '../../renderer/src/views/design/model-marks';

export const MODEL_LONG_TASK_GOAL_MS = 50;
/** The window's view against three.js's own loaders in a bare page: at most this many times their time. */
export const MODEL_RATIO_GOAL = 1.5;
const VIEWPORT = { width: 1400, height: 900 };
const DRAWN_WITHIN_MS = 600_000;
const COVER_WITHIN_MS = 60_000;
/**
 * Which of the three files to open, comma-separated keys (`stl,3mf,gcode`, the default all three): the 3MF's bare
 * page alone takes over a minute, so `BENCH_MODEL_FILES=stl` times the STL on its own.
 */
export const MODEL_FILES_ENV = 'BENCH_MODEL_FILES';
/** A folder: the window's opening of each file is traced there (`<key>-window.json`, for chrome://tracing or Perfetto). */
export const MODEL_TRACE_ENV = 'BENCH_MODEL_TRACE';
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'gpu', 'toplevel', 'v8', 'cc', 'viz'];

interface ModelFile {
  key: 'stl' | '3mf' | 'gcode';
  /** The document's name in the design (the button is "View <name> in 3D"). */
  name: string;
  path: string;
  /** What it holds, in words, for the description. */
  holds: string;
}

/**
 * The three large files, made here deterministically: a binary STL of two million triangles (about 95 MB), a 3MF
 * package of one terrain mesh of about 2.2 million triangles (about 30 MB deflated, 175 MB of XML), and G-code of a
 * round part's 310 layers (about 50 MB, 1.6 million extruding moves).
 */
function makeFiles(folder: string, keys: ReadonlySet<ModelFile['key']>): ModelFile[] {
  const files: ModelFile[] = [];
  if (keys.has('stl')) {
    writeLargeStl(join(folder, 'scan.stl'), 2_000_000, { width: 100, depth: 50, height: 30 });
    files.push({ key: 'stl', name: 'Scan (STL)', path: join(folder, 'scan.stl'), holds: '2,000,000 triangles' });
  }
  if (keys.has('3mf')) {
    const terrain = writeLarge3mf(join(folder, 'terrain.3mf'), 1_040, { width: 120, depth: 80 });
    files.push({ key: '3mf', name: 'Terrain (3MF)', path: terrain.path, holds: `${terrain.triangles.toLocaleString('en')} triangles` });
  }
  if (keys.has('gcode')) {
    const part = writeLargeGcode(join(folder, 'part.gcode'), 310);
    files.push({ key: 'gcode', name: 'Part (G-code)', path: part.path, holds: `${part.moves.toLocaleString('en')} extruding moves` });
  }
  return files;
}

/** The files BENCH_MODEL_FILES names (all three when unset); a name that is not one of them is refused. */
function chosenFiles(): Set<ModelFile['key']> {
  const all: ModelFile['key'][] = ['stl', '3mf', 'gcode'];
  const named = (process.env[MODEL_FILES_ENV] ?? '').split(',').map((key) => key.trim().toLowerCase()).filter(Boolean);
  const unknown = named.filter((key) => !(all as string[]).includes(key));
  if (unknown.length > 0) throw new Error(`${MODEL_FILES_ENV} names ${unknown.join(', ')}: the files are ${all.join(', ')}`);
  return new Set(named.length > 0 ? named as ModelFile['key'][] : all);
}

interface AppRun {
  shownMs: number;
  drawnMs: number;
  longestTaskUntilShownMs: number;
  longestTaskUntilDrawnMs: number;
  canvas: { width: number; height: number };
  memory: { chromiumStartMb: number; chromiumPeakMb: number; jsHeapUsedMb: number };
  failed: string | null;
  /** The view's own steps (its performance marks, model-marks.ts) in ms after the click, in the order they came. */
  steps: string;
}

/** Records, in the page, the click on "View … in 3D", the canvas loaded and drawn, and every long task with its start. */
async function watchPage(page: Page): Promise<void> {
  await page.evaluate(() => {
    interface Marks { clickAt: number; loadedAt: number; drawnAt: number; tasks: { start: number; duration: number }[] }
    const scope = globalThis as unknown as {
      modelMarks: Marks;
      document: { addEventListener(type: string, listener: () => void, capture: boolean): void; querySelector(selector: string): unknown; body: unknown };
      MutationObserver: new (callback: () => void) => { observe(target: unknown, options: object): void };
      PerformanceObserver: new (callback: (list: { getEntries(): { startTime: number; duration: number }[] }) => void) => { observe(options: object): void };
    };
    scope.modelMarks = { clickAt: 0, loadedAt: 0, drawnAt: 0, tasks: [] };
    scope.document.addEventListener('click', () => {
      scope.modelMarks = { clickAt: performance.now(), loadedAt: 0, drawnAt: 0, tasks: [] };
    }, true);
    new scope.MutationObserver(() => {
      const marks = scope.modelMarks;
      if (!marks.loadedAt && scope.document.querySelector('canvas[data-loaded="true"]')) marks.loadedAt = performance.now();
      if (!marks.drawnAt && scope.document.querySelector('canvas[data-drawn="true"]')) marks.drawnAt = performance.now();
    }).observe(scope.document.body, { attributes: true, subtree: true, attributeFilter: ['data-loaded', 'data-drawn'] });
    new scope.PerformanceObserver((list) => {
      for (const entry of list.getEntries()) scope.modelMarks.tasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask' });
  });
}

/** Writes the trace Chromium recorded since Tracing.start into `path`. */
async function endTrace(cdp: CDPSession, path: string): Promise<void> {
  const complete = new Promise<string>((resolve) => cdp.once('Tracing.tracingComplete', (event) => resolve(event.stream!)));
  await cdp.send('Tracing.end');
  const stream = await complete;
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  writeFileSync(path, text);
}

async function viewInApp(page: Page, file: ModelFile): Promise<AppRun> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const traceFolder = process.env[MODEL_TRACE_ENV];
  if (traceFolder) await cdp.send('Tracing.start', { traceConfig: { includedCategories: TRACE_CATEGORIES }, transferMode: 'ReturnAsStream' });
  const memory = await sampleChromiumMemory();
  await page.getByRole('button', { name: `View ${file.name} in 3D` }).click();
  const preview = page.getByRole('region', { name: `3D view of ${file.name}` });
  const drawn = preview.locator('canvas[data-drawn="true"]');
  const problem = preview.getByRole('alert');
  await Promise.race([drawn.waitFor({ timeout: DRAWN_WITHIN_MS }), problem.waitFor({ timeout: DRAWN_WITHIN_MS })]);
  const sampled = await memory.stop();
  if (traceFolder) await endTrace(cdp, join(traceFolder, `${file.key}-window.json`));
  const failed = (await problem.count()) > 0 ? await problem.textContent() : null;
  // A frame and a little more, so that a long task ending with the drawing is reported.
  await page.evaluate(() => new Promise((resolve) => (globalThis as unknown as { requestAnimationFrame(callback: () => void): void }).requestAnimationFrame(() => setTimeout(resolve, 200))));
  const marks = await page.evaluate(() => (globalThis as unknown as { modelMarks: { clickAt: number; loadedAt: number; drawnAt: number; tasks: { start: number; duration: number }[] } }).modelMarks);
  const heap = (await cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
  const canvas = failed ? { width: 0, height: 0 } : await preview.locator('canvas').evaluate((element) => {
    const box = element as unknown as { clientWidth: number; clientHeight: number };
    return { width: box.clientWidth, height: box.clientHeight };
  });
  const steps = await page.evaluate(([prefix, since]) => performance.getEntriesByType('mark')
    .filter((mark) => mark.name.startsWith(prefix) && mark.startTime >= since)
    .map((mark) => `${mark.name.slice(prefix.length)} ${Math.round(mark.startTime - since)}`).join(' / '), [MODEL_MARK_PREFIX, marks.clickAt] as const);
  await page.evaluate(() => performance.clearMarks());
  const longest = (until: number) => Math.max(0, ...marks.tasks.filter((task) => task.start < until).map((task) => task.duration));
  await preview.getByRole('button', { name: 'Close the 3D view' }).click();
  await preview.waitFor({ state: 'detached' });
  await cdp.detach();
  return {
    shownMs: failed ? Number.NaN : marks.loadedAt - marks.clickAt, drawnMs: failed ? Number.NaN : marks.drawnAt - marks.clickAt,
    longestTaskUntilShownMs: longest(marks.loadedAt || Infinity), longestTaskUntilDrawnMs: longest(marks.drawnAt || Infinity),
    canvas, memory: { chromiumStartMb: sampled.startMb, chromiumPeakMb: sampled.peakMb, jsHeapUsedMb: heap / 1024 / 1024 }, failed, steps,
  };
}

/**
 * The design page's 3D view of three large models in Chromium over design-sync ui, each against three.js's own
 * loader drawing the same file in a bare page of the same Chromium (bench/model-bare): from "View in 3D" to the first
 * frame drawn (a fence after the drawing, the same way in both: the window's in its model worker, which tells the page,
 * and the clock stops when the page marks its canvas drawn), the longest main-thread task of the page (Long Tasks API)
 * until the model is shown and until it is drawn, and the memory of Chromium's processes (their Pss together, growth to the
 * peak) and of the page's JavaScript heap once drawn. The files are generated here (makeFiles), the window's file
 * cache holds them before the clock starts (as the bare page's server does), and each page fetches each file once.
 * (Chromium's DevTools network domain is left off: with it on, fetching 95 MB took minutes.)
 */
export async function windowModelPreviewScenario(): Promise<ScenarioResult> {
  const folder = mkdtempSync(join(tmpdir(), 'design-sync-bench-model-'));
  try {
    const files = makeFiles(folder, chosenFiles());
    process.stderr.write('window-model-preview: files made\n');
    const documents = new Map<string, number>();
    let designId = 0;
    const app = await openWindow(async (service) => {
      const alice = clientFor(service.url, service.addUser('alice').token);
      const design = await alice.createDesign({ name: 'Large', excerpt: 'Large models', license: 'ccbysa', description: '<p>Large.</p>' });
      for (const file of files) documents.set(file.key, (await alice.uploadDocument(design.id, { path: file.path }, { name: file.name })).id);
      await alice.publishDesign(design.id);
      designId = design.id;
    });
    const runs: { file: ModelFile; app: AppRun; bare: BareRun }[] = [];
    try {
      const { page } = app;
      await page.setViewportSize(VIEWPORT);
      await page.goto(`${app.host.origin}/#/designs/${designId}`);
      await page.getByRole('heading', { name: 'Large', level: 2 }).waitFor({ timeout: 60_000 });
      // The design's documents are known once its page shows them; their files are then fetched into the file cache.
      for (const file of files) {
        await page.getByRole('button', { name: `View ${file.name} in 3D` }).waitFor({ timeout: 60_000 });
        if (!(await serveFileAddress(app.engine, `/files/documents/${documents.get(file.key)}/file`))) throw new Error(`${file.name} did not reach the file cache`);
      }
      // The design has no image: its page makes a picture of a model of it (GeneratedCover) in the thumbnail worker,
      // which draws with the same GPU process. Timed once that is done (the picture shown, or none to be made): the
      // bare page shares its GPU process with nothing.
      const coverDone = async () => (await page.getByTestId('generated-cover').count()) > 0
        || !/being made/.test((await page.locator('.gallery-empty').textContent({ timeout: 1_000 }).catch(() => '')) ?? '');
      const coverBy = Date.now() + COVER_WITHIN_MS;
      while (!(await coverDone()) && Date.now() < coverBy) await page.waitForTimeout(250);
      if (!(await coverDone())) process.stderr.write(`window-model-preview: the cover still being made after ${COVER_WITHIN_MS / 1000} s; timed meanwhile\n`);
      await watchPage(page);
      const bare = await openBareModelPage();
      try {
        for (const file of files) {
          const say = (what: string) => process.stderr.write(`window-model-preview: ${file.name} ${what}\n`);
          say('in the window…');
          const inApp = await viewInApp(page, file);
          say(`drawn in ${Math.round(inApp.drawnMs)} ms${inApp.failed ? ` (failed: ${inApp.failed})` : ''}; in the bare page…`);
          const canvas = inApp.failed ? { width: VIEWPORT.width - 64, height: 380 } : inApp.canvas;
          const inBare = await bare.load(file.path, file.key, canvas, VIEWPORT);
          say(`drawn in ${Math.round(inBare.totalMs)} ms`);
          runs.push({ file, app: inApp, bare: inBare });
        }
      } finally {
        await bare.close();
      }
    } finally {
      await app.close();
    }
    const metrics: Record<string, number | string> = {};
    const goals: ScenarioResult['goals'] = [];
    for (const { file, app: inApp, bare } of runs) {
      const k = file.key;
      const ratio = inApp.failed ? Number.NaN : inApp.drawnMs / bare.totalMs;
      Object.assign(metrics, {
        [`${k}FileMb`]: round(statSync(file.path).size / 1024 / 1024, 1),
        [`${k}AppShownMs`]: round(inApp.shownMs, 0), [`${k}AppDrawnMs`]: round(inApp.drawnMs, 0),
        [`${k}BareMs`]: round(bare.totalMs, 0),
        [`${k}BareFetchParseRenderDrawMs`]: [bare.fetchMs, bare.parseMs, bare.renderCallMs, bare.drawMs].map((ms) => round(ms, 0)).join(' / '),
        [`${k}AppStepsMs`]: inApp.steps,
        [`${k}Ratio`]: round(ratio, 2),
        [`${k}AppLongestTaskUntilShownMs`]: round(inApp.longestTaskUntilShownMs, 0),
        [`${k}AppLongestTaskUntilDrawnMs`]: round(inApp.longestTaskUntilDrawnMs, 0),
        [`${k}BareLongestTaskMs`]: round(bare.longestTaskMs, 0),
        [`${k}AppChromiumGrowthMb`]: round(inApp.memory.chromiumPeakMb - inApp.memory.chromiumStartMb, 0),
        [`${k}BareChromiumGrowthMb`]: round(bare.memory.chromiumPeakMb - bare.memory.chromiumStartMb, 0),
        [`${k}AppJsHeapMb`]: round(inApp.memory.jsHeapUsedMb, 0), [`${k}BareJsHeapMb`]: round(bare.memory.jsHeapUsedMb, 0),
      });
      if (inApp.failed) metrics[`${k}AppFailed`] = inApp.failed;
      goals.push(
        { metric: `${k}Ratio`, target: `≤ ${MODEL_RATIO_GOAL}`, met: ratio <= MODEL_RATIO_GOAL },
        { metric: `${k}AppLongestTaskUntilShownMs`, target: `≤ ${MODEL_LONG_TASK_GOAL_MS}`, met: !inApp.failed && inApp.longestTaskUntilShownMs <= MODEL_LONG_TASK_GOAL_MS },
        // The whole load, the first drawing included: the drawing is the model worker's, not the page's.
        { metric: `${k}AppLongestTaskUntilDrawnMs`, target: `≤ ${MODEL_LONG_TASK_GOAL_MS}`, met: !inApp.failed && inApp.longestTaskUntilDrawnMs <= MODEL_LONG_TASK_GOAL_MS },
      );
    }
    return {
      name: 'window-model-preview',
      description: `3D view in Chromium over design-sync ui, "View in 3D" to the first frame drawn, against three.js's own loaders in a bare page: ${runs.map(({ file }) => `${file.name} (${file.holds})`).join(', ')}`,
      metrics, goals,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
