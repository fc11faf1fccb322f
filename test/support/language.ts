import { afterEach, beforeEach, expect } from 'vitest';

/** The environment variables a program reads its language from (the command line's, the tray's). */
const LOCALE_VARIABLES = ['LC_ALL', 'LC_MESSAGES', 'LANG', 'LANGUAGE'] as const;

/**
 * For each test of the calling file, an environment that names no language (each test sets the one it means), given
 * back as it was after the test: files share their worker's process (vitest.config.ts).
 */
export function useEnvironmentWithoutLanguage(): void {
  let saved: Partial<Record<(typeof LOCALE_VARIABLES)[number], string>> = {};
  beforeEach(() => {
    saved = Object.fromEntries(LOCALE_VARIABLES.map((name) => [name, process.env[name]]));
    for (const name of LOCALE_VARIABLES) delete process.env[name];
  });
  afterEach(() => {
    for (const name of LOCALE_VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });
}

/** Fails naming each English fragment the text still holds. */
export function expectNoneOf(text: string, english: readonly string[]): void {
  expect(english.filter((fragment) => text.includes(fragment)), text).toEqual([]);
}
