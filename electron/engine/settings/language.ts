import { PSEUDO_LOCALE, type LanguageSetting } from '../../../shared/i18n/locales';
import type { SettingsStore } from './settings-store';

/** Set to 1, the engine offers the pseudo-locale (docs/translations.md): for developers and the window's tests. */
export const PSEUDO_LOCALE_FLAG = 'DESIGN_SYNC_PSEUDO_LOCALE';

export function pseudoLocaleOffered(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return env[PSEUDO_LOCALE_FLAG] === '1';
}

/** Refused: the pseudo-locale asked for where it is not offered. */
export class LanguageUnavailableError extends Error {
  constructor() {
    super(`${PSEUDO_LOCALE} is the developers' pseudo-locale: it is offered when design-sync runs with ${PSEUDO_LOCALE_FLAG}=1`);
  }
}

/** The language setting of a profile ('system' when none was chosen). */
export function languageSetting(settings: SettingsStore): LanguageSetting {
  return settings.read().language ?? 'system';
}

/** Chooses the language; 'system' forgets the choice. */
export function setLanguage(settings: SettingsStore, language: LanguageSetting, env: Readonly<Record<string, string | undefined>> = process.env): void {
  if (language === PSEUDO_LOCALE && !pseudoLocaleOffered(env)) throw new LanguageUnavailableError();
  settings.update({ language });
}
