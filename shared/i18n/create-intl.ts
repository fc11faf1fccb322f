import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { catalogFor } from './catalogs';
import { DEFAULT_LOCALE, PSEUDO_LOCALE, type Locale } from './locales';
import { ENGLISH, type Catalog } from './messages';

export type { IntlShape };

const cache = createIntlCache();

/** The locale Intl's formatters are given: the pseudo-locale formats dates and numbers as English does. */
export const intlLocale = (locale: Locale): string => (locale === PSEUDO_LOCALE ? 'en' : locale);

/** Words and formats of one locale from its catalog, for code outside React (the command line, the tray, notifications). */
export function intlWith(locale: Locale, messages: Catalog): IntlShape {
  return createIntl({ locale: intlLocale(locale), messages, defaultLocale: DEFAULT_LOCALE }, cache);
}

/** Words and formats of one locale, its catalog loaded. */
export async function createTranslator(locale: Locale): Promise<IntlShape> {
  return intlWith(locale, await catalogFor(locale));
}

/** English, at once: for words made where no locale is known yet. */
export const ENGLISH_INTL: IntlShape = intlWith(DEFAULT_LOCALE, ENGLISH);
