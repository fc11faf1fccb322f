import { FormattedMessage, useIntl } from 'react-intl';
import type { SettingsView } from '../../../../shared';
import { LANGUAGES, matchLocale, PSEUDO_LOCALE, type LanguageSetting } from '../../../../shared/i18n/locales';
import type { MessageId } from '../../../../shared/i18n/messages';
import { systemLanguages } from '../../i18n/start-locale';

const SETTINGS: readonly string[] = ['system', ...LANGUAGES.map((language) => language.code), PSEUDO_LOCALE];
const isSetting = (value: string): value is LanguageSetting => SETTINGS.includes(value);

/** A language's own name ("Nederlands"), or the pseudo-locale's. */
function languageName(code: string, intl: ReturnType<typeof useIntl>): string {
  return LANGUAGES.find((language) => language.code === code)?.name ?? intl.formatMessage({ id: 'language.pseudo' });
}

/**
 * Settings' "Language": the system's (the default, naming the language it gives), English, Nederlands, Deutsch, each
 * named in itself; the pseudo-locale only where the engine offers it (developers) or it is chosen. Applied at once.
 */
export function LanguagePanel({ settings, update }: { settings: SettingsView; update(changes: { language: LanguageSetting }, saved: MessageId): Promise<boolean> }) {
  const intl = useIntl();
  const system = matchLocale(systemLanguages());
  const offered = [...LANGUAGES.map((language) => language.code), ...(settings.pseudoLocaleOffered || settings.language === PSEUDO_LOCALE ? [PSEUDO_LOCALE] : [])];
  return (
    <section className="panel" aria-labelledby="language-title">
      <h3 id="language-title"><FormattedMessage id="settings.language.title" /></h3>
      <div className="field">
        <label htmlFor="language"><FormattedMessage id="settings.language.label" /></label>
        <select id="language" value={settings.language} aria-describedby="language-help"
          onChange={(event) => {
            if (isSetting(event.target.value)) void update({ language: event.target.value }, 'settings.language.saved');
          }}>
          <option value="system">{intl.formatMessage({ id: 'language.system' }, { language: languageName(system, intl) })}</option>
          {offered.map((code) => (
            // Each language's name in itself, marked as such for screen readers.
            <option key={code} value={code} lang={code}>{languageName(code, intl)}</option>
          ))}
        </select>
        <p id="language-help" className="field-help"><FormattedMessage id="settings.language.help" /></p>
      </div>
    </section>
  );
}
