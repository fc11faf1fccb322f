import { describe, expect, it } from 'vitest';
import { environmentLanguages, matchLocale, resolveLocale } from '../../shared/i18n/locales';

describe('choosing a language', () => {
  it('takes the first asked-for language design-sync speaks, by its language, else English', () => {
    expect(matchLocale(['fr-FR', 'nl-BE', 'de'])).toBe('nl');
    expect(matchLocale(['de_AT.UTF-8'])).toBe('de');
    expect(matchLocale(['pl', 'fr'])).toBe('en');
    expect(matchLocale([])).toBe('en');
  });

  it('the pseudo-locale only when asked for exactly', () => {
    expect(matchLocale(['en-XA'])).toBe('en-XA');
    expect(matchLocale(['en-GB'])).toBe('en');
  });

  it('a setting other than "system" wins over the system\'s languages', () => {
    expect(resolveLocale('de', ['nl-NL'])).toBe('de');
    expect(resolveLocale('system', ['nl-NL'])).toBe('nl');
    expect(resolveLocale(null, ['de-CH'])).toBe('de');
  });

  it('the command line reads LC_ALL, then LC_MESSAGES, then LANG, then LANGUAGE; C and POSIX name none', () => {
    expect(matchLocale(environmentLanguages({ LC_ALL: 'de_DE.UTF-8', LANG: 'nl_NL.UTF-8' }))).toBe('de');
    expect(matchLocale(environmentLanguages({ LC_MESSAGES: 'nl_BE.UTF-8', LANG: 'en_US.UTF-8' }))).toBe('nl');
    expect(matchLocale(environmentLanguages({ LC_ALL: 'C.UTF-8', LANG: 'de_DE.UTF-8' }))).toBe('de');
    expect(matchLocale(environmentLanguages({ LANG: 'POSIX', LANGUAGE: 'fr:nl' }))).toBe('nl');
    expect(matchLocale(environmentLanguages({}))).toBe('en');
  });
});
