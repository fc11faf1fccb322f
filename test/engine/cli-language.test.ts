import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { profilePaths } from '../../electron/engine/profile/profile';
import { startTestService, type TestService } from '../../harness/local-service';
import { clientFor } from '../../harness/sync-computers';
import { runCliCapturing } from '../support/cli';
import { tempDir } from './cache/cache-fixtures';
import { useEnvironmentWithoutLanguage } from '../support/language';

/**
 * The command line's language: --lang, else the profile's language setting (Settings → Language), else the
 * environment's (LC_ALL, LC_MESSAGES, LANG). `design-sync status` on a profile with no service chosen: nothing to
 * reach, its first line the sync state and what to do.
 */
let profile: string;
useEnvironmentWithoutLanguage();

const firstLine = async (...argv: string[]) => {
  const run = await runCliCapturing(profile, argv);
  expect(run.err).toBe('');
  expect(run.code).toBe(0);
  return run.out.split('\n')[0];
};

beforeEach(() => {
  profile = tempDir('cli-language-profile');
});

afterEach(() => {
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

describe('the commands in Dutch and German', () => {
  let service: TestService;
  let token: string;
  const dirs: string[] = [];

  beforeAll(async () => {
    service = await startTestService();
    token = service.addUser('taal-tester').token;
  });
  afterAll(async () => {
    await service.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('says who is signed in, and that nobody is, in the language asked for', async () => {
    const refused = await runCliCapturing(profile, ['--lang', 'de', 'whoami']);
    expect(refused).toMatchObject({ code: 1, err: 'Nicht angemeldet. Führen Sie aus: design-sync login' });
    expect((await runCliCapturing(profile, ['--lang', 'nl', 'whoami'])).err).toBe('Niet ingelogd. Voer uit: design-sync login');

    const login = await runCliCapturing(profile, ['--lang', 'de', '--service', service.url, 'login', '--with-token'], token);
    expect(login.out.split('\n')[0]).toBe('Angemeldet als taal-tester');
    const dutch = await runCliCapturing(profile, ['--lang', 'nl', 'whoami']);
    expect(dutch.out.split('\n').slice(0, 3)).toEqual(['Ingelogd als taal-tester', 'Echte naam: taal-tester', `Dienst: ${service.url}`]);
    const json = await runCliCapturing(profile, ['--lang', 'de', 'whoami', '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ screen_name: 'taal-tester', service: service.url });
  });

  it('says what a pull brought in German, its table\'s headings and its seconds as German writes them', async () => {
    const run = await runCliCapturing(profile, ['--lang', 'de', '--service', service.url, 'pull']);
    expect(run.err).toBe('');
    expect(run.out).toMatch(new RegExp(`^Von ${service.url.replace(/[.]/g, '\\.')} abgerufen in \\d+,\\d s$`, 'm'));
    expect(run.out).toMatch(/^ +neu +aktualisiert +unverändert +entfernt$/m);
    expect(run.out).toMatch(/^veröffentlichte Designs +\d+/m);
  });

  it('lists the queue and refuses what is not an item number in the language asked for', async () => {
    expect((await runCliCapturing(profile, ['--lang', 'de', 'queue', 'list'])).out).toBe('Die Warteschlange ist leer.');
    expect((await runCliCapturing(profile, ['--lang', 'nl', 'queue', 'list'])).out).toBe('De wachtrij is leeg.');
    expect((await runCliCapturing(profile, ['--lang', 'nl', 'kept'])).out).toBe('Er wordt geen ontwerp offline bewaard. Bewaar er een met: design-sync keep <ontwerp>');
    const refused = await runCliCapturing(profile, ['--lang', 'de', 'queue', 'retry', 'zwei']);
    expect(refused).toMatchObject({ code: 1, err: 'Erwartet wird eine Eintragsnummer (siehe design-sync queue list) oder "all", angegeben war "zwei".' });
  });

  it('refuses a design the cache does not have, in German and Dutch', async () => {
    const german = await runCliCapturing(profile, ['--lang', 'de', 'show', 'zahnrad']);
    expect(german).toMatchObject({ code: 1, err: 'Das Design "zahnrad" ist nicht im Cache. Führen Sie aus: design-sync pull (oder design-sync search --online zahnrad).' });
    const dutch = await runCliCapturing(profile, ['--lang', 'nl', 'search', 'tandwiel']);
    expect(dutch.out).toBe('Geen ontwerpen gevonden.');
  });

  it('refuses a mistaken option before any command runs, in the environment\'s language', async () => {
    process.env.LANG = 'de_DE.UTF-8';
    const refused = await runCliCapturing(profile, ['--max-upload-rate', 'schnell', 'status']);
    expect(refused).toMatchObject({ code: 1, err: '--max-upload-rate: erwartet wird eine Geschwindigkeit in KB/s, eine ganze Zahl von 0 (keine Begrenzung) bis 10.000.000, angegeben war "schnell".' });
  });

  it('says what a sync did in German, with its counts as German writes them; English stays the default', async () => {
    const api = clientFor(service.url, token);
    await api.createDesign({ name: 'Scharnier', excerpt: 'Ein Scharnier', license: 'cc0' });
    const root = join(tempDir('cli-language-root'), 'Designs');
    dirs.push(join(root, '..'));
    expect((await runCliCapturing(profile, ['--service', service.url, 'login', '--with-token'], token)).code).toBe(0);

    const german = await runCliCapturing(profile, ['--lang', 'de', 'sync', root, '--accept-content-policy', '--settle-ms', '100']);
    expect(german.err).toBe('');
    expect(german.code).toBe(0);
    expect(german.out).toMatch(/^Synchronisierungsordner: /m);
    expect(german.out).toMatch(/^Ordner angelegt: scharnier$/m);
    expect(german.out).toMatch(/^vom Dienst: \d+ heruntergeladen, \d+ aktualisiert, \d+ umbenannt, \d+ in den Papierkorb verschoben, 0 Konflikte$/m);
    expect(german.out).toMatch(/^synchron\.$/m);

    const english = await runCliCapturing(profile, ['sync', root, '--settle-ms', '100']);
    expect(english.out).toMatch(/^folder: 0 files in 1 design folder, 0 changes queued$/m);
    expect(english.out).toMatch(/^in sync\.$/m);
  });
});
