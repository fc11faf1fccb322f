import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliProgram } from '../../electron/cli/main';
import { createTranslator } from '../../shared/i18n/create-intl';
import { startTestService, type TestService } from '../../harness/local-service';
import { clientFor } from '../../harness/sync-computers';
import { runCliCapturing, type CliRun } from '../support/cli';
import { startCliChild } from '../support/cli-child';
import { tempDir } from './cache/cache-fixtures';
import { expectNoneOf, useEnvironmentWithoutLanguage } from '../support/language';

/**
 * The commands converted last speak the person's language too: designs, ignore, open and slicers, ui, status
 * --diagnostics, every --help and commander's own refusals. Each is run in German and Dutch, its telling words looked
 * for, and the English it said before looked for in vain.
 */
const dirs: string[] = [];
useEnvironmentWithoutLanguage();
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function newProfile(name: string): string {
  const profile = tempDir(name);
  dirs.push(profile);
  return profile;
}

/** Every description of the program's help (each command's, option's and argument's), by where it is. */
function helpTexts(command: Command, path = 'design-sync', found = new Map<string, string>()): Map<string, string> {
  found.set(path, command.description());
  for (const option of command.options) found.set(`${path} ${option.long ?? option.flags}`, option.description);
  command.registeredArguments.forEach((argument, index) => found.set(`${path} argument ${index + 1}`, argument.description));
  for (const sub of command.commands) helpTexts(sub, `${path} ${sub.name()}`, found);
  return found;
}

describe('the help in the person\'s language', () => {
  const profile = newProfile('cli-help-language');

  it('words every command, option and argument in Dutch and German, none left as in English', async () => {
    const io = { out: () => {}, err: () => {}, readStdin: async () => '' };
    const noContext = () => {
      throw new Error('the help needs no context');
    };
    const english = helpTexts(cliProgram(await createTranslator('en'), io, noContext));
    expect(english.size).toBeGreaterThan(60);
    for (const locale of ['nl', 'de'] as const) {
      const translated = helpTexts(cliProgram(await createTranslator(locale), io, noContext));
      expect([...translated.keys()]).toEqual([...english.keys()]);
      const same = [...english].filter(([where, text]) => !text || translated.get(where) === text).map(([where]) => where);
      expect(same, `${locale}: described as in English`).toEqual([]);
    }
  });

  it('prints the program\'s help in German, commander\'s own words included', async () => {
    const run = await runCliCapturing(profile, ['--lang', 'de', '--help']);
    expect(run).toMatchObject({ code: 0, err: '' });
    expect(run.out).toMatch(/^Aufruf: design-sync \[Optionen\] \[Befehl\]$/m);
    expect(run.out).toMatch(/^Optionen:$/m);
    expect(run.out).toMatch(/^Befehle:$/m);
    expect(run.out).toMatch(/^ {2}-V, --version +die Versionsnummer ausgeben$/m);
    expect(run.out).toMatch(/^ {2}-h, --help +Hilfe zum Befehl anzeigen$/m);
    expect(run.out).toMatch(/^ {2}help \[Befehl\] +Hilfe zum Befehl anzeigen$/m);
    expect(run.out).toMatch(/^ {2}open \[Optionen\] <Design> \[Datei\] +die Modelldatei eines Designs/m);
    expect(run.out).toMatch(/^ {2}--lang <Code> +die Sprache der Ausgaben/m);
    expectNoneOf(run.out, ['Usage:', 'Options:', 'Commands:', '[options]', '[command]', 'display help', 'output the version', 'the service address', 'sign in to the service']);
  });

  it('prints a command\'s help in Dutch, its arguments and a default value included', async () => {
    process.env.LANG = 'nl_NL.UTF-8';
    const run = await runCliCapturing(profile, ['search', '--help']);
    expect(run).toMatchObject({ code: 0, err: '' });
    expect(run.out).toMatch(/^Gebruik: design-sync search \[opties\] <woord\.\.\.>$/m);
    expect(run.out).toMatch(/^Argumenten:$/m);
    expect(run.out).toMatch(/^ {2}woord +woorden om naar te zoeken/m);
    expect(run.out).toMatch(/^ {2}--limit <n> +resultaten per pagina \(standaard: "20"\)$/m);
    expect(run.out).toMatch(/^ {2}-h, --help +hulp bij de opdracht tonen$/m);
    expectNoneOf(run.out, ['Usage:', 'Arguments:', 'Options:', '[options]', 'default:', 'display help', 'results per page', 'words to look for']);
  });

  it('refuses a mistaken call in German and Dutch, naming what was wrong and what was meant', async () => {
    const unknownCommand = await runCliCapturing(profile, ['--lang', 'de', 'stauts']);
    expect(unknownCommand).toMatchObject({ code: 1, err: "Fehler: unbekannter Befehl 'stauts'\n(Meinten Sie status?)\n" });
    const unknownOption = await runCliCapturing(profile, ['--lang', 'de', 'status', '--jsno']);
    expect(unknownOption).toMatchObject({ code: 1, err: "Fehler: unbekannte Option '--jsno'\n(Meinten Sie --json?)\n" });
    const missing = await runCliCapturing(profile, ['--lang', 'nl', 'show']);
    expect(missing).toMatchObject({ code: 1, err: "fout: verplicht argument 'ontwerp' ontbreekt\n" });
    const excess = await runCliCapturing(profile, ['--lang', 'nl', 'show', 'a', 'b']);
    expect(excess).toMatchObject({ code: 1, err: "fout: te veel argumenten voor 'show'. Verwacht: 1 argument, gekregen: 2.\n" });
    const english = await runCliCapturing(profile, ['stauts']);
    expect(english.err).toBe("error: unknown command 'stauts'\n(Did you mean status?)\n");
  });

  it('refuses a --lang it does not speak before anything else, also for the help, in the language it would speak', async () => {
    const run = await runCliCapturing(profile, ['--lang', 'fr', '--help']);
    expect(run.code).toBe(1);
    expect(run.out).toBe('');
    expect(run.err).toMatch(/^--lang fr: design-sync speaks en \(English\), nl \(Nederlands\), de \(Deutsch\)/);
    process.env.LANG = 'de_DE.UTF-8';
    const german = await runCliCapturing(profile, ['--lang', 'fr', 'status']);
    expect(german).toMatchObject({ code: 1, err: '--lang fr: design-sync spricht en (English), nl (Nederlands), de (Deutsch) (und en-XA, die Pseudo-Sprache für Entwickler).' });
  });
});

describe('status --diagnostics in the person\'s language', () => {
  it('says where the log and the profile\'s files are, the limits, the proxy and the versions in German', async () => {
    const profile = newProfile('cli-diagnostics-language');
    writeFileSync(join(profile, 'settings.json'), JSON.stringify({ language: 'de', maxUploadKBps: 1500 }));
    const run = await runCliCapturing(profile, ['status', '--diagnostics']);
    expect(run).toMatchObject({ code: 0, err: '' });
    expect(run.out).toMatch(/^Engine-Protokoll: .+$/m);
    expect(run.out).toContain(`Profil: ${profile}\n`);
    expect(run.out).toContain(`  Einstellungen: ${join(profile, 'settings.json')}\n`);
    expect(run.out).toContain(`  Token-Datei: ${join(profile, 'token')} (nicht vorhanden)\n`);
    expect(run.out).toMatch(/^ {2}Cache-Datenbank: .+$/m);
    expect(run.out).toMatch(/^ {2}Synchronisierungsdatenbank: .+$/m);
    expect(run.out).toMatch(/^Start bei der Anmeldung: /m);
    expect(run.out).toContain('Bandbreitenbegrenzung: Uploads 1.500 KB/s, Downloads keine Begrenzung (1 KB = 1.024 Byte)\n');
    expect(run.out).toMatch(/^Updates: (Kanal|Diese Installation|Builds)/m);
    expect(run.out).toMatch(/^Proxy: keiner in Verwendung \(direkt\); Einstellung: System/m);
    expect(run.out).toMatch(/^Versionen: design-sync \d+\.\d+\.\d+, Node /m);
    expect(run.out).toMatch(/^Node-Optionen: /m);
    expect(run.out).toMatch(/^(Letzte \d+ Zeilen? des Engine-Protokolls:|Das Engine-Protokoll ist leer\.)$/m);
    expectNoneOf(run.out, ['Engine log', 'Profile:', 'settings:', 'token file', 'absent', 'database:', 'downloaded files', 'Start at login', 'Bandwidth', 'no limit',
      'channel', 'none in use', 'setting:', 'Versions:', 'Node flags', 'Last ', 'is empty']);
  });

  it('says it in Dutch where the environment speaks Dutch', async () => {
    const profile = newProfile('cli-diagnostics-dutch');
    process.env.LC_ALL = 'nl_BE.UTF-8';
    const run = await runCliCapturing(profile, ['status', '--diagnostics']);
    expect(run.out).toMatch(/^Engine-logboek: .+ \(nog niets gelogd\)$/m);
    expect(run.out).toContain(`  tokenbestand: ${join(profile, 'token')} (afwezig)\n`);
    expect(run.out).toContain('Bandbreedtelimieten: uploads geen limiet, downloads geen limiet');
    expect(run.out).toMatch(/^Versies: design-sync /m);
  });
});

describe('design-sync ui in the person\'s language', () => {
  const profile = newProfile('cli-ui-language');

  it('refuses a port that is no port, and one in use, in German and Dutch', async () => {
    const run = await runCliCapturing(profile, ['--lang', 'de', 'ui', '--port', 'achtzig', '--no-open']);
    expect(run).toMatchObject({ code: 1, out: '', err: '--port erwartet eine Portnummer von 0 bis 65535 (0: ein beliebiger freier Port), angegeben war "achtzig".' });
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as { port: number }).port;
    try {
      const inUse = await runCliCapturing(profile, ['--lang', 'nl', 'ui', '--port', String(port), '--no-open']);
      expect(inUse).toMatchObject({ code: 1, err: `Poort ${port} op 127.0.0.1 is al in gebruik: kies een andere met --port, of laat de optie weg om een vrije poort te gebruiken.` });
    } finally {
      taken.close();
    }
  });

  it('prints the window\'s address as scripts read it, and what to do with it in German', async () => {
    const ui = startCliChild(['--lang', 'de', 'ui', '--no-open'], { profile });
    try {
      await ui.waitFor(/Öffnen Sie die Adresse oben in Ihrem Browser\. Strg\+C beendet design-sync ui\./, 20_000);
      expect(ui.out()).toMatch(/^window: http:\/\/127\.0\.0\.1:\d+\/\?secret=\S+\n$/);
      expect(await ui.interrupt()).toBe(0);
    } finally {
      ui.child.kill('SIGKILL');
    }
  });
});

describe('the commands that need the service, in German and Dutch', () => {
  let service: TestService;
  let token: string;
  let profile: string;
  const cli = (...argv: string[]): Promise<CliRun> => runCliCapturing(profile, argv, token);

  beforeAll(async () => {
    service = await startTestService();
    token = service.addUser('sprach-tester').token;
    profile = newProfile('cli-commands-language');
    expect((await cli('--service', service.url, 'login', '--with-token')).code).toBe(0);
  }, 30_000);
  afterAll(async () => {
    await service?.stop();
  });

  it('says in Dutch that --switch-service signed out of the first service', async () => {
    const other = await startTestService();
    try {
      const otherToken = other.addUser('ander').token;
      const switching = newProfile('cli-language-switch');
      expect((await runCliCapturing(switching, ['--service', service.url, 'login', '--with-token'], token)).code).toBe(0);
      const switched = await runCliCapturing(switching, ['--lang', 'nl', '--service', other.url, '--switch-service', 'login', '--with-token'], otherToken);
      expect(switched).toMatchObject({ code: 0, err: `Uitgelogd bij ${service.url} (het token ervan is van deze computer verwijderd): dit profiel gebruikt nu ${other.url}.` });
      expect(switched.out).toMatch(/^Ingelogd als ander$/m);
    } finally {
      await other.stop();
    }
  });

  it('says what designs did with your own designs, and refuses what it cannot do, in German and Dutch', async () => {
    expect(await cli('--lang', 'de', 'designs')).toMatchObject({ code: 0, out: 'Sie haben keine Designs im Cache. Führen Sie aus: design-sync pull' });
    const created = await cli('--lang', 'de', 'designs', 'create', '--name', 'Stifthalter', '--excerpt', 'Hält Stifte', '--license', 'cc0');
    expect(created).toMatchObject({ code: 0, err: '' });
    const id = Number(/^Entwurf angelegt: (\d+) {2}Stifthalter {2}\[Entwurf\] \(cc0\)$/.exec(created.out)?.[1]);
    expect(id).toBeGreaterThan(0);
    expect((await cli('--lang', 'nl', 'designs', 'edit', String(id), '--name', 'Pennenhouder'))).toMatchObject({ code: 0, out: `Gewijzigd: ${id}  Pennenhouder  [concept] (cc0)` });
    expect(await cli('--lang', 'de', 'designs', 'publish', String(id))).toMatchObject({ code: 0, out: `Veröffentlicht: ${id}  Pennenhouder  [veröffentlicht] (cc0)` });
    expect(await cli('--lang', 'de', 'designs', 'publish', 'zwölf')).toMatchObject({ code: 1, err: 'Das Design muss mit seiner Nummer angegeben werden (z. B. 12), angegeben war "zwölf".' });
    expect(await cli('--lang', 'nl', 'designs', 'delete', String(id))).toMatchObject({
      code: 1,
      err: 'Er is niets verwijderd: een ontwerp verwijderen vraagt om je bevestiging (antwoord j, of geef --yes mee).',
    });
    expect(await cli('--lang', 'de', 'designs', 'delete', String(id), '--yes')).toMatchObject({ code: 0, out: 'Das Design „Pennenhouder“ wurde beim Dienst gelöscht.' });
  });

  it('says what ignore holds back and why in German, and refuses in Dutch', async () => {
    const root = join(tempDir('cli-language-ignore-root'), 'Designs');
    dirs.push(join(root, '..'));
    const noFolder = await cli('--lang', 'nl', 'ignore');
    expect(noFolder).toMatchObject({ code: 1, err: 'Er is nog geen synchronisatiemap gekozen: het negeerbestand staat daarin. Kies er een met design-sync sync <map>.' });
    expect((await cli('sync', root, '--accept-content-policy', '--settle-ms', '100')).code).toBe(0);
    const ignoreFile = join(root, '.designsyncignore');

    const shown = await cli('--lang', 'de', 'ignore');
    expect(shown.out).toContain(`${ignoreFile} (noch nicht vorhanden: design-sync ignore add <Muster> legt sie an)\n`);
    expect(shown.out).toContain('Zurückgehalten: nichts, laut der letzten Prüfung.');
    expect(shown.out).toMatch(/^Integriert: \d+ Einträge \(Sicherungen, temporäre Dateien und Sperrdateien von Programmen; Dateien des Systems\)/m);
    const added = await cli('--lang', 'de', 'ignore', 'add', '*.entwurf');
    expect(added.out).toContain(`Zu ${ignoreFile} hinzugefügt: *.entwurf.`);
    expect((await cli('--lang', 'de', 'ignore', 'add', '*.entwurf')).out).toBe('.designsyncignore enthält es bereits: Es wurde nichts geändert.');
    const check = await cli('--lang', 'de', 'ignore', 'check', 'teil/teil.entwurf', 'teil/teil.stl');
    expect(check.out.split('\n')).toEqual(['teil/teil.entwurf: nie gesendet (Zeile 1 von .designsyncignore: *.entwurf)', 'teil/teil.stl: gesendet']);
    const builtIn = await cli('--lang', 'de', 'ignore', '--built-in');
    expect(builtIn.out).toContain('Integriert (nie gesendet, egal was in der Ignorier-Datei steht):');
    const missing = await cli('--lang', 'nl', 'ignore', 'remove', '*.tmp', '*.old');
    expect(missing).toMatchObject({ code: 1, err: '.designsyncignore heeft geen regels "*.tmp", "*.old": design-sync ignore toont de regels.' });
    expect((await cli('--lang', 'nl', 'ignore', 'remove', '*.entwurf')).out).toContain(`Verwijderd uit ${ignoreFile}: *.entwurf.`);
    const outside = await cli('--lang', 'de', 'ignore', 'check', '/etc/passwd');
    expect(outside).toMatchObject({ code: 1, err: `/etc/passwd liegt nicht im Synchronisierungsordner ${root}.` });
    expectNoneOf([shown.out, added.out, check.out, builtIn.out].join('\n'), ['Held back', 'Built-in', 'entries', 'Added to', 'never sent', ': sent', 'none yet']);
  });

  it('lists the slicers, refuses a file a design does not have, and says where a kept design is, in German and Dutch', async () => {
    const api = clientFor(service.url, token);
    const design = String((await api.createDesign({ name: 'Zahnrad', excerpt: 'Ein Zahnrad', license: 'cc0' })).id);

    const slicers = await cli('--lang', 'de', 'slicers');
    expect(slicers.code).toBe(0);
    expect(slicers.out).toMatch(/^[ *] Standard-App des Systems {2}\[system\] {2}/m);
    expect(slicers.out).not.toContain('System default app');
    const noModel = await cli('--lang', 'de', 'open', design);
    expect(noModel).toMatchObject({ code: 1, err: 'Zahnrad hat keine Modelldatei, die ein Slicer öffnet.' });
    const noFile = await cli('--lang', 'nl', 'open', design, 'tandwiel.stl');
    expect(noFile).toMatchObject({ code: 1, err: 'Zahnrad heeft geen bestand "tandwiel.stl"; het heeft geen bestanden.' });

    const kept = await cli('--lang', 'de', 'keep', design);
    expect(kept).toMatchObject({ code: 0, out: `Zahnrad  (#${design})  Offline verfügbar: 0 Dateien, 0 B.` });
  });
});
