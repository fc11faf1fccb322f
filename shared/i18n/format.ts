import type { Words } from './create-intl';

/**
 * Formats in the active locale, through Intl and the catalogs: every view, the command line and the tray use these
 * (never toFixed, toLocaleString without a locale, or hand-made "s" plurals). `intl` is react-intl's `useIntl()` in
 * the window and `createTranslator(locale)` elsewhere.
 */

const KB = 1024;

/** A size in bytes as people read it: "512 B", "3.4 KB", "12.5 MB", "1.20 GB" (1 KB = 1,024 bytes); "3,4 KB" in German. */
export function formatBytes(intl: Words, bytes: number): string {
  if (bytes < KB) return intl.formatMessage({ id: 'format.bytes.b' }, { value: bytes });
  if (bytes < KB ** 2) return intl.formatMessage({ id: 'format.bytes.kb' }, { value: bytes / KB });
  if (bytes < KB ** 3) return intl.formatMessage({ id: 'format.bytes.mb' }, { value: bytes / KB ** 2 });
  return intl.formatMessage({ id: 'format.bytes.gb' }, { value: bytes / KB ** 3 });
}

const AGE_UNITS: [number, Intl.RelativeTimeFormatUnit][] = [
  [60 * 60 * 24 * 365, 'year'], [60 * 60 * 24 * 30, 'month'], [60 * 60 * 24, 'day'], [60 * 60, 'hour'], [60, 'minute'],
];

/** How old something is, for people: "just now", "3 minutes ago", "2 hours ago" ("vor 2 Stunden", "2 uur geleden"). */
export function formatAge(intl: Words, ageMs: number): string {
  const seconds = Math.max(0, Math.round(ageMs / 1000));
  if (seconds < 45) return intl.formatMessage({ id: 'format.age.justNow' });
  for (const [size, unit] of AGE_UNITS) {
    if (seconds >= size * 0.95 || unit === 'minute') {
      return intl.formatRelativeTime(-Math.max(1, Math.round(seconds / size)), unit, { numeric: 'always' });
    }
  }
  return intl.formatMessage({ id: 'format.age.justNow' });
}

/** How old an ISO time is, in words (formatAge). */
export function formatAgeSince(intl: Words, iso: string, now = Date.now()): string {
  return formatAge(intl, now - Date.parse(iso));
}

/** A day and time as the locale writes them: "29 Nov 2026, 10:48", "29. Nov. 2026, 10:48". */
export function formatDateTime(intl: Words, time: string | number | Date): string {
  return intl.formatDate(typeof time === 'string' ? Date.parse(time) : time, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A day as the locale writes it: "29 Nov 2026", "29.11.2026". */
export function formatDay(intl: Words, time: string | number | Date): string {
  return intl.formatDate(typeof time === 'string' ? Date.parse(time) : time, { dateStyle: 'medium' });
}

/** A count or amount with the locale's grouping and decimal marks: "1,500" / "1.500". */
export function formatNumber(intl: Words, value: number): string {
  return intl.formatNumber(value);
}
