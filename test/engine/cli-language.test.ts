import { rmSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { profilePaths } from '../../electron/engine/profile/profile';
import { runCliCapturing } from '../support/cli';
import { tempDir } from './cache/cache-fixtures';

/**
 * The command line's language: --lang, else the profile's language setting (Settings → Language), else the
 * environment's (LC_ALL, LC_MESSAGES, LANG). `design-sync status` on a profile with no service chosen: nothing to
 * reach, its first line the sync state and what to do.
 */
const LOCALE_VARIABLES = ['LC_ALL', 'LC_MESSAGES', 'LANG', 'LANGUAGE'] as const;
let profile: string;
let saved: Partial<Record<(typeof LOCALE_VARIABLES)[number], string>>;

const firstLine = async (...argv: string[]) => {
  const run = await runCliCapturing(profile, argv);
  expect(run.err).toBe('');
  expect(run.code).toBe(0);
  return run.out.split('\n')[0];
};

beforeEach(() => {
  profile = tempDir('cli-language-profile');
  saved = Object.fromEntries(LOCALE_VARIABLES.map((name) => [name, process.env[name]]));
  for (const name of LOCALE_VARIABLES) delete process.env[name];
});

afterEach(() => {
  for (const name of LOCALE_VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  rmSync(profile, { recursive: true, force: true });
});

describe('the command line in the person\'s language', () => {
  it('speaks English where nothing says otherwise', async () => {
    expect(await firstLine('status')).toBe('Sync: Sync not set up — Choose the service to sync with.');
  });

  it('speaks the language --lang names, by its code or a locale', async () => {
    expect(await firstLine('--lang', 'de', 'status')).toBe('Synchronisierung: Synchronisierung nicht eingerichtet — Wählen Sie den Dienst, mit dem synchronisiert werden soll.');
    expect(await firstLine('--lang', 'nl_BE.UTF-8', 'status')).toBe('Synchronisatie: Synchronisatie niet ingesteld — Kies de dienst waarmee je wilt synchroniseren.');
  });

  it('refuses a language it does not speak, naming those it does', async () => {
    const run = await runCliCapturing(profile, ['--lang', 'fr', 'status']);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^--lang fr: design-sync speaks en \(English\), nl \(Nederlands\), de \(Deutsch\)/);
  });

  it('follows LC_ALL over LANG, and LANG when it is the only one', async () => {
    process.env.LANG = 'nl_NL.UTF-8';
    expect(await firstLine('status')).toMatch(/^Synchronisatie: /);
    process.env.LC_ALL = 'de_DE.UTF-8';
    expect(await firstLine('status')).toMatch(/^Synchronisierung: /);
  });

  it('follows the profile\'s language setting over the environment; --lang over both', async () => {
    writeFileSync(profilePaths(profile).settingsFile, JSON.stringify({ language: 'nl' }));
    process.env.LANG = 'de_DE.UTF-8';
    expect(await firstLine('status')).toMatch(/^Synchronisatie: /);
    expect(await firstLine('--lang', 'en', 'status')).toBe('Sync: Sync not set up — Choose the service to sync with.');
  });

  it('keeps --json in English, with the codes, whatever the language', async () => {
    const run = await runCliCapturing(profile, ['--lang', 'de', 'status', '--json']);
    expect(JSON.parse(run.out).sync).toMatchObject({ label: 'Sync not set up', reasonCode: 'no-service' });
  });
});
