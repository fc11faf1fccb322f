import { ENGLISH_INTL, type Words } from '../../../shared/i18n/create-intl';
import { formatAge } from '../../../shared/i18n/format';

/**
 * "just now", "3 minutes ago", "2 hours ago", "5 days ago": how old a cached copy is, for people, through
 * shared/i18n/format.ts's formatAge (English unless an `intl` of another locale is given).
 */
export function describeAge(ageMs: number, intl: Words = ENGLISH_INTL): string {
  return formatAge(intl, ageMs);
}
