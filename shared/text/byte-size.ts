import { ENGLISH_INTL, type Words } from '../i18n/create-intl';
import { formatBytes } from '../i18n/format';

/**
 * A size in bytes as people read it: "512 B", "3.4 KB", "12.5 MB", "1.20 GB" (1 KB = 1,024 bytes), through
 * shared/i18n/format.ts's formatBytes: in English unless an `intl` of another locale is given (words not in the
 * catalogs yet).
 */
export function byteSize(bytes: number, intl: Words = ENGLISH_INTL): string {
  return formatBytes(intl, bytes);
}
