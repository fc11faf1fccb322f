import { PAGE_LANGUAGE_SETTING_ATTRIBUTE } from '../../../shared/contract/first-frame';
import { isLocale, resolveLocale, type LanguageSetting, type Locale } from '../../../shared/i18n/locales';

/** Where the window remembers the language setting it last applied, to start in it before the engine answers. */
const REMEMBERED = 'design-sync.language';

/** The system's languages as the browser (or Electron) tells them, most important first. */
export function systemLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language];
}

/** The language setting the window last applied ('system' when none, or where nothing can be remembered). */
export function rememberedSetting(): LanguageSetting {
  if (typeof localStorage === 'undefined') return 'system';
  try {
    const value = localStorage.getItem(REMEMBERED);
    return isLocale(value) ? value : 'system';
  } catch (error) {
    console.warn('design-sync: the language last chosen could not be read; the system\'s is used', error);
    return 'system';
  }
}

export function rememberSetting(setting: LanguageSetting): void {
  if (typeof localStorage === 'undefined') return;
  try {
    if (setting === 'system') localStorage.removeItem(REMEMBERED);
    else localStorage.setItem(REMEMBERED, setting);
  } catch (error) {
    console.warn('design-sync: the language chosen could not be remembered for the next start', error);
  }
}

/**
 * The language setting the page came with: `design-sync ui`'s host writes the profile's setting on the page's
 * `<html>` element (shared/contract/first-frame.ts); null when it did not (the Electron app's page, a page built
 * without the host).
 */
export function pageSetting(): LanguageSetting | null {
  if (typeof document === 'undefined') return null;
  const value = document.documentElement.getAttribute(PAGE_LANGUAGE_SETTING_ATTRIBUTE);
  return value === 'system' || isLocale(value) ? value : null;
}

/** The setting the window starts in: the page's (the profile's as the page was made), else the one last applied. */
export function startSetting(): LanguageSetting {
  return pageSetting() ?? rememberedSetting();
}

/** The locale the window starts in: its start setting's, with 'system' the system's. */
export function startLocale(): Locale {
  return resolveLocale(startSetting(), systemLanguages());
}
