import { compile } from 'html-to-text';

/**
 * html-to-text (a parser, htmlparser2, not a regex): decodes entities, drops script/style, keeps words of
 * adjacent blocks apart (`<p>a</p><p>b</p>` → "a b", not "ab"), and is maintained. Link targets and image
 * sources are left out: only what a person reads is searched.
 */
const convert = compile({
  wordwrap: false,
  preserveNewlines: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'h4', options: { uppercase: false } },
    { selector: 'h5', options: { uppercase: false } },
    { selector: 'h6', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
});

/** The readable text of an HTML fragment, whitespace collapsed. */
export function htmlToPlainText(html: string): string {
  if (!html) return '';
  if (!/[<&]/.test(html)) return html.replace(/\s+/g, ' ').trim();
  return convert(html).replace(/\s+/g, ' ').trim();
}
