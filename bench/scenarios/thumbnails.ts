import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ServiceClient } from '../../electron/engine/api/service-client';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { pullOwnDesigns } from '../../electron/engine/cache/pull';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { writeLargeStl } from '../../harness/model-large-stl';
import { prepareUsers, startServiceProcess } from '../../harness/service-process';
import { openWindowOn } from '../../harness/window';
import { median, round, type ScenarioResult } from '../support/measure';
import { scratchDir } from '../support/service';
import { CARD_SELECTOR, waitForProbe, type BenchWindow } from '../support/window';
import { installProbe, type ProbeState } from '../support/window-probe';
import { KEYSTROKE_GOAL_MS, keystrokeFigures, typeQueries } from './window-search';

const DESIGNS = 100;
/** Each design's one model: a binary STL of this many triangles (about 1 MB), of a size of its own (no two alike). */
const TRIANGLES = 20_000;
const GOAL_MS = 30_000;
/** What the designs are called (a word and a number), so that typing a word brings some of them and not others. */
const WORDS = ['bracket', 'gear', 'hinge', 'clip', 'mount'];
/** Typed letter by letter while the pictures are being made, each cleared with select-all and Backspace. */
const QUERIES = ['bracket', 'gear', 'hinge', 'clip', 'mount', 'gear 1'];
/**
 * Typed again once a third of the pictures are made, while the grid is looked through: the person comes back to the
 * search box with pictures under way (the first keys of it land while one is drawn).
 */
const MIDWAY_QUERIES = ['clip', 'mount'];
/** No picture made for this long while some are missing: the scenario fails, naming what it saw. */
const STALL_MS = 20_000;

/** How many designs have a picture made here (each one from its model as it is now). */
function picturesMade(window: BenchWindow): number {
  return window.engine.cache.reader.prepare('SELECT count(*) FROM generated_thumbnails WHERE problem IS NULL').pluck().get() as number;
}

/**
 * One step of a person looking through the library: when every card on screen shows its picture, the grid is
 * scrolled down one screen. Answers what it saw.
 */
function lookFurther(): { blankInView: number; atBottom: boolean } {
  const page = globalThis as unknown as {
    document: { querySelector(selector: string): Scroller | null; querySelectorAll(selector: string): ArrayLike<{ getBoundingClientRect(): { top: number; bottom: number } }> };
  };
  interface Scroller { scrollTop: number; clientHeight: number; scrollHeight: number; getBoundingClientRect(): { top: number; bottom: number } }
  const scroller = page.document.querySelector('.grid-scroller');
  if (!scroller) return { blankInView: -1, atBottom: true };
  const box = scroller.getBoundingClientRect();
  const inView = (selector: string) => Array.from(page.document.querySelectorAll(selector)).filter((element) => {
    const rect = element.getBoundingClientRect();
    return rect.bottom > box.top && rect.top < box.bottom;
  }).length;
  const blankInView = inView('.thumb-none');
  const atBottom = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1;
  // Cards still loading (a page of the library not come yet) are waited for; at the bottom, the look starts again
  // from the top (a card scrolled past before it asked for its picture).
  if (blankInView === 0 && inView('.card-loading') === 0) scroller.scrollTop = atBottom ? 0 : scroller.scrollTop + scroller.clientHeight;
  return { blankInView, atBottom };
}

/** The grid scrolled back to its top. */
function backToTop(): void {
  const scroller = (globalThis as unknown as { document: { querySelector(selector: string): { scrollTop: number } | null } }).document.querySelector('.grid-scroller');
  if (scroller) scroller.scrollTop = 0;
}

/** The longest of the page's tasks (over 50 ms) since `since` (performance.now() in the page), or 0. */
async function longestTaskSince(page: Page, since: number): Promise<number> {
  const state = await page.evaluate(() => (globalThis as unknown as { __bench: ProbeState }).__bench);
  return Math.max(0, ...state.longTasks.filter((task) => task.startTime >= since).map((task) => task.duration));
}

/**
 * The median time of each step of a picture in the thumbnail worker, as the page records them (performance measures
 * named as renderer/src/thumbnails/thumbnail-drawer.ts names them).
 */
async function stepMedians(page: Page): Promise<{ fetchMedianMs: number; readMedianMs: number; drawMedianMs: number }> {
  const steps = await page.evaluate(() => {
    const timeline = (globalThis as unknown as { performance: { getEntriesByName(name: string, type: string): { duration: number }[] } }).performance;
    const of = (step: string) => timeline.getEntriesByName(`design-sync thumbnail ${step}`, 'measure').map((entry) => entry.duration);
    return { fetch: of('fetch'), read: of('read'), draw: of('draw') };
  });
  const at = (samples: number[]) => (samples.length > 0 ? round(median(samples), 0) : -1);
  return { fetchMedianMs: at(steps.fetch), readMedianMs: at(steps.read), drawMedianMs: at(steps.draw) };
}

/**
 * Pictures made in the window from each design's model, for 100 designs without images, as a person sees them: the
 * library opens, keys are typed in its search box while the first pictures are made (each keystroke timed as
 * window-search times it), then the grid is looked through a screen at a time, each screen once its cards show their
 * pictures, until all 100 have one; once a third are made, a few more searches are typed.
 */
export async function thumbnailsScenario(): Promise<ScenarioResult> {
  const name = 'thumbnails';
  const description = `${DESIGNS} designs without images, each with one binary STL of ${TRIANGLES} triangles: from the window started on the library (Chromium over design-sync ui, 1100×760) until every design has its picture made from its model, while ${QUERIES.length} searches are typed letter by letter (keydown → results painted), then the grid looked through a screen at a time, ${MIDWAY_QUERIES.length} more searches typed once a third of the pictures are made`;
  const scratch = scratchDir('thumbnails');
  const cleanups: (() => unknown)[] = [() => scratch.dispose()];
  try {
    const dataDir = join(scratch.path, 'service');
    mkdirSync(dataDir);
    const token = prepareUsers(dataDir, ['maker']).maker!;
    const service = await startServiceProcess({ dataDir });
    cleanups.push(() => service.stop());
    const api = new ServiceClient({ baseUrl: service.url, token: () => token });
    const models = join(scratch.path, 'models');
    mkdirSync(models);
    for (let d = 0; d < DESIGNS; d++) {
      const word = WORDS[d % WORDS.length]!;
      const design = await api.createDesign({ name: `${word[0]!.toUpperCase()}${word.slice(1)} ${d + 1}`, excerpt: 'Only a model, no image', license: 'cc0' });
      const stl = writeLargeStl(join(models, `${word}-${d + 1}.stl`), TRIANGLES, { width: 20 + d, depth: 30 + (d % 7) * 5, height: 10 + (d % 11) * 4 });
      await api.uploadDocument(design.id, { path: stl });
      await api.publishDesign(design.id);
    }

    const profile = join(scratch.path, 'profile');
    // The maker's own designs, as a sync pass brings them: with their lists of documents, which the pictures are made from.
    const engine = await openEngine({ profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-bench', tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore() });
    cleanups.push(() => engine.close());
    await engine.catalogue.pullNow();
    await pullOwnDesigns(engine.connection.client(), engine.cache.db, engine.cache.files);
    await engine.searchIndex.whenIdle();
    const opened = await openWindowOn(engine, {
      waitForStart: false,
      async beforeLoad(page) {
        // tsx names functions with a helper of its own, which the probe's serialized functions then call.
        await page.addInitScript({ content: 'globalThis.__name = (target) => target;' });
        await page.addInitScript(installProbe, CARD_SELECTOR);
      },
    });
    cleanups.push(() => opened.close());
    const window: BenchWindow = { engine, endpoint: opened.endpoint, host: opened.host, page: opened.page, pullMs: null, close: () => opened.close() };
    const startedAt = await waitForProbe(window.page, 'firstCardPaintedAt');
    const started = performance.now();

    const typed = await typeQueries(window, QUERIES);
    const madeWhileTyping = picturesMade(window);
    const typingMs = performance.now() - started;

    let last = madeWhileTyping;
    let lastChange = performance.now();
    let seen = { blankInView: 0, atBottom: false };
    let typedMidway: Awaited<ReturnType<typeof typeQueries>> | null = null;
    let madeWhileTypingMidway = 0;
    for (;;) {
      const made = picturesMade(window);
      if (made >= DESIGNS) break;
      if (!typedMidway && made >= DESIGNS / 3) {
        // Back at the top of the grid, where a search's first results are shown.
        await window.page.evaluate(backToTop);
        typedMidway = await typeQueries(window, MIDWAY_QUERIES);
        madeWhileTypingMidway = picturesMade(window) - made;
        lastChange = performance.now();
        continue;
      }
      if (made !== last) {
        last = made;
        lastChange = performance.now();
      } else if (performance.now() - lastChange > STALL_MS) {
        throw new Error(`no picture was made for ${STALL_MS / 1000} s with ${made} of ${DESIGNS} made (the screen shows ${seen.blankInView} cards without one${seen.atBottom ? ', scrolled to the bottom' : ''})`);
      }
      seen = await window.page.evaluate(lookFurther);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const allMs = performance.now() - started;
    const keystrokes = keystrokeFigures({
      samples: [...typed.samples, ...typedMidway?.samples ?? []], keystrokes: [...typed.keystrokes, ...typedMidway?.keystrokes ?? []],
    });
    return {
      name, description,
      metrics: {
        designs: DESIGNS,
        allPicturesMs: round(allMs, 0),
        perPictureMs: round(allMs / DESIGNS, 0),
        madeWhileTyping,
        madeWhileTypingMidway,
        typingMs: round(typingMs, 0),
        ...keystrokes,
        longestTaskMs: round(await longestTaskSince(window.page, startedAt), 0),
        ...await stepMedians(window.page),
      },
      goals: [
        { metric: 'allPicturesMs', target: `≤ ${GOAL_MS}`, met: allMs <= GOAL_MS },
        { metric: 'p95Ms', target: `≤ ${KEYSTROKE_GOAL_MS} (keystrokes while pictures are made)`, met: keystrokes.p95Ms <= KEYSTROKE_GOAL_MS },
      ],
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}
