/**
 * The languages design-sync speaks, and how a language is chosen from what a person or a system asks for.
 * A language's name is written in that language ("Nederlands", not "Dutch"): a person looks for their own.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'nl', name: 'Nederlands' },
  { code: 'de', name: 'Deutsch' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

/**
 * The pseudo-locale: English accented and about 40% longer, made from the English catalog at run time
 * (pseudo-locale.ts). It shows words left outside the catalogs and layouts that cut text off; offered only to
 * developers and the window's tests, never in the language chooser of a release.
 */
export const PSEUDO_LOCALE = 'en-XA';

/** A locale the window and the command line can be put in: a language, or the pseudo-locale. */
export type Locale = LanguageCode | typeof PSEUDO_LOCALE;

/** The language setting: a language, the pseudo-locale, or 'system' (the system's, the default). */
export const LANGUAGE_SETTINGS = ['system', ...LANGUAGES.map((language) => language.code), PSEUDO_LOCALE] as readonly ['system', ...LanguageCode[], typeof PSEUDO_LOCALE];
export type LanguageSetting = Locale | 'system';

export const DEFAULT_LOCALE: LanguageCode = 'en';

const CODES: readonly string[] = LANGUAGES.map((language) => language.code);

export function isLocale(value: unknown): value is Locale {
  return value === PSEUDO_LOCALE || (typeof value === 'string' && CODES.includes(value));
}

/**
 * The first of the asked-for language tags ("nl-BE", "de_AT.UTF-8", "en-XA") that design-sync speaks, by its
 * language; English when none is. The pseudo-locale only when asked for exactly.
 */
export function matchLocale(asked: readonly (string | null | undefined)[]): Locale {
  for (const tag of asked) {
    if (!tag) continue;
    const normal = tag.trim().replace(/[.@].*$/, '').replace(/_/g, '-');
    if (normal.toLowerCase() === PSEUDO_LOCALE.toLowerCase()) return PSEUDO_LOCALE;
    const language = normal.split('-')[0]!.toLowerCase();
    if (CODES.includes(language)) return language as LanguageCode;
  }
  return DEFAULT_LOCALE;
}

/** The locale a setting means: the setting itself, or the system's first language that design-sync speaks. */
export function resolveLocale(setting: LanguageSetting | null | undefined, systemLanguages: readonly string[]): Locale {
  return setting && setting !== 'system' ? setting : matchLocale(systemLanguages);
}

/**
 * The system's languages as a command line sees them, most important first: `LC_ALL`, then `LC_MESSAGES`, then
 * `LANG` (POSIX's order), then `LANGUAGE`'s list. "C" and "POSIX" name no language.
 */
export function environmentLanguages(env: Readonly<Record<string, string | undefined>>): string[] {
  const tags = [env.LC_ALL, env.LC_MESSAGES, env.LANG, ...(env.LANGUAGE ?? '').split(':')];
  return tags.filter((tag): tag is string => !!tag && !/^(C|POSIX)([.@].*)?$/i.test(tag));
}
