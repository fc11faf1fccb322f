import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StaticFile } from './static-files';

/** The root element as the build writes it: where the first frame goes. */
export const EMPTY_ROOT = '<div id="root"></div>';
/** The build's one stylesheet link (Vite writes it so), the file under the window's folder. */
const STYLESHEET_LINK = /<link rel="stylesheet"(?: crossorigin)? href="\.\/(assets\/[\w.-]+\.css)">/;

/**
 * The window's page as built, and what a page with a first frame is made of: the page up to its empty root with the
 * window's stylesheet written in (the frame's paint then waits for no other request), the rest after the root, and
 * the stylesheet's CSP hash. `framed` is null when the page has no empty root.
 */
export interface PageTemplate {
  html: string;
  framed: { beforeRoot: string; afterRoot: string; styleHashes: string[] } | null;
}

/**
 * Reads the built page and its stylesheet. The link is kept when the stylesheet cannot be read or could end its own
 * element.
 */
export async function readPageTemplate(page: string, staticDir: string): Promise<PageTemplate> {
  const html = await readFile(page, 'utf8');
  const at = html.indexOf(EMPTY_ROOT);
  if (at === -1) return { html, framed: null };
  let beforeRoot = html.slice(0, at);
  const afterRoot = html.slice(at + EMPTY_ROOT.length);
  const link = STYLESHEET_LINK.exec(beforeRoot);
  const css = link ? await readFile(join(staticDir, link[1]!), 'utf8').catch(() => null) : null;
  if (!link || css === null || /<\/style/i.test(css)) return { html, framed: { beforeRoot, afterRoot, styleHashes: [] } };
  beforeRoot = `${beforeRoot.slice(0, link.index)}<style>${css}</style>${beforeRoot.slice(link.index + link[0].length)}`;
  return { html, framed: { beforeRoot, afterRoot, styleHashes: [`sha256-${createHash('sha256').update(css).digest('base64')}`] } };
}

/**
 * The page's template, read once per build rather than at every page served (two files read and the stylesheet
 * hashed, 1–2 ms on the way to the window's first paint). A page written since (a rebuild: another size or time) is
 * read again; a failed read is not kept.
 */
export function pageTemplates(staticDir: string): (page: StaticFile) => Promise<PageTemplate> {
  let kept: { key: string; template: Promise<PageTemplate> } | null = null;
  return (page) => {
    const key = `${page.path}\n${page.size}\n${page.mtimeMs}`;
    if (kept?.key !== key) {
      const template = readPageTemplate(page.path, staticDir);
      const entry = { key, template };
      kept = entry;
      template.catch(() => {
        if (kept === entry) kept = null;
      });
    }
    return kept.template;
  };
}
