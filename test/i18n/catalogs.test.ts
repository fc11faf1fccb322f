import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { LANGUAGES } from '../../shared/i18n/locales';
import { ENGLISH } from '../../shared/i18n/messages';
import { pseudoCatalog } from '../../shared/i18n/pseudo-locale';

const FOLDER = join(import.meta.dirname, '../../shared/i18n/messages');
const read = (file: string): Record<string, unknown> => JSON.parse(readFileSync(join(FOLDER, file), 'utf8')) as Record<string, unknown>;

/** A message's placeholders, each with its kind ("count:plural", "name:argument", "b:tag"), and the plurals' and selects' keys. */
function placeholders(elements: readonly MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    into.add(`${element.value}:${TYPE[element.type]}`);
    if (element.type === TYPE.tag) placeholders(element.children, into);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) placeholders(option.value, into);
    }
    // A select's keys are the code's values ("system", "manual"): every language must answer each of them.
    if (element.type === TYPE.select) into.add(`${element.value}:select{${Object.keys(element.options).sort().join('|')}}`);
  }
  return into;
}

function pluralsHaveOther(elements: readonly MessageFormatElement[]): boolean {
  return elements.every((element) => {
    if (element.type === TYPE.tag) return pluralsHaveOther(element.children);
    if (element.type !== TYPE.plural && element.type !== TYPE.select) return true;
    return 'other' in element.options && Object.values(element.options).every((option) => pluralsHaveOther(option.value));
  });
}

const english = read('en.json');
const englishKeys = Object.keys(english).sort();

describe('the message catalogs', () => {
  it('hold one file per language offered, and no other', () => {
    expect(readdirSync(FOLDER).filter((file) => file.endsWith('.json')).sort()).toEqual(LANGUAGES.map((language) => `${language.code}.json`).sort());
  });

  it('English: every message is a string that parses as ICU MessageFormat, its plurals and selects with an "other"', () => {
    for (const [id, message] of Object.entries(english)) {
      expect(typeof message, id).toBe('string');
      expect(() => parse(message as string), id).not.toThrow();
      expect(pluralsHaveOther(parse(message as string)), `${id}: a plural or select without "other"`).toBe(true);
    }
  });

  it('keys name what a message means (view.part.what: lower camel case words, dot-separated)', () => {
    for (const id of englishKeys) expect(id, id).toMatch(/^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)+$/);
  });

  for (const { code } of LANGUAGES.filter((language) => language.code !== 'en')) {
    describe(`${code}.json`, () => {
      const catalog = read(`${code}.json`);

      it('has every English key, and none English lacks', () => {
        const keys = Object.keys(catalog);
        expect(englishKeys.filter((id) => !keys.includes(id)), 'missing').toEqual([]);
        expect(keys.filter((id) => !(id in english)), 'not in English').toEqual([]);
      });

      it('has messages that parse, with the same placeholders as English (names, kinds, select keys, tags)', () => {
        for (const [id, message] of Object.entries(catalog)) {
          expect(typeof message, id).toBe('string');
          let elements: MessageFormatElement[] = [];
          expect(() => { elements = parse(message as string); }, `${id} does not parse: ${String(message)}`).not.toThrow();
          expect([...placeholders(elements)].sort(), id).toEqual([...placeholders(parse(english[id] as string))].sort());
          expect(pluralsHaveOther(elements), `${id}: a plural or select without "other"`).toBe(true);
        }
      });

      it('has no message left empty', () => {
        for (const [id, message] of Object.entries(catalog)) expect(String(message).trim(), id).not.toBe('');
      });
    });
  }

  it('the pseudo-locale: every message parses, with the same placeholders as English', () => {
    const pseudo = pseudoCatalog(ENGLISH);
    expect(Object.keys(pseudo).sort()).toEqual(englishKeys);
    for (const [id, message] of Object.entries(pseudo)) {
      expect([...placeholders(parse(message))].sort(), id).toEqual([...placeholders(parse(english[id] as string))].sort());
    }
  });
});
