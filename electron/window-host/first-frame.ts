import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FIRST_FRAME_FILE, FIRST_FRAME_FOLDER, FIRST_LIBRARY_PAGE, type FirstFrameRenderer, type FirstFrameWords, type LibraryPage, type PageLanguage, type PreloadedAnswer } from '../../shared';
import type { PageTemplate } from './page-template';
import { pageInLanguage } from './page-language';
import { pageWithAnswers } from './preloaded-page';

/** The library's first screen as markup for the page's root, and the CSP hashes of the style attributes in it. */
export interface FirstFrame {
  markup: string;
  styleHashes: string[];
}

/** A page ready to serve: its HTML and the CSP hashes of the styles written into it. */
export interface PageWithFrame {
  html: string;
  styleHashes: string[];
}

/** Where the window's build puts the first frame's renderer: beside the built window (dist/first-frame/ by dist/renderer/). */
export function firstFrameModuleBeside(staticDir: string): string {
  return join(dirname(staticDir), FIRST_FRAME_FOLDER, FIRST_FRAME_FILE);
}

/** A first page of one card, drawn once as the renderer is loaded. */
const WARM_UP_PAGE: LibraryPage = {
  total: 1, totalIsLowerBound: false, offset: 0, catalogueCheckedAt: null, notSearchedYet: 0,
  items: [{
    id: 1, slug: null, name: 'A design', excerpt: '', author: { id: null, screenName: null }, license: null,
    attribution: { required: false, text: null, unavailable: false }, state: 'published', own: false, thumbnailUrl: null, thumbnailGenerated: false, thumbnailModel: null, keptOffline: false,
    createdAt: null, updatedAt: null, checkedAt: null,
  }],
};

/**
 * The build's renderer of the first frame; null when the build made none (the page is then served without one). It
 * draws a frame once as it is loaded: the first drawing compiles the renderer's code (40–70 ms), which would otherwise
 * fall on the first page served, the one `design-sync ui` opens as it starts.
 */
export async function loadFirstFrameRenderer(path: string, log: (line: string) => void): Promise<FirstFrameRenderer | null> {
  if (!existsSync(path)) return null;
  try {
    const loaded = (await import(pathToFileURL(path).href)) as Partial<FirstFrameRenderer>;
    if (typeof loaded.renderFirstFrame !== 'function') {
      log(`window host: ${path} has no renderFirstFrame; pages are served without a first frame`);
      return null;
    }
    loaded.renderFirstFrame([{ name: 'library.page', input: FIRST_LIBRARY_PAGE, outcome: { ok: true, value: WARM_UP_PAGE } }]);
    return { renderFirstFrame: loaded.renderFirstFrame };
  } catch (error) {
    log(`window host: the first frame's renderer could not be loaded (${error instanceof Error ? error.message : String(error)}); pages are served without one`);
    return null;
  }
}

/** The five characters React escapes in an attribute's value, as the browser reads them back. */
const ATTRIBUTE_ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#x27;': "'", '&lt;': '<', '&gt;': '>' };

/**
 * `sha256-<base64>` of each distinct style attribute in React's markup, over its value as the browser reads it (the
 * hash a CSP's `'unsafe-hashes'` compares): the grid places its rows with style attributes.
 */
export function styleAttributeHashes(markup: string): string[] {
  const values = new Set<string>();
  for (const match of markup.matchAll(/ style="([^"]*)"/g)) values.add(match[1]!.replace(/&(amp|quot|#x27|lt|gt);/g, (entity) => ATTRIBUTE_ENTITIES[entity]!));
  return [...values].map((value) => `sha256-${createHash('sha256').update(value).digest('base64')}`);
}

/**
 * The first frame drawn from the page's answers, in the words given; null when they do not hold the library's first
 * page, or drawing failed.
 */
export function drawFirstFrame(renderer: FirstFrameRenderer, answers: readonly PreloadedAnswer[], log: (line: string) => void, words?: FirstFrameWords): FirstFrame | null {
  try {
    const markup = renderer.renderFirstFrame(answers, words);
    return markup === null ? null : { markup, styleHashes: styleAttributeHashes(markup) };
  } catch (error) {
    log(`window host: the first frame could not be drawn (${error instanceof Error ? error.message : String(error)}); the page is served without it`);
    return null;
  }
}

/**
 * The page with the answers it comes with (preloaded-page.ts) and the frame in its root element, with the window's
 * stylesheet written in when the template could (page-template.ts). The built page with the answers alone when there
 * is no frame, or no empty root to put it in. With `language`, the page's `<html>` says the locale it is in and the
 * setting the window starts in (page-language.ts).
 */
export function pageWithFirstFrame(template: PageTemplate, answers: readonly PreloadedAnswer[], frame: FirstFrame | null, language?: PageLanguage): PageWithFrame {
  const inLanguage = (html: string) => (language ? pageInLanguage(html, language) : html);
  if (!frame || !template.framed) return { html: inLanguage(pageWithAnswers(template.html, answers)), styleHashes: [] };
  const { beforeRoot, afterRoot, styleHashes } = template.framed;
  // A picture of the library until the window starts: nothing in it takes input, or focus (inert), so that nothing
  // typed or chosen there is lost when the window replaces it; the window makes the root live again.
  return {
    html: `${inLanguage(pageWithAnswers(beforeRoot, answers))}<div id="root" inert>${frame.markup}</div>${afterRoot}`,
    styleHashes: [...frame.styleHashes, ...styleHashes],
  };
}
