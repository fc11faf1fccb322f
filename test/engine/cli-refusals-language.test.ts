import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../harness/local-service';
import { clientFor } from '../../harness/sync-computers';
import { runCliCapturing, type CliRun } from '../support/cli';
import { tempDir } from './cache/cache-fixtures';
import { expectNoneOf, useEnvironmentWithoutLanguage } from '../support/language';

/**
 * The engine's own refusals and problems reach the person in their language, through the command line: an own
 * design's refusal (designs), a keep refusal, the ignore file's problems (ignore, its refusals), a profile folder
 * and a settings file that cannot be used (any command). Each is said in German or Dutch with none of its English
 * left, and in English as before.
 */
const dirs: string[] = [];
useEnvironmentWithoutLanguage();
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function newDir(name: string): string {
  const dir = tempDir(name);
  dirs.push(dir);
  return dir;
}

describe('a profile folder or settings file that cannot be used', () => {
  it('says a profile folder that is a file in German, with what to do, and in English as before', async () => {
    const file = join(newDir('cli-refusals-profile'), 'not-a-folder');
    writeFileSync(file, 'a file where the profile folder should be\n');
    const german = await runCliCapturing(file, ['--lang', 'de', 'whoami']);
    expect(german).toMatchObject({ code: 1, out: '', err: `Der Profilordner ${file} ist eine Datei, kein Ordner: Wählen Sie ein anderes --profile.` });
    expectNoneOf(german.err, ['profile folder', 'is a file', 'choose another']);
    const english = await runCliCapturing(file, ['whoami']);
    expect(english).toMatchObject({ code: 1, err: `The profile folder ${file} is a file, not a folder: choose another --profile.` });
  });

  it('names the file in the way of a profile folder inside it, in Dutch', async () => {
    const parent = join(newDir('cli-refusals-profile-inside'), 'blocker');
    writeFileSync(parent, 'x');
    const profile = join(parent, 'profile');
    const dutch = await runCliCapturing(profile, ['--lang', 'nl', 'status']);
    expect(dutch).toMatchObject({ code: 1, err: `De profielmap ${profile} kan niet worden gebruikt: ${parent} is een bestand, geen map: kies een ander --profile.` });
  });

  it('says a settings file that is not JSON in Dutch, naming it', async () => {
    const profile = newDir('cli-refusals-settings');
    const settings = join(profile, 'settings.json');
    writeFileSync(settings, '{ "serviceUrl": ');
    const dutch = await runCliCapturing(profile, ['--lang', 'nl', 'status']);
    expect(dutch.code).toBe(1);
    expect(dutch.err).toMatch(new RegExp(`^Het instellingenbestand ${settings.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} kan niet worden gelezen: .+\\. Herstel of verwijder het\\.$`));
    expectNoneOf(dutch.err, ['settings file', 'cannot be read', 'Fix or remove']);
  });
});

describe('refusals of a signed-in profile, in German and Dutch', () => {
  let service: TestService;
  let token: string;
  let profile: string;
  let othersDesign: number;
  const cli = (...argv: string[]): Promise<CliRun> => runCliCapturing(profile, argv, token);

  /** A profile of its own, signed in, syncing a new folder: what `cli` runs the command in. */
  async function syncingProfile(name: string): Promise<{ root: string; cli: (...argv: string[]) => Promise<CliRun> }> {
    const own = newDir(name);
    const run = (...argv: string[]) => runCliCapturing(own, argv, token);
    const login = await run('--service', service.url, 'login', '--with-token');
    expect(login, login.err).toMatchObject({ code: 0 });
    const root = join(newDir(`${name}-root`), 'Designs');
    mkdirSync(root);
    const synced = await run('sync', root, '--accept-content-policy', '--settle-ms', '100');
    expect(synced, synced.err).toMatchObject({ code: 0 });
    return { root, cli: run };
  }

  beforeAll(async () => {
    service = await startTestService();
    token = service.addUser('weigerer').token;
    const other = clientFor(service.url, service.addUser('iemand-anders').token);
    const design = await other.createDesign({ name: 'Fremdes Zahnrad', excerpt: 'Nicht Ihres', license: 'cc0' });
    await other.publishDesign(design.id);
    othersDesign = design.id;
    profile = newDir('cli-refusals-signed-in');
    expect((await cli('--service', service.url, 'login', '--with-token')).code).toBe(0);
  }, 30_000);
  afterAll(async () => {
    await service?.stop();
  });

  it('refuses to edit a design of someone else in German, naming it, and in English as before', async () => {
    const german = await cli('--lang', 'de', 'designs', 'edit', String(othersDesign), '--name', 'Meins');
    expect(german).toMatchObject({ code: 1, err: 'Das Design „Fremdes Zahnrad“ gehört nicht Ihnen: Nur sein Autor kann es ändern.' });
    const english = await cli('designs', 'edit', String(othersDesign), '--name', 'Mine');
    expect(english).toMatchObject({ code: 1, err: 'The design "Fremdes Zahnrad" is not yours: only its author can change it.' });
  });

  it('refuses to keep a design the service does not have, in Dutch', async () => {
    const dutch = await cli('--lang', 'nl', 'keep', '987654');
    expect(dutch).toMatchObject({ code: 1, err: 'Er is geen ontwerp "987654" op de dienst.' });
    expectNoneOf(dutch.err, ['There is no', 'on the service']);
  });

  it('says why the ignore file cannot be used in Dutch, and refuses a line it cannot take in German', async () => {
    const { root, cli } = await syncingProfile('cli-refusals-ignore');
    writeFileSync(join(root, '.designsyncignore'), '*.bak\nrenders\\old\n!\n');

    const shown = await cli('--lang', 'nl', 'ignore');
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('Probleem: Regel 2 van .designsyncignore: “renders\\old” bevat een backslash: schrijf mappen met / (bijvoorbeeld renders/ of old/*.stl). '
      + 'Regel 3 van .designsyncignore: “!” komt met niets overeen. Er wordt niets verstuurd tot .designsyncignore is verbeterd, omdat het bestanden kan willen tegenhouden.');
    const check = await cli('--lang', 'nl', 'ignore', 'check', 'teil/teil.stl');
    expect(check.code).toBe(1);
    expect(check.err).toMatch(/^Regel 2 van \.designsyncignore: .+ Er wordt niets verstuurd tot/);
    expectNoneOf([shown.out, check.err].join('\n'), ['Line 2', 'holds a backslash', 'matches nothing', 'Nothing is sent', 'corrected']);

    writeFileSync(join(root, '.designsyncignore'), '*.bak\n');
    const refused = await cli('--lang', 'de', 'ignore', 'add', 'renders\\alt');
    expect(refused).toMatchObject({ code: 1, err: 'Zeile 2 von .designsyncignore: „renders\\alt“ enthält einen Backslash: Schreiben Sie Ordner mit / (zum Beispiel renders/ oder old/*.stl).' });
    const english = await cli('ignore', 'add', 'renders\\old');
    expect(english).toMatchObject({ code: 1, err: 'Line 2 of .designsyncignore: “renders\\old” holds a backslash: write folders with / (for example renders/ or old/*.stl).' });
  });

  it('names the built-in entry for hidden files in German', async () => {
    const { cli } = await syncingProfile('cli-refusals-built-in');
    const builtIn = await cli('--lang', 'de', 'ignore', '--built-in');
    expect(builtIn.out).toMatch(/^ {2}Jedes Programm — /m);
    expect(builtIn.out).not.toContain('Any program');
  });
});
