import { Parser } from 'htmlparser2';

/**
 * The search text of a description: htmlparser2 (a parser, not a regex) reads the HTML and hands over its
 * text with entities decoded; script and style are dropped, and words of adjacent blocks are kept apart
 * (`<p>a</p><p>b</p>` → "a b", not "ab") while inline elements join (`ge<b>ar</b>` → "gear"). Link targets
 * and image sources are attributes, so they are never text: only what a person reads is searched.
 * This used to go through html-to-text, which lays the text out for reading (list bullets, table columns)
 * at about five times the cost; the words it produced are the same.
 */

/** Elements whose start and end separate words (the block-level ones a browser lays out on their own line). */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'center', 'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'li',
  'legend', 'main', 'menu', 'nav', 'ol', 'option', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th',
  'thead', 'tr', 'ul',
]);

/** Elements whose content is not text a person reads. */
const HIDDEN = new Set(['script', 'style']);

let parts: string[] = [];
let hiddenDepth = 0;

const parser = new Parser(
  {
    onopentagname(name) {
      if (HIDDEN.has(name)) hiddenDepth++;
      else if (BLOCKS.has(name)) parts.push(' ');
    },
    onclosetag(name) {
      if (HIDDEN.has(name)) hiddenDepth = Math.max(0, hiddenDepth - 1);
      else if (BLOCKS.has(name)) parts.push(' ');
    },
    ontext(text) {
      if (hiddenDepth === 0) parts.push(text);
    },
  },
  { decodeEntities: true, lowerCaseTags: true },
);

/** The readable text of an HTML fragment, whitespace collapsed. */
export function htmlToPlainText(html: string): string {
  if (!html) return '';
  if (!/[<&]/.test(html)) return html.replace(/\s+/g, ' ').trim();
  parts = [];
  hiddenDepth = 0;
  try {
    parser.reset();
    parser.end(html);
    return parts.join('').replace(/\s+/g, ' ').trim();
  } finally {
    parts = [];
  }
}
