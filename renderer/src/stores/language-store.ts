import { create } from 'zustand';
import { catalogFor } from '../../../shared/i18n/catalogs';
import { resolveLocale, type LanguageSetting, type Locale } from '../../../shared/i18n/locales';
import { ENGLISH, type Catalog } from '../../../shared/i18n/messages';
import { rememberSetting, startSetting, systemLanguages } from '../i18n/start-locale';
import { useSettings } from './settings-store';

interface LanguageStore {
  /** The language setting the window follows ('system': the system's). */
  setting: LanguageSetting;
  /** The locale the window is in, and its messages (English until another's catalog has come). */
  locale: Locale;
  messages: Catalog;
  /** Puts the window in the setting's language: its catalog loaded, then every view in it at once (no restart). */
  apply(setting: LanguageSetting): Promise<void>;
}

let applying = 0;

export const useLanguage = create<LanguageStore>((set, get) => ({
  setting: 'system',
  locale: 'en',
  messages: ENGLISH,
  async apply(setting) {
    const turn = ++applying;
    const locale = resolveLocale(setting, systemLanguages());
    rememberSetting(setting);
    let messages: Catalog;
    try {
      messages = locale === get().locale ? get().messages : await catalogFor(locale);
    } catch (error) {
      console.warn(`design-sync: the words of ${locale} could not be loaded; the window stays in ${get().locale}`, error);
      return;
    }
    // A later choice made while this catalog came wins.
    if (turn !== applying) return;
    set({ setting, locale, messages });
    if (typeof document !== 'undefined') document.documentElement.lang = locale;
  },
}));

/**
 * Starts the window in the language of the setting its page came with, else the one it last applied, else the
 * system's, and follows the setting from then on: the engine's answer to settings.get and every settings.update
 * (Settings, or another window).
 */
export function startLanguage(): Promise<void> {
  useSettings.subscribe((state) => {
    const setting = state.settings?.language;
    if (setting && setting !== useLanguage.getState().setting) void useLanguage.getState().apply(setting);
  });
  return useLanguage.getState().apply(startSetting());
}
