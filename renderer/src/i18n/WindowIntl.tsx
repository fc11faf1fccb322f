import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { formatLocale } from '../../../shared/i18n/create-intl';
import { DEFAULT_LOCALE } from '../../../shared/i18n/locales';
import { useLanguage } from '../stores/language-store';
import { systemLanguages } from './start-locale';

/**
 * The window's words and formats (react-intl) in the language chosen; dates and numbers as the system's region writes
 * them when it is of that language ("en-US", "de-AT"). A new choice re-renders every view in it at once, in place:
 * the tree is not mounted anew, so the focus (on the language chooser) and what was typed elsewhere stay.
 */
export function WindowIntl({ children }: { children: ReactNode }) {
  const locale = useLanguage((store) => store.locale);
  const messages = useLanguage((store) => store.messages);
  return (
    <IntlProvider locale={formatLocale(locale, systemLanguages())} messages={messages} defaultLocale={DEFAULT_LOCALE}>
      {children}
    </IntlProvider>
  );
}
