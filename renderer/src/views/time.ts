import { ENGLISH_INTL } from '../../../shared/i18n/create-intl';
import { formatAgeSince } from '../../../shared/i18n/format';

/**
 * "just now", "5 minutes ago", "3 days ago": how old an ISO time is, in English, for views whose words are not in the
 * catalogs yet. A converted view uses shared/i18n/format.ts's formatAgeSince with `useIntl()`.
 */
export function describeAge(iso: string, now = Date.now()): string {
  return formatAgeSince(ENGLISH_INTL, iso, now);
}
