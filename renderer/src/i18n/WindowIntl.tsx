import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { intlLocale } from '../../../shared/i18n/create-intl';
import { DEFAULT_LOCALE } from '../../../shared/i18n/locales';
import { useLanguage } from '../stores/language-store';

/**
 * The window's words and formats (react-intl) in the language chosen. A new choice re-renders every view in it at
 * once, in place: the tree is not mounted anew, so the focus (on the language chooser) and what was typed stay.
 */
export function WindowIntl({ children }: { children: ReactNode }) {
  const locale = useLanguage((store) => store.locale);
  const messages = useLanguage((store) => store.messages);
  return (
    <IntlProvider locale={intlLocale(locale)} messages={messages} defaultLocale={DEFAULT_LOCALE}>
      {children}
    </IntlProvider>
  );
}
