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

let text = '';
let hiddenDepth = 0;

const parser = new Parser(
  {
    onopentagname(name) {
      if (HIDDEN.has(name)) hiddenDepth++;
      else if (BLOCKS.has(name)) text += ' ';
    },
    onclosetag(name) {
      if (HIDDEN.has(name)) hiddenDepth = Math.max(0, hiddenDepth - 1);
      else if (BLOCKS.has(name)) text += ' ';
    },
    ontext(part) {
      if (hiddenDepth === 0) text += part;
    },
  },
  { decodeEntities: true, lowerCaseTags: true },
);

/** The readable text of an HTML fragment, whitespace collapsed. */
export function htmlToPlainText(html: string): string {
  return htmlWords(html).replace(/\s+/g, ' ').trim();
}

/**
 * The readable text of an HTML fragment with its white space as it comes (blocks apart by a space): for the search
 * index, whose tokenizer splits words at any run of it. Half the CPU of htmlToPlainText, a search row's largest cost.
 */
export function htmlWords(html: string): string {
  if (!html || !/[<&]/.test(html)) return html;
  text = '';
  hiddenDepth = 0;
  try {
    parser.reset();
    parser.end(html);
    return text;
  } finally {
    text = '';
  }
}
