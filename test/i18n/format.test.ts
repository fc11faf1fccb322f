import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../shared/i18n/create-intl';
import { formatAge, formatAgeSince, formatBytes, formatDateTime, formatNumber } from '../../shared/i18n/format';

const MINUTE = 60_000;

describe('formats in the person\'s locale', () => {
  it('sizes in bytes (1 KB = 1,024 bytes) with the locale\'s decimal mark', async () => {
    const sizes = [512, 3.44 * 1024, 12.5 * 1024 ** 2, 1.2 * 1024 ** 3];
    expect(sizes.map((bytes) => formatBytes(ENGLISH, bytes))).toEqual(['512 B', '3.4 KB', '12.5 MB', '1.20 GB']);
    const german = await createTranslator('de');
    expect(sizes.map((bytes) => formatBytes(german, bytes))).toEqual(['512 B', '3,4 KB', '12,5 MB', '1,20 GB']);
    const dutch = await createTranslator('nl');
    expect(formatBytes(dutch, 12.5 * 1024 ** 2)).toBe('12,5 MB');
  });

  it('ages as each language says them', async () => {
    const dutch = await createTranslator('nl');
    const german = await createTranslator('de');
    expect([ENGLISH, dutch, german].map((intl) => formatAge(intl, 10_000))).toEqual(['just now', 'zojuist', 'gerade eben']);
    expect([ENGLISH, dutch, german].map((intl) => formatAge(intl, 3 * MINUTE + 10_000))).toEqual(['3 minutes ago', '3 minuten geleden', 'vor 3 Minuten']);
    expect(formatAge(ENGLISH, 60 * MINUTE)).toBe('1 hour ago');
    expect(formatAge(german, 2 * 24 * 60 * MINUTE)).toBe('vor 2 Tagen');
    expect(formatAge(dutch, 400 * 24 * 60 * MINUTE)).toBe('1 jaar geleden');
    expect(formatAgeSince(ENGLISH, '2026-01-01T00:00:00Z', Date.parse('2026-01-01T00:05:00Z'))).toBe('5 minutes ago');
  });

  it('a time in the future (a clock set wrong) is "just now", never "in 3 minutes ago"', () => {
    expect(formatAge(ENGLISH, -5 * MINUTE)).toBe('just now');
  });

  it('numbers and dates with the locale\'s marks and order', async () => {
    const german = await createTranslator('de');
    expect(formatNumber(ENGLISH, 1500.5)).toBe('1,500.5');
    expect(formatNumber(german, 1500.5)).toBe('1.500,5');
    const at = Date.UTC(2026, 10, 29, 10, 48);
    expect(formatDateTime(german, at)).toMatch(/^29\.11\.2026, \d\d:48$/);
  });
});

const ENGLISH = await createTranslator('en');
