import { createTranslator, ENGLISH_INTL, type IntlShape } from '../../../shared/i18n/create-intl';
import { resolveLocale, type LanguageSetting } from '../../../shared/i18n/locales';

/** The shell's words (tray, menus, notifications, dialogs) in the language of the moment. */
export interface ShellWords {
  /** The words now: English until the first `follow` has loaded its catalog. */
  current(): IntlShape;
  /**
   * Speaks the language the setting gives ('system' or absent: the first of the system's languages design-sync
   * speaks, else English); `changed` is called once the words are another language's or region's.
   */
  follow(setting: LanguageSetting | null | undefined, systemLanguages: readonly string[]): Promise<void>;
}

export function createShellWords(changed: () => void): ShellWords {
  let intl: IntlShape = ENGLISH_INTL;
  /** The language and the locale of its formats now ("en-XA" formats as "en-GB" does, and is another language). */
  let speaking = `en ${ENGLISH_INTL.locale}`;
  let latest = 0;
  return {
    current: () => intl,
    async follow(setting, systemLanguages) {
      const asked = ++latest;
      const locale = resolveLocale(setting, systemLanguages);
      const next = await createTranslator(locale, systemLanguages);
      // A later change may have been asked for while this catalog loaded: the last one asked wins.
      if (asked !== latest || `${locale} ${next.locale}` === speaking) return;
      intl = next;
      speaking = `${locale} ${next.locale}`;
      changed();
    },
  };
}
