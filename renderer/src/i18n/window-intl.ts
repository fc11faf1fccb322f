import { intlWith, type Words } from '../../../shared/i18n/create-intl';
import { useLanguage } from '../stores/language-store';
import { systemLanguages } from './start-locale';

let made: { locale: string; messages: object; intl: Words } | null = null;

/**
 * The window's words and formats outside React (its stores, wording a problem when it happens), in the language the
 * window is in now: the same as `useIntl()` in a view.
 */
export function windowIntl(): Words {
  const { locale, messages } = useLanguage.getState();
  if (made?.locale !== locale || made.messages !== messages) made = { locale, messages, intl: intlWith(locale, messages, systemLanguages()) };
  return made.intl;
}
