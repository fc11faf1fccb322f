import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { notDoneIn } from '../../electron/engine/runtime/sync-until-sent';
import { watcherFailureWords } from '../../electron/engine/sync/folder-watcher';
import { openProfile } from '../../harness/profile';
import { startTestService, type TestService } from '../../harness/local-service';
import { createTranslator } from '../../shared/i18n/create-intl';
import { wordedOr } from '../../shared/i18n/engine-words';
import { syncReasonWords } from '../../shared/sync/sync-state-words';
import { runCliCapturing } from '../support/cli';
import { tempDir } from './cache/cache-fixtures';

/**
 * Why sync stopped comes from the engine as facts (a message and its values: the folder's path, what the system
 * said) and is said in the person's language wherever the sync status is shown: here `design-sync sync` and
 * `design-sync status`; English stays the default and --json keeps it.
 */
describe('why sync stopped, in the person\'s language', () => {
  let service: TestService;
  let profile: string;
  let root: string;

  beforeAll(async () => {
    service = await startTestService();
    const { token } = service.addUser('mapper');
    profile = tempDir('sync-detail-language');
    root = join(tempDir('sync-detail-language-root'), 'Designs');
    mkdirSync(root);
    expect(await runCliCapturing(profile, ['--service', service.url, 'login', '--with-token'], token)).toMatchObject({ code: 0 });
    const first = await runCliCapturing(profile, ['sync', root, '--accept-content-policy']);
    expect(first.code, first.err).toBe(0);
  });
  afterAll(async () => {
    await service.stop();
    rmSync(profile, { recursive: true, force: true });
  });

  it('says the sync folder is missing in German and Dutch, its path as it is, and in English by default', async () => {
    rmSync(root, { recursive: true, force: true });
    const germanWhy = `Der Synchronisierungsordner ${root} fehlt (Datenträger ausgehängt oder Ordner verschoben?). Die Synchronisierung ist angehalten; auf dem Dienst wurde nichts geändert.`;
    const german = await runCliCapturing(profile, ['--lang', 'de', 'sync', root]);
    expect(german.code).toBe(1);
    expect(german.err.split('\n')).toEqual([`ANGEHALTEN: ${germanWhy}`, germanWhy]);

    const dutch = await runCliCapturing(profile, ['--lang', 'nl', 'status']);
    expect(dutch.out.split('\n')[0]).toBe(`Synchronisatie: Fout — De synchronisatiemap ${root} ontbreekt (schijf ontkoppeld of map verplaatst?). De synchronisatie is gestopt; er is niets gewijzigd op de dienst.`);

    const english = await runCliCapturing(profile, ['status']);
    const englishWhy = `The sync folder ${root} is missing (disk unmounted or folder moved?). Sync is stopped; nothing was changed on the service.`;
    expect(english.out.split('\n')[0]).toBe(`Sync: Error — ${englishWhy}`);
    const json = JSON.parse((await runCliCapturing(profile, ['--lang', 'de', 'status', '--json'])).out) as { sync: { reasonCode: string; reason: string } };
    expect(json.sync).toMatchObject({ reasonCode: 'folder-unavailable', reason: englishWhy });
  });

  it('says what a pass could not do while nobody is signed in in Dutch and German, its English kept for the log', async () => {
    const folder = join(tempDir('sync-detail-language-signed-out'), 'Designs');
    const signedOut = await openProfile({ serviceUrl: service.url });
    try {
      await signedOut.engine.sync.chooseFolder(folder);
      const pass = await signedOut.engine.sync.syncParts().sync.syncOnce();
      const notDone = notDoneIn(pass);
      expect(notDone.map((line) => line.text)).toEqual(['Not signed in: the service was not checked for changes.']);
      const [dutch, german] = [await createTranslator('nl'), await createTranslator('de')];
      expect(notDone.map((line) => wordedOr(dutch, line.words, line.text))).toEqual(['Niet aangemeld: de dienst is niet op wijzigingen gecontroleerd.']);
      expect(notDone.map((line) => wordedOr(german, line.words, line.text))).toEqual(['Nicht angemeldet: Der Dienst wurde nicht auf Änderungen geprüft.']);
    } finally {
      await signedOut.close();
      rmSync(join(folder, '..'), { recursive: true, force: true });
    }
  });

  it('says an ignore file that cannot be used in German and Dutch in the activity list and the warning sync gives', async () => {
    const folder = join(tempDir('sync-detail-language-ignore'), 'Designs');
    mkdirSync(folder);
    writeFileSync(join(folder, '.designsyncignore'), 'renders\\old\n');
    const profile = await openProfile({ serviceUrl: service.url });
    try {
      await profile.engine.sync.chooseFolder(folder);
      const { sync } = profile.engine.sync.syncParts();
      const warnings: { message: string; words?: unknown }[] = [];
      sync.on('event', (event) => { if (event.type === 'warning') warnings.push(event); });
      await sync.syncOnce();
      const line = profile.engine.queue.recentActivity().find((entry) => entry.path === '.designsyncignore')!;
      const english = 'Line 1 of .designsyncignore: “renders\\old” holds a backslash: write folders with / (for example renders/ or old/*.stl). Nothing is sent until .designsyncignore is corrected, since it may mean to hold files back.';
      expect(line).toMatchObject({ level: 'warning', message: english });
      expect(warnings).toMatchObject([{ message: english, words: line.words }]);
      expect(wordedOr(await createTranslator('de'), line.words, line.message)).toBe(
        'Zeile 1 von .designsyncignore: „renders\\old“ enthält einen Backslash: Schreiben Sie Ordner mit / (zum Beispiel renders/ oder old/*.stl). Es wird nichts gesendet, bis .designsyncignore korrigiert ist, da sie möglicherweise Dateien zurückhalten soll.',
      );
      expect(wordedOr(await createTranslator('nl'), line.words, line.message)).toMatch(/^Regel 1 van \.designsyncignore: /);
    } finally {
      await profile.close();
      rmSync(join(folder, '..'), { recursive: true, force: true });
    }
  });

  it('words the watcher\'s failure and another process holding the queue from their facts', async () => {
    const counts = { waiting: 0, running: 0, done: 0, failed: 0, attention: 0, cancelled: 0 };
    const limit = Object.assign(new Error('watch ENOSPC'), { code: 'ENOSPC' });
    const facts = { reasonCode: 'watcher-degraded' as const, counts, folder: root, serviceUrl: service.url, until: null, detail: 'English', detailWords: watcherFailureWords(limit, 600_000) };
    expect(syncReasonWords(facts, await createTranslator('de'))).toMatch(/^Die Überwachung des Synchronisierungsordners ist fehlgeschlagen: Die Systemgrenze für überwachte Dateien wurde erreicht \(ENOSPC\)\. .* alle 10 Min\. gefunden/);
    expect(syncReasonWords(facts, await createTranslator('nl'))).toMatch(/^Het volgen van de synchronisatiemap is mislukt: .*elke 10 min/);
    const locked = { ...facts, reasonCode: 'queue-locked' as const, detailWords: { id: 'sync.detail.queueLocked' as const, values: { pid: '4242' } } };
    expect(syncReasonWords(locked, await createTranslator('nl'))).toBe('Een ander design-sync-proces (pid 4242) verstuurt de wachtrij van dit profiel al. Stop dat eerst, of gebruik een ander profiel.');
    // Without facts (a proxy's words), the detail is said as it came.
    expect(syncReasonWords({ ...facts, detailWords: null }, await createTranslator('de'))).toBe('English');
  });

  it('says a proxy that refuses the connection in German and Dutch, the proxy named as it is and where to fix it', async () => {
    // A port nothing listens on any more: the proxy there refuses the connection.
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as { port: number }).port;
    await new Promise((done) => closed.close(done));
    // A service by name (an address on this computer is reached directly, never through a proxy).
    const profile = await openProfile({ serviceUrl: 'http://designs.example', proxy: `http://127.0.0.1:${port}` });
    try {
      await profile.engine.connection.checkConnectivity();
      const state = profile.engine.connection.connectivity.state;
      expect(state.online).toBe(false);
      const counts = { waiting: 0, running: 0, done: 0, failed: 0, attention: 0, cancelled: 0 };
      const facts = { reasonCode: 'service-unreachable' as const, counts, folder: null, serviceUrl: 'http://designs.example', until: null, detail: state.proxyProblem ?? null, detailWords: state.proxyProblemWords ?? null };
      expect(syncReasonWords(facts)).toContain(`The proxy 127.0.0.1:${port} refused the connection (nothing takes connections there); check the proxy in Settings → Proxy (or with --proxy), or ask whoever runs it whether it is running.`);
      expect(syncReasonWords(facts, await createTranslator('de'))).toContain(`Der Proxy 127.0.0.1:${port} hat die Verbindung abgelehnt (dort nimmt nichts Verbindungen an); prüfen Sie den Proxy unter Einstellungen → Proxy (oder mit --proxy), oder fragen Sie den Betreiber, ob er läuft.`);
      expect(syncReasonWords(facts, await createTranslator('nl'))).toContain(`De proxy 127.0.0.1:${port} weigerde de verbinding`);
    } finally {
      await profile.close();
    }
  });
});
