import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { catalogFor } from './catalogs';
import { DEFAULT_LOCALE, PSEUDO_LOCALE, type Locale } from './locales';
import { ENGLISH, type Catalog } from './messages';

/**
 * What formats words and values in a locale: `@formatjs/intl`'s IntlShape in Node (createTranslator), react-intl's
 * `useIntl()` in the window. The shared helpers take this, so both can be given.
 */
export type Words = Pick<IntlShape, 'locale' | 'formatMessage' | 'formatNumber' | 'formatDate' | 'formatTime' | 'formatRelativeTime' | 'formatList'>;

export type { IntlShape };

const cache = createIntlCache();

/**
 * The locale Intl's formatters are given: the system's own tag when it is of the same language ("en-US", "de-AT",
 * "nl-BE": dates and numbers as the person's region writes them), else the language itself; English without a region
 * is British, as the catalogs are written. The pseudo-locale formats as English does.
 */
export function formatLocale(locale: Locale, systemLanguages: readonly string[] = []): string {
  const language = locale === PSEUDO_LOCALE ? DEFAULT_LOCALE : locale;
  for (const tag of systemLanguages) {
    const normal = tag.trim().replace(/[.@].*$/, '').replace(/_/g, '-');
    // A language with a region or script, well-formed ("en-US", "de-AT", "nl-BE"; not "en-" or "en_US.UTF-8@euro" left over).
    if (normal.split('-')[0]!.toLowerCase() !== language || !/^[a-z]{2,3}(-[a-z]{4})?(-([a-z]{2}|\d{3}))?$/i.test(normal) || !normal.includes('-')) continue;
    return Intl.getCanonicalLocales(normal)[0] ?? language;
  }
  return language === 'en' ? 'en-GB' : language;
}

/** Words and formats of one locale from its catalog, for code outside React (the command line, the tray, notifications). */
export function intlWith(locale: Locale, messages: Catalog, systemLanguages: readonly string[] = []): IntlShape {
  return createIntl({ locale: formatLocale(locale, systemLanguages), messages, defaultLocale: DEFAULT_LOCALE }, cache);
}

/** Words and formats of one locale, its catalog loaded; dates and numbers in the system's region when it has one of that language. */
export async function createTranslator(locale: Locale, systemLanguages: readonly string[] = []): Promise<IntlShape> {
  return intlWith(locale, await catalogFor(locale), systemLanguages);
}

/** English, at once: for words made where no locale is known yet. */
export const ENGLISH_INTL: IntlShape = intlWith(DEFAULT_LOCALE, ENGLISH);
