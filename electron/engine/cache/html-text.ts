import { Tokenizer } from 'htmlparser2';

/**
 * The search text of a description: htmlparser2's tokenizer (a parser's, not a regex) reads the HTML and hands
 * over its text and its entities decoded (its Parser, which builds the elements' nesting on top, costs more and adds
 * nothing to the words); script and style are dropped, and words of adjacent blocks are kept apart
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
/** The HTML being read: the tokenizer hands over where each part is in it. */
let source = '';

const ignore = () => {};

/** A tag's start or end: a hidden element's depth counted, a block's words kept apart. */
function tag(start: number, end: number, opens: boolean): void {
  const name = source.slice(start, end).toLowerCase();
  if (HIDDEN.has(name)) hiddenDepth = opens ? hiddenDepth + 1 : Math.max(0, hiddenDepth - 1);
  else if (BLOCKS.has(name)) text += ' ';
}

const CALLBACKS: ConstructorParameters<typeof Tokenizer>[1] = {
  onopentagname: (start, end) => tag(start, end, true),
  onclosetag: (start, end) => tag(start, end, false),
  ontext(start, end) {
    if (hiddenDepth === 0) text += source.slice(start, end);
  },
  ontextentity(codepoint) {
    if (hiddenDepth === 0) text += String.fromCodePoint(codepoint);
  },
  // Attributes, comments, CDATA, declarations and processing instructions are not text a person reads.
  onattribdata: ignore, onattribentity: ignore, onattribend: ignore, onattribname: ignore, oncdata: ignore, oncomment: ignore,
  ondeclaration: ignore, onend: ignore, onopentagend: ignore, onprocessinginstruction: ignore, onselfclosingtag: ignore,
};

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
  source = html;
  try {
    // A tokenizer each time: one reused keeps, through its reset(), that it was inside a <script> (or style, title,
    // textarea) left open, and then throws at the next fragment's first tag, and at every one after.
    const tokenizer = new Tokenizer({ decodeEntities: true }, CALLBACKS);
    tokenizer.write(html);
    tokenizer.end();
    return text;
  } finally {
    text = '';
    source = '';
  }
}
