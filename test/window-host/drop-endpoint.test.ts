import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { startWindowHost, type WindowHost } from '../../electron/window-host/window-host';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { startTestService, type TestService } from '../../harness/local-service';
import { cookieOf, type Answer } from './host-fixtures';
import { createTranslator } from '../../shared/i18n/create-intl';
import { engineWordsText, readEngineWords } from '../../shared/i18n/engine-words';
import type { Locale } from '../../shared/i18n/locales';
import { expectNoneOf } from '../support/language';

const CUBE = join(import.meta.dirname, '../fixtures/models/cube.stl');
const MAX = 64 * 1024;

let service: TestService;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let host: WindowHost;
let cookie: string;
let profile: string;
let syncRoot: string;
let makerToken: string;
const ids: Record<string, number> = {};

/** A PUT as the window sends it, with any header changed; `chunked` sends the body without a length. */
function put(path: string, body: Buffer, headers: Record<string, string | undefined> = {}, options: { chunked?: boolean } = {}): Promise<Answer> {
  const all: Record<string, string> = {
    host: `127.0.0.1:${host.port}`, cookie, origin: host.origin, 'x-design-sync-drop': '1',
    ...(options.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(body.length) }),
  };
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) delete all[name];
    else all[name] = value;
  }
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, path, method: 'PUT', headers: all }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    // A refusal may close the connection before the whole body is written: the answer still comes.
    req.on('error', (error) => (error as NodeJS.ErrnoException).code === 'EPIPE' || (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error));
    req.end(body);
  });
}

const staged = () => (existsSync(join(profile, 'incoming')) ? readdirSync(join(profile, 'incoming')) : []);
const problemOf = (answer: Answer) => (JSON.parse(answer.body) as { problem: { kind: string; message: string; words?: unknown } }).problem;

/** A problem's facts said in `locale`; fails when it carries none (the window would show its English). */
async function saidIn(locale: Locale, problem: { words?: unknown }): Promise<string> {
  const words = readEngineWords(problem.words);
  if (!words) throw new Error(`no words in ${JSON.stringify(problem)}`);
  return engineWordsText(await createTranslator(locale), words);
}

const cube = () => readFileSync(CUBE);

beforeAll(async () => {
  service = await startTestService();
  const maker = service.addUser('maker');
  makerToken = maker.token;
  const alice = service.addUser('alice');
  ids.hinge = (await clientFor(service.url, maker.token).createDesign({ name: 'Hinge', excerpt: 'A draft hinge', license: 'cc0' })).id;
  ids.gear = (await clientFor(service.url, alice.token).createDesign({ name: 'Gear', excerpt: 'Not the maker\'s', license: 'cc0' })).id;
  await clientFor(service.url, alice.token).publishDesign(ids.gear);
  profile = tempDir('drop-profile');
  syncRoot = join(tempDir('drop-sync'), 'Designs');
  engine = await openEngine({
    profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test', settleMs: 200, trash: 'folder',
    tokenStore: () => new MemoryTokenStore(maker.token), settingsStore: () => memorySettingsStore(),
  });
  endpoint = createContractEndpoint(engine);
  host = await startWindowHost({ endpoint, maxDropBytes: MAX });
  cookie = await cookieOf(host.port, host.url);
});

afterAll(async () => {
  await host?.close();
  endpoint?.close();
  await engine?.close();
  await service?.stop().catch(() => {});
  rmSync(profile, { recursive: true, force: true });
  rmSync(join(syncRoot, '..'), { recursive: true, force: true });
});

describe('PUT /drops/designs/<id>/<name>: the window host\'s defences', () => {
  it('refuses a drop without the session cookie (403), keeping nothing', async () => {
    const answer = await put(`/drops/designs/${ids.hinge}/cube.stl`, cube(), { cookie: undefined });
    expect(answer.status).toBe(403);
    expect(staged()).toEqual([]);
  });

  it('refuses a drop from another origin (403), or without an Origin', async () => {
    for (const origin of ['http://evil.example', `http://localhost:${host.port}`, 'null', undefined]) {
      const answer = await put(`/drops/designs/${ids.hinge}/cube.stl`, cube(), { origin });
      expect(answer.status, String(origin)).toBe(403);
      expect(problemOf(answer).message).toMatch(/does not come from this window/);
    }
    expect(staged()).toEqual([]);
  });

  it('refuses a drop without its custom header (403): a cross-site form cannot send one', async () => {
    const answer = await put(`/drops/designs/${ids.hinge}/cube.stl`, cube(), { 'x-design-sync-drop': undefined });
    expect(answer.status).toBe(403);
    expect(problemOf(answer).message).toMatch(/x-design-sync-drop/);
    expect(staged()).toEqual([]);
  });

  it('refuses a file over the size limit (413) whether it says its length or not, and removes what was staged', async () => {
    const big = Buffer.alloc(MAX + 1, 7);
    const declared = await put(`/drops/designs/${ids.hinge}/big.stl`, big);
    expect(declared.status).toBe(413);
    expect(problemOf(declared).message).toMatch(/larger than 64 KB, the most one drop takes/);
    const streamed = await put(`/drops/designs/${ids.hinge}/big.stl`, big, {}, { chunked: true });
    expect(streamed.status).toBe(413);
    expect(problemOf(streamed).message).toMatch(/the most one drop takes/);
    // Said in the person's language: the limit's number and unit too.
    for (const answer of [declared, streamed]) {
      const dutch = await saidIn('nl', problemOf(answer));
      expect(dutch).toBe('Het bestand is groter dan 64 KB, het meeste dat je in één keer hierheen kunt slepen: zet het in plaats daarvan in de map van het ontwerp in de synchronisatiemap.');
      expectNoneOf(dutch, ['larger than', 'one drop takes', 'sync folder']);
    }
    expect(staged()).toEqual([]);
  });

  it('refuses a bad name (400) saying why: a path, "..", empty, too long, an executable', async () => {
    const cases: [string, RegExp][] = [
      [encodeURIComponent('models/cube.stl'), /cannot contain \/ or \\/],
      [encodeURIComponent('..\\cube.stl'), /cannot contain \/ or \\/],
      ['..', /drop address/],
      [encodeURIComponent('notes..stl'), /cannot contain "\.\."/],
      ['', /has no name|drop address/],
      [encodeURIComponent(`${'é'.repeat(130)}.stl`), /longer than 255 bytes/],
      ['setup.exe', /executable files \(\.exe\) cannot be uploaded/],
      ['%E0%A4%A', /not properly encoded/],
    ];
    for (const [name, reason] of cases) {
      const answer = await put(`/drops/designs/${ids.hinge}/${name}`, cube());
      expect(answer.status, name).toBe(400);
      expect(problemOf(answer).message, name).toMatch(reason);
    }
    expect(staged()).toEqual([]);
  });

  it('gives a refused name\'s reason as facts, said in Dutch and German with none of its English left', async () => {
    const cases: [string, string, string, readonly string[]][] = [
      [encodeURIComponent('models/cube.stl'), 'models/cube.stl: een bestandsnaam kan geen / of \\ bevatten (sleep de bestanden zelf, niet een pad).',
        'models/cube.stl: Ein Dateiname darf kein / und kein \\ enthalten (legen Sie die Dateien selbst ab, nicht einen Pfad).', ['file name', 'cannot contain', 'drop the files']],
      [encodeURIComponent('notes..stl'), 'notes..stl: een bestandsnaam kan geen ".." bevatten.', 'notes..stl: Ein Dateiname darf kein „..“ enthalten.', ['file name', 'cannot contain']],
      [encodeURIComponent('.hidden.stl'), '.hidden.stl: verborgen bestanden (namen die met een punt beginnen) worden niet gesynchroniseerd.',
        '.hidden.stl: Versteckte Dateien (Namen, die mit einem Punkt beginnen) werden nicht synchronisiert.', ['hidden files', 'are not synced']],
      [encodeURIComponent(`${'é'.repeat(130)}.stl`), `${'é'.repeat(40)}…: de naam is langer dan 255 bytes.`, `${'é'.repeat(40)}…: Der Name ist länger als 255 Byte.`, ['the name is longer']],
      ['setup.exe', 'setup.exe: uitvoerbare bestanden (.exe) kunnen niet als document worden geüpload',
        'setup.exe: Ausführbare Dateien (.exe) können nicht als Dokumente hochgeladen werden', ['executable files', 'cannot be uploaded']],
    ];
    for (const [name, dutch, german, english] of cases) {
      const problem = problemOf(await put(`/drops/designs/${ids.hinge}/${name}`, cube()));
      expect(problem.kind, name).toBe('validation');
      const inDutch = await saidIn('nl', problem);
      const inGerman = await saidIn('de', problem);
      expect(inDutch, name).toBe(dutch);
      expect(inGerman, name).toBe(german);
      expectNoneOf(inDutch, english);
      expectNoneOf(inGerman, english);
    }
    expect(staged()).toEqual([]);
  });

  it('answers a sync-folder problem when no sync folder is chosen, telling to choose one in Sync, and removes the staged file', async () => {
    const answer = await put(`/drops/designs/${ids.hinge}/cube.stl`, cube());
    expect(answer.status).toBe(409);
    // With its facts, for the window to say it in the person's language.
    expect(problemOf(answer)).toMatchObject({ kind: 'sync-folder', message: expect.stringMatching(/choose one in Sync/), words: { id: 'engine.refusal.drop.noSyncFolder' } });
    expect(staged()).toEqual([]);
  });
});

describe('a drop that is accepted', () => {
  it('lands in the design\'s folder (made for it) under its name, and a second of the same name becomes "name (2).ext"', async () => {
    const chosen = await endpoint.handle('sync.chooseFolder', { path: syncRoot });
    expect(chosen.ok).toBe(true);

    const first = await put(`/drops/designs/${ids.hinge}/cube.stl`, cube());
    expect(first.status, first.body).toBe(201);
    const file = (JSON.parse(first.body) as { file: { fileName: string; folder: string; path: string; size: number; contentPolicyAccepted: boolean } }).file;
    expect(file).toMatchObject({ fileName: 'cube.stl', size: cube().length, contentPolicyAccepted: false });
    expect(readFileSync(join(syncRoot, file.folder, 'cube.stl'))).toEqual(cube());

    const second = await put(`/drops/designs/${ids.hinge}/${encodeURIComponent('cube.stl')}`, cube(), {}, { chunked: true });
    expect(second.status, second.body).toBe(201);
    expect(JSON.parse(second.body)).toMatchObject({ file: { fileName: 'cube (2).stl', folder: file.folder } });
    expect(readdirSync(join(syncRoot, file.folder)).filter((name) => !name.startsWith('.')).sort()).toEqual(['cube (2).stl', 'cube.stl']);
    expect(staged()).toEqual([]);
  });

  it('refuses a design that is not the signed-in person\'s, removing the staged file', async () => {
    const answer = await put(`/drops/designs/${ids.gear}/cube.stl`, cube());
    expect(answer.status).toBe(409);
    expect(problemOf(answer).message).toMatch(/is not yours/);
    expect(staged()).toEqual([]);
  });

  it('refuses, through the endpoint itself, a staged path outside the incoming folder and leaves that file alone', async () => {
    const outside = join(syncRoot, '..', 'elsewhere.stl');
    writeFileSync(outside, 'x');
    const outcome = await endpoint.adoptDroppedFile({ designId: ids.hinge!, fileName: 'elsewhere.stl', stagedPath: outside });
    expect(outcome.ok).toBe(false);
    expect(existsSync(outside)).toBe(true);
  });
});

describe('a drop while the sync folder is not as it was', () => {
  it('is refused with the folder\'s check as facts, said in German with none of its English, nothing placed', async () => {
    const otherRoot = join(tempDir('drop-sync-moved'), 'Designs');
    const otherProfile = tempDir('drop-profile-moved');
    const other = await openEngine({
      profileDir: otherProfile, serviceUrl: service.url, userAgent: 'design-sync-test', settleMs: 200, trash: 'folder',
      tokenStore: () => new MemoryTokenStore(makerToken), settingsStore: () => memorySettingsStore(),
    });
    const otherEndpoint = createContractEndpoint(other);
    try {
      expect((await otherEndpoint.handle('sync.chooseFolder', { path: otherRoot })).ok).toBe(true);
      // The folder moved away (a disk unmounted): the drop must not make a new one in its place.
      rmSync(otherRoot, { recursive: true, force: true });
      const stagedPath = join(await otherEndpoint.incomingDir(), 'drop-moved');
      writeFileSync(stagedPath, cube());
      const outcome = await otherEndpoint.adoptDroppedFile({ designId: ids.hinge!, fileName: 'cube.stl', stagedPath });
      if (outcome.ok) throw new Error(`placed: ${JSON.stringify(outcome.value)}`);
      expect(outcome.problem).toMatchObject({ kind: 'sync-folder', message: expect.stringContaining(`The sync folder ${otherRoot} is missing`), words: { id: 'sync.detail.folderMissing' } });
      const german = await saidIn('de', outcome.problem);
      expect(german).toContain(`Der Synchronisierungsordner ${otherRoot} fehlt`);
      expectNoneOf(german, ['sync folder', 'is missing', 'Sync is stopped', 'nothing was changed']);
      expect(existsSync(otherRoot)).toBe(false);
    } finally {
      otherEndpoint.close();
      await other.close();
      rmSync(join(otherRoot, '..'), { recursive: true, force: true });
      rmSync(otherProfile, { recursive: true, force: true });
    }
  });
});

const shmUsable = (() => {
  try {
    rmSync(mkdtempSync('/dev/shm/design-sync-probe-'), { recursive: true });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!shmUsable)('a drop into a sync folder on another file system', () => {
  it('is copied under a hidden name, then put in place: whole, under its name, the staged file gone', async () => {
    const otherRoot = join(mkdtempSync('/dev/shm/design-sync-drop-'), 'Designs');
    const otherProfile = tempDir('drop-profile-exdev');
    const other = await openEngine({
      profileDir: otherProfile, serviceUrl: service.url, userAgent: 'design-sync-test', settleMs: 200, trash: 'folder',
      tokenStore: () => new MemoryTokenStore(makerToken), settingsStore: () => memorySettingsStore(),
    });
    const otherEndpoint = createContractEndpoint(other);
    try {
      expect((await otherEndpoint.handle('sync.chooseFolder', { path: otherRoot })).ok).toBe(true);
      const stagedPath = join(await otherEndpoint.incomingDir(), 'drop-exdev');
      writeFileSync(stagedPath, cube());
      const outcome = await otherEndpoint.adoptDroppedFile({ designId: ids.hinge!, fileName: 'cube.stl', stagedPath });
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.problem));
      expect(readFileSync(join(otherRoot, outcome.value.folder, 'cube.stl'))).toEqual(cube());
      expect(readdirSync(join(otherRoot, outcome.value.folder))).toEqual(['cube.stl']);
      expect(existsSync(stagedPath)).toBe(false);
    } finally {
      otherEndpoint.close();
      await other.close();
      rmSync(join(otherRoot, '..'), { recursive: true, force: true });
      rmSync(otherProfile, { recursive: true, force: true });
    }
  });
});
