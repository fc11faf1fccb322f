import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js';
import type { Catalog } from './messages';

const ACCENTED: Record<string, string> = {
  a: 'á', b: 'ƀ', c: 'ç', d: 'ð', e: 'é', f: 'ƒ', g: 'ĝ', h: 'ĥ', i: 'î', j: 'ĵ', k: 'ķ', l: 'ļ', m: 'ɱ',
  n: 'ñ', o: 'ö', p: 'þ', q: 'ǫ', r: 'ŕ', s: 'š', t: 'ţ', u: 'û', v: 'ṽ', w: 'ŵ', x: 'ẋ', y: 'ý', z: 'ž',
  A: 'Å', B: 'Ɓ', C: 'Ç', D: 'Ð', E: 'É', F: 'Ƒ', G: 'Ĝ', H: 'Ĥ', I: 'Î', J: 'Ĵ', K: 'Ķ', L: 'Ļ', M: 'Ṁ',
  N: 'Ñ', O: 'Ö', P: 'Þ', Q: 'Ǫ', R: 'Ŕ', S: 'Š', T: 'Ţ', U: 'Û', V: 'Ṽ', W: 'Ŵ', X: 'Ẋ', Y: 'Ý', Z: 'Ž',
};

/** Words added to lengthen a message: accented too, and breakable, as a longer translation would be. */
const FILLER = 'ļöñĝéŕ ţéẋţ ţö šéé ŵĥéŕé ŵöŕðš ĝéţ çûţ öƒƒ ñöŵ';

const accent = (text: string): string => text.replace(/[A-Za-z]/g, (letter) => ACCENTED[letter] ?? letter);

function literalLength(elements: readonly MessageFormatElement[]): number {
  let length = 0;
  for (const element of elements) {
    if (element.type === TYPE.literal) length += element.value.length;
    else if (element.type === TYPE.tag) length += literalLength(element.children);
    else if (element.type === TYPE.plural || element.type === TYPE.select) {
      // The longest branch stands for the message's length.
      length += Math.max(0, ...Object.values(element.options).map((option) => literalLength(option.value)));
    }
  }
  return length;
}

/** The elements with their text accented; placeholders, plurals' and selects' keys, `#` and tags kept as they are. */
function accentElements(elements: readonly MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: accent(element.value) };
    if (element.type === TYPE.tag) return { ...element, children: accentElements(element.children) };
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      const options = Object.fromEntries(Object.entries(element.options).map(([key, option]) => [key, { ...option, value: accentElements(option.value) }]));
      return { ...element, options } as MessageFormatElement;
    }
    return element;
  });
}

/**
 * One English message in the pseudo-locale: its text accented ("Šéţţîñĝš"), about 40% longer (words added at the
 * end, inside brackets that show where it was cut off), its ICU placeholders, plurals, selects and tags intact: it is
 * read as an AST and printed again, so it stays a valid message with the same arguments as the English one.
 */
export function pseudoLocalize(message: string): string {
  const elements = parse(message);
  const extra = Math.ceil(literalLength(elements) * 0.4);
  const padding = extra > 0 ? ` ${FILLER.repeat(Math.ceil(extra / FILLER.length)).slice(0, extra).trimEnd()}` : '';
  const body = accentElements(elements);
  return printAST([{ type: TYPE.literal, value: '[' }, ...body, { type: TYPE.literal, value: `${padding}]` }]);
}

/** The pseudo-locale's catalog, made from English's. */
export function pseudoCatalog(english: Catalog): Catalog {
  return Object.fromEntries(Object.entries(english).map(([id, message]) => [id, pseudoLocalize(message)])) as Catalog;
}
