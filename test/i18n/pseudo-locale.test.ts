import { describe, expect, it } from 'vitest';
import { ENGLISH_INTL } from '../../shared/i18n/create-intl';
import { pseudoLocalize } from '../../shared/i18n/pseudo-locale';

const format = (message: string, values: Record<string, unknown>) => ENGLISH_INTL.formatters.getMessageFormat(message, 'en').format(values as never) as string;

describe('the pseudo-locale', () => {
  it('accents every letter and brackets the message, so untranslated and cut-off words stand out', () => {
    const pseudo = pseudoLocalize('Settings');
    expect(pseudo).toMatch(/^\[Šéţţîñĝš .+\]$/);
    expect(pseudo).not.toMatch(/[A-Za-z]/);
  });

  it('makes a message about 40% longer', () => {
    const english = 'The catalogue is refreshed every hour while design-sync runs.';
    const pseudo = pseudoLocalize(english);
    expect(pseudo.length).toBeGreaterThanOrEqual(Math.round(english.length * 1.4));
    expect(pseudo.length).toBeLessThanOrEqual(Math.round(english.length * 1.4) + 4);
  });

  it('keeps placeholders, plurals with #, selects and tags working: the same values make the same kind of sentence', () => {
    const english = '{count, plural, one {# design} other {# designs}} in {folder}, {mode, select, manual {by hand} other {found}}: <b>it\'s yours</b>';
    const pseudo = pseudoLocalize(english);
    const values = { count: 3, folder: 'Prints', mode: 'manual', b: (chunks: string[]) => `*${chunks.join('')}*` };
    expect(format(pseudo, values)).toMatch(/^\[3 ðéšîĝñš îñ Prints, ƀý ĥáñð: \*îţ'š ýöûŕš\* .+\]$/);
    expect(format(pseudo, { ...values, count: 1, mode: 'other' })).toMatch(/^\[1 ðéšîĝñ îñ Prints, ƒöûñð: /);
  });

  it('keeps number and date formats', () => {
    const pseudo = pseudoLocalize('{value, number, ::.0} KB');
    expect(format(pseudo, { value: 3.44 })).toMatch(/^\[3\.4 ĶƁ/);
  });
});
