import { ENGLISH, type Catalog } from './messages';
import { PSEUDO_LOCALE, type Locale } from './locales';

/**
 * A locale's catalog. English is always at hand; the others are loaded when first asked for (in the window each is a
 * chunk of its own, so the first script carries English only). Every catalog holds every English key (the catalogs'
 * test says so).
 */
export async function catalogFor(locale: Locale): Promise<Catalog> {
  switch (locale) {
    case 'en':
      return ENGLISH;
    case 'nl':
      return (await import('./messages/nl.json')).default;
    case 'de':
      return (await import('./messages/de.json')).default;
    case PSEUDO_LOCALE:
      return (await import('./pseudo-locale')).pseudoCatalog(ENGLISH);
  }
}
