import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_NAMES, type Outcome, type RequestName, type RequestResult } from '../../shared';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { startWindowHost, type WindowHost } from '../../electron/window-host/window-host';
import { startTestService, type TestService } from '../../harness/local-service';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { connectContract, type TestContractClient } from './contract-client';

const FIXTURES = join(import.meta.dirname, '../fixtures');

let service: TestService;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let host: WindowHost;
let client: TestContractClient;
let profile: string;
let rootParent: string;
let makerToken: string;
const ids: Record<string, number> = {};

beforeAll(async () => {
  service = await startTestService();
  const alice = clientFor(service.url, service.addUser('alice').token);
  const gear = await alice.createDesign({ name: 'Gear', excerpt: 'A spur gear', license: 'ccby' });
  await alice.uploadImage(gear.id, { path: join(FIXTURES, 'images', 'jpg-sample.jpg') });
  await alice.uploadDocument(gear.id, { path: join(FIXTURES, 'models', 'cube.stl') });
  await alice.publishDesign(gear.id);
  const bolt = await alice.createDesign({ name: 'Bolt', excerpt: 'M3 bolt', license: 'cc0' });
  await alice.publishDesign(bolt.id);
  ids.gear = gear.id;

  makerToken = service.addUser('maker').token;
  const maker = clientFor(service.url, makerToken);
  ids.hinge = (await maker.createDesign({ name: 'Hinge', excerpt: 'A draft hinge', license: 'cc0' })).id;
  const clamp = await maker.createDesign({ name: 'Clamp', excerpt: 'A clamp', license: 'ccbysa' });
  await maker.uploadDocument(clamp.id, { path: join(FIXTURES, 'models', 'box.obj') });
  await maker.publishDesign(clamp.id);
  ids.clamp = clamp.id;

  profile = tempDir('contract-profile');
  rootParent = tempDir('contract-root');
  engine = await openEngine({
    profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test', settleMs: 100, trash: 'folder',
    tokenStore: () => new MemoryTokenStore(makerToken), settingsStore: () => memorySettingsStore(), signInTimeoutMs: 60_000,
  });
  endpoint = createContractEndpoint(engine);
  host = await startWindowHost({ endpoint, port: 0 });
  client = await connectContract(host.url);
});

afterAll(async () => {
  await client?.close();
  await host?.close();
  endpoint?.close();
  await engine?.close();
  await service?.stop();
  rmSync(profile, { recursive: true, force: true });
  rmSync(rootParent, { recursive: true, force: true });
});

/** What a refused request must leave as it was: settings, sign-in, the queue, the user's designs on the service. */
async function fingerprint(): Promise<string> {
  const own = await clientFor(service.url, makerToken).listUserDesigns('maker', { limit: 100 });
  return JSON.stringify({
    settings: engine.appSettings.store.read(),
    session: engine.account.session.state.status,
    queue: engine.queue.list().map((item) => [item.id, item.state, item.paused, item.attention, item.payload]),
    paused: engine.queue.status().queuePaused,
    folder: engine.queue.status().root,
    background: engine.backgroundRunning,
    own: own.items.map((design) => [design.id, design.name, design.state]).sort(),
  });
}

function ok<K extends RequestName>(outcome: Outcome<RequestResult<K>>): RequestResult<K> {
  if (!outcome.ok) throw new Error(`expected success, got ${JSON.stringify(outcome.problem)}`);
  return outcome.value;
}

interface Case<K extends RequestName> {
  valid: () => unknown;
  check: (result: RequestResult<K>) => void | Promise<void>;
  malformed: () => unknown;
  /** The field the validation problem must name. */
  field: string;
}

const waitUntil = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
const rootPath = () => join(rootParent, 'Designs');
const itemOf = (attention: string) => engine.queue.list({ states: ['attention'] }).find((item) => item.attention === attention)!;

/**
 * Every request of the contract, in an order that builds the state the next needs. The type makes the compiler
 * refuse a request without a case: a new request cannot land untested.
 */
const CASES: { [K in RequestName]: Case<K> } = {
  'account.get': { valid: () => ({}), check: (r) => expect(r).toMatchObject({ status: 'signed-in', serviceUrl: service.url, signingIn: false }), malformed: () => ({ who: 'me' }), field: 'who' },
  'settings.get': { valid: () => ({}), check: (r) => expect(r).toMatchObject({ serviceUrl: service.url, catalogueRefreshMinutes: 60 }), malformed: () => ({ verbose: true }), field: 'verbose' },
  'diagnostics.get': { valid: () => ({}), check: (r) => expect(r).toEqual({ logFile: join(engine.profile.root, 'logs', 'engine.log'), logProblem: null, notices: [] }), malformed: () => ({ verbose: true }), field: 'verbose' },
  // The browser window has no updates of its own (the desktop app's main process answers these before the engine).
  'updates.get': { valid: () => ({}), check: (r) => expect(r).toMatchObject({ state: 'unavailable', reason: expect.stringContaining('Updates come with the desktop app'), feed: null }), malformed: () => ({ verbose: true }), field: 'verbose' },
  'updates.check': { valid: () => ({}), check: (r) => expect(r).toMatchObject({ state: 'unavailable', lastCheckedAt: null }), malformed: () => ({ now: true }), field: 'now' },
  'updates.restart': { valid: () => ({}), check: (r) => expect(r).toMatchObject({ state: 'unavailable' }), malformed: () => ({ force: true }), field: 'force' },
  'settings.update': { valid: () => ({ catalogueRefreshMinutes: 30, cacheLimitMb: 200 }), check: (r) => expect(r).toMatchObject({ catalogueRefreshMinutes: 30, cacheLimitBytes: 200 * 1024 * 1024 }), malformed: () => ({ cacheLimitMb: 'big' }), field: 'cacheLimitMb' },
  'catalogue.pull': {
    valid: () => ({}),
    check: (r) => {
      expect(r.designs.inserted).toBe(3);
      expect(r.listingComplete).toBe(true);
    },
    malformed: () => ({ now: 'please' }), field: 'now',
  },
  'library.page': {
    valid: () => ({ sort: 'name', limit: 2 }),
    check: (r) => {
      expect(r.total).toBe(4);
      expect(r.items.map((item) => item.name)).toEqual(['Bolt', 'Clamp']);
      expect(r.catalogueCheckedAt).not.toBeNull();
    },
    malformed: () => ({ limit: 0 }), field: 'limit',
  },
  'library.count': { valid: () => ({}), check: (r) => expect(r).toEqual({ total: 4 }), malformed: () => ({ licenses: ['mine'] }), field: 'licenses.0' },
  'library.licenseCounts': { valid: () => ({}), check: (r) => expect(r.counts).toMatchObject({ ccby: 1, cc0: 2, ccbysa: 1, gplv3: 0 }), malformed: () => ({ query: 5 }), field: 'query' },
  'library.searchService': { valid: () => ({ query: 'Gear' }), check: (r) => expect(r.found).toBeGreaterThanOrEqual(1), malformed: () => ({ query: '   ' }), field: 'query' },
  'design.get': {
    valid: () => ({ id: ids.gear }),
    check: async (r) => {
      expect(r.card.attribution).toMatchObject({ required: true, unavailable: false });
      expect(r.card.attribution.text).toMatch(/Gear.*alice/);
      expect(r.images).toHaveLength(1);
      expect(r.documents.map((d) => [d.name, d.isModel, d.size])).toEqual([['cube.stl', true, statSync(join(FIXTURES, 'models', 'cube.stl')).size]]);
      expect(r.pageUrl).toMatch(/\/designs\//);
      // Bytes by address: the thumbnail is served by the host, not carried in the message.
      const served = await endpoint.file(r.images[0]!.largeUrl);
      expect(served?.size).toBeGreaterThan(100);
    },
    malformed: () => ({ id: -1 }), field: 'id',
  },
  // A browser page opens no app and learns no path: it downloads the file instead (test/contract/open-in-slicer.test.ts opens one).
  'design.openModelFile': {
    valid: () => ({ documentId: (engine.cache.reader.prepare('SELECT id FROM documents WHERE design_id = ?').get(ids.gear) as { id: number } | undefined)?.id ?? 999_999 }),
    check: (r) => expect(r).toMatchObject({ opened: false, path: null, slicer: { id: 'system' } }),
    malformed: () => ({ documentId: 'cube.stl' }), field: 'documentId',
  },
  'design.slicers': {
    valid: () => ({ documentId: (engine.cache.reader.prepare('SELECT id FROM documents WHERE design_id = ?').get(ids.gear) as { id: number } | undefined)?.id ?? 999_999 }),
    check: (r) => {
      expect(r.type).toBe('stl');
      expect(r.slicers.at(-1)).toMatchObject({ id: 'system', name: 'System default app' });
      expect(r.slicers.some((slicer) => slicer.id === r.chosen)).toBe(true);
    },
    malformed: () => ({ documentId: 0 }), field: 'documentId',
  },
  'offline.keep': {
    valid: () => ({ designs: [ids.gear] }),
    check: (r) => expect(r.designs.map((design) => design.designId)).toEqual([ids.gear]),
    malformed: () => ({ designs: [] }), field: 'designs',
  },
  'offline.list': { valid: () => ({}), check: (r) => expect(r.designs.map((design) => design.name)).toEqual(['Gear']), malformed: () => ({ all: true }), field: 'all' },
  'offline.release': {
    valid: () => ({ designs: [ids.gear] }),
    check: (r) => expect(r).toEqual({ designs: [], bytes: 0 }),
    malformed: () => ({ designs: ['gear'] }), field: 'designs.0',
  },
  'design.openPage': { valid: () => ({ id: ids.gear }), check: (r) => expect(r.url).toMatch(/\/designs\/gear|\/designs\/\d+/), malformed: () => ({ id: null }), field: 'id' },
  'author.get': {
    valid: () => ({ id: 'alice' }),
    check: (r) => {
      expect(r.author.screenName).toBe('alice');
      expect(r.designs.map((d) => d.name).sort()).toEqual(['Bolt', 'Gear']);
    },
    malformed: () => ({}), field: 'id',
  },
  'own.list': {
    valid: () => ({}),
    check: (r) => expect(r.map((d) => [d.card.name, d.published]).sort()).toEqual([['Clamp', true], ['Hinge', false]]),
    malformed: () => ({ all: true }), field: 'all',
  },
  'own.create': {
    valid: () => ({ name: 'Bracket', excerpt: 'Holds a shelf', license: 'cc0' }),
    check: (r) => {
      expect(r).toMatchObject({ published: false, card: { name: 'Bracket', own: true } });
      ids.bracket = r.card.id;
    },
    malformed: () => ({ name: 'x'.repeat(256), excerpt: 'Holds' }), field: 'name',
  },
  'own.update': { valid: () => ({ id: ids.bracket, name: 'Bracket 2' }), check: (r) => expect(r.card.name).toBe('Bracket 2'), malformed: () => ({ id: 'x', name: 'y' }), field: 'id' },
  'own.publish': { valid: () => ({ id: ids.bracket }), check: (r) => expect(r.published).toBe(true), malformed: () => ({ id: 0 }), field: 'id' },
  'own.delete': { valid: () => ({ id: ids.bracket, confirm: true }), check: (r) => expect(r).toEqual({ id: ids.bracket }), malformed: () => ({ id: ids.bracket, confirm: false }), field: 'confirm' },
  'sync.status': { valid: () => ({}), check: (r) => expect(r).toMatchObject({ state: 'not-set-up', folder: null }), malformed: () => ({ detail: 1 }), field: 'detail' },
  'sync.chooseFolder': { valid: () => ({ path: rootPath() }), check: (r) => expect(r.folder).toBe(rootPath()), malformed: () => ({ path: '' }), field: 'path' },
  'sync.acceptContentPolicy': { valid: () => ({ accept: true }), check: (r) => expect(r.contentPolicyAccepted).toBe(true), malformed: () => ({ accept: false }), field: 'accept' },
  'sync.saveIgnoreFile': {
    valid: () => ({ text: '# renders stay here\nrenders/\n' }),
    check: (r) => {
      expect(r.ignoreFile).toEqual({ path: join(rootPath(), '.designsyncignore'), text: '# renders stay here\nrenders/\n', problem: null, problemWords: null });
      expect(readFileSync(join(rootPath(), '.designsyncignore'), 'utf8')).toBe('# renders stay here\nrenders/\n');
    },
    malformed: () => ({ text: 42 }), field: 'text',
  },
  'sync.neverSent': {
    valid: () => ({}),
    check: (r) => {
      expect(r.ignoreFile.text).toBe('# renders stay here\nrenders/\n');
      expect(r.builtIn.map((rule) => rule.id)).toContain('blender-backup');
    },
    malformed: () => ({ all: true }), field: 'all',
  },
  'sync.start': {
    valid: () => ({}),
    check: async (r) => {
      expect(r.running).toBe(true);
      await waitUntil('the first pass to make the folders', () => existsSync(join(rootPath(), 'clamp', 'box.obj')) && existsSync(join(rootPath(), 'hinge')));
    },
    malformed: () => ({ folder: '/tmp' }), field: 'folder',
  },
  'sync.now': {
    valid: () => ({}),
    // A full pass, answered once it is done: the folder holds what the service holds.
    check: (r) => {
      expect(r).toMatchObject({ folder: rootPath(), running: true });
      expect(existsSync(join(rootPath(), 'clamp', 'box.obj'))).toBe(true);
    },
    malformed: () => ({ full: true }), field: 'full',
  },
  'sync.stop': {
    valid: () => ({}),
    check: async (r) => {
      expect(r.running).toBe(false);
      // What the queue tests act on: a file deleted from a design folder and a new folder, found by a scan.
      rmSync(join(rootPath(), 'clamp', 'box.obj'));
      const partFolder = join(rootPath(), 'new-part');
      mkdirSync(partFolder);
      writeFileSync(join(partFolder, 'part.stl'), 'solid part');
      await engine.sync.syncParts().sync.scan({ settle: 'wait' });
      expect(itemOf('confirm-delete')).toBeTruthy();
      expect(itemOf('confirm-design')).toBeTruthy();
    },
    malformed: () => ({ force: true }), field: 'force',
  },
  'queue.list': {
    valid: () => ({}),
    check: (r) => {
      expect(r.items.map((item) => item.attention).sort()).toEqual(['confirm-delete', 'confirm-design']);
      expect(r.activity.length).toBeGreaterThan(0);
    },
    malformed: () => ({ limit: 0 }), field: 'limit',
  },
  'queue.pause': { valid: () => ({ target: 'all' }), check: () => expect(engine.queue.status().queuePaused).toBe(true), malformed: () => ({ target: 'some' }), field: 'target' },
  'queue.resume': { valid: () => ({ target: 'all' }), check: () => expect(engine.queue.status().queuePaused).toBe(false), malformed: () => ({ target: -2 }), field: 'target' },
  'queue.sendReady': { valid: () => ({ target: 'all' }), check: (r) => expect(r.changed).toBe(0), malformed: () => ({ target: 'every' }), field: 'target' },
  'queue.confirmDelete': { valid: () => ({ id: itemOf('confirm-delete').id }), check: (r) => expect(r).toMatchObject({ state: 'waiting', kind: 'delete-remote' }), malformed: () => ({ id: 'x' }), field: 'id' },
  'queue.proposalModel': {
    valid: () => ({ id: itemOf('confirm-design').id }),
    check: async (r) => {
      const id = itemOf('confirm-design').id;
      expect(r).toEqual({ fileName: 'part.stl', type: 'stl', modelUrl: `/files/proposals/${id}/part.stl` });
      expect((await endpoint.file(r!.modelUrl))?.size).toBe('solid part'.length);
      // Only a model file directly in that proposal's folder.
      for (const name of ['..%2Fclamp%2Fbox.obj', '..%2F.design-sync.json', 'missing.stl']) expect(await endpoint.file(`/files/proposals/${id}/${name}`), name).toBeNull();
      const other = engine.queue.list().find((item) => item.attention !== 'confirm-design')!;
      expect(await endpoint.file(`/files/proposals/${other.id}/part.stl`)).toBeNull();
    },
    malformed: () => ({ id: 'new-part' }), field: 'id',
  },
  'queue.confirmDesign': {
    valid: () => ({ id: itemOf('confirm-design').id, name: 'New part', excerpt: 'A part', license: 'cc0' }),
    check: (r) => expect(r).toMatchObject({ state: 'waiting', kind: 'create-design' }),
    malformed: () => ({ id: itemOf('confirm-design').id, name: 'New part', excerpt: 'A part', license: 'mine' }), field: 'license',
  },
  'queue.retry': { valid: () => ({ target: 'all' }), check: (r) => expect(r.changed).toBe(2), malformed: () => ({ target: 1.5 }), field: 'target' },
  'queue.cancel': { valid: () => ({ target: 'all' }), check: (r) => expect(r.changed).toBe(2), malformed: () => ({}), field: 'target' },
  'queue.resolveConflict': {
    valid: () => {
      // Two files changed both here and on the service, as the remote pass leaves them: the service's version under the
      // name, the person's kept as a conflicted copy.
      for (const copy of ['box (conflicted copy 2026-01-02 0930).obj', 'box (conflicted copy 2026-01-02 0931).obj']) {
        writeFileSync(join(rootPath(), 'clamp', copy), 'o mine');
        engine.queue.enqueue({
          kind: 'upload', path: `clamp/${copy}`, folder: 'clamp', designId: ids.clamp!, fileKind: 'document',
          payload: { name: copy, conflictOf: 'clamp/box.obj', localChangedAt: Date.parse('2026-01-02T09:30:00Z'), remoteChangedAt: '2026-01-02T09:45:00Z' },
          file: null, attention: { kind: 'conflict', reason: 'clamp/box.obj was changed both here and on the service.' },
        });
      }
      return { id: itemOf('conflict').id, keep: 'service' };
    },
    check: async (r) => {
      expect(r.state).toBe('cancelled');
      expect(existsSync(join(rootPath(), 'clamp', 'box (conflicted copy 2026-01-02 0930).obj'))).toBe(false);
      const listed = ok<'queue.list'>(await client.request('queue.list', { states: ['attention'] }));
      const other = listed.items.find((item) => item.attention === 'conflict')!;
      expect(other.conflict).toEqual({
        servicePath: 'clamp/box.obj', copyPath: 'clamp/box (conflicted copy 2026-01-02 0931).obj',
        serviceChangedAt: '2026-01-02T09:45:00.000Z', copyChangedAt: '2026-01-02T09:30:00.000Z',
      });
      const both = ok<'queue.resolveConflict'>(await client.request('queue.resolveConflict', { id: other.id, keep: 'both' }));
      expect(both.state).toBe('waiting');
      expect(existsSync(join(rootPath(), 'clamp', 'box (conflicted copy 2026-01-02 0931).obj'))).toBe(true);
      ok(await client.request('queue.cancel', { target: other.id }));
    },
    malformed: () => ({ id: 1, keep: 'mine' }), field: 'keep',
  },
  'design.thumbnailFailed': {
    valid: () => ({ designId: ids.gear, documentId: 1, reason: 'It holds no geometry to show.' }),
    check: async (r) => {
      // A late word about a design that has an image is not remembered.
      expect(r).toEqual({ remembered: false });
      // What the next case acts on: a picture of the Clamp (no image, a model), as the window's host hands one in.
      const model = ok<'design.get'>(await client.request('design.get', { id: ids.clamp })).card.thumbnailModel!;
      const staged = join(await endpoint.incomingDir(), 'clamp-picture');
      copyFileSync(join(FIXTURES, 'images', 'png-sample.png'), staged);
      expect(await endpoint.adoptGeneratedThumbnail({ designId: ids.clamp!, documentId: model.documentId, stagedPath: staged })).toMatchObject({ ok: true });
    },
    malformed: () => ({ designId: ids.gear, documentId: 1, reason: ' ' }), field: 'reason',
  },
  'design.useGeneratedCover': {
    valid: () => ({ id: ids.clamp }),
    check: (r) => {
      expect(r).toMatchObject({ designId: ids.clamp, fileName: 'box cover.png', folder: 'clamp' });
      expect(readFileSync(join(rootPath(), r.path))).toEqual(readFileSync(join(FIXTURES, 'images', 'png-sample.png')));
    },
    malformed: () => ({ id: 'clamp' }), field: 'id',
  },
  'account.signIn': {
    valid: () => ({}),
    check: async (r) => {
      expect(r.authorizationUrl).toMatch(/\/integrations\/design-sync\/authorized_integrations\/new\?redirect_url=http%3A%2F%2F127\.0\.0\.1/);
      expect(engine.account.signIn.inProgress).toBe(true);
    },
    malformed: () => ({ redirect: 'http://evil.example' }), field: 'redirect',
  },
  'account.cancelSignIn': {
    valid: () => ({}),
    check: async () => {
      const ended = () => client.events.some((event) => event.name === 'account.signInEnded' && (event.payload as { outcome: string }).outcome === 'cancelled');
      if (!ended()) await client.nextEvent('account.signInEnded', (payload) => payload.outcome === 'cancelled');
      expect(ended()).toBe(true);
      expect(engine.account.signIn.inProgress).toBe(false);
    },
    malformed: () => ({ reason: 'bored' }), field: 'reason',
  },
  'account.signOut': { valid: () => ({}), check: (r) => expect(r.status).toBe('signed-out'), malformed: () => ({ everywhere: true }), field: 'everywhere' },
  'service.sample': {
    valid: () => ({}),
    check: (r) => expect(r).toEqual({ inUse: false, serviceUrl: null, starting: false, problem: null, problemWords: null, signIn: { screenName: 'demo', password: 'demo' } }),
    malformed: () => ({ start: true }), field: 'start',
  },
  // Signed out by now: the profile may take the sample service as its service (it is stopped when the engine closes).
  'service.trySample': {
    valid: () => ({}),
    check: (r) => {
      expect(r).toMatchObject({ inUse: true, serviceUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), problem: null });
      expect(engine.connection.serviceUrl()).toBe(r.serviceUrl);
    },
    malformed: () => ({ port: 4010 }), field: 'port',
  },
};

describe('the contract over the window host\'s WebSocket, against the real engine and the local service', () => {
  it('has a case for every request', () => {
    expect(Object.keys(CASES).sort()).toEqual([...REQUEST_NAMES].sort());
  });

  for (const name of Object.keys(CASES) as RequestName[]) {
    it(`${name}: a malformed input is refused naming the field and changes nothing; a valid one is answered`, async () => {
      const spec = CASES[name] as Case<RequestName>;
      const before = await fingerprint();
      const refused = await client.request(name, spec.malformed());
      expect(refused.ok).toBe(false);
      if (refused.ok) return;
      expect(refused.problem.kind).toBe('validation');
      expect(refused.problem.kind === 'validation' && Object.keys(refused.problem.fieldErrors)).toContain(spec.field);
      expect(await fingerprint()).toBe(before);

      await spec.check(ok(await client.request(name, spec.valid())));
    }, name === 'service.trySample' ? 180_000 : undefined);
  }

  it('answers an unknown request with a typed problem, not an exception', async () => {
    const outcome = await client.request('files.readAll' as RequestName, {});
    expect(outcome).toEqual({ ok: false, problem: { kind: 'unknown-request', message: expect.stringMatching(/files\.readAll/) } });
  });

  it('tells events: the account change of the sign-out reached the window', () => {
    expect(client.events.some((event) => event.name === 'account.changed' && (event.payload as { status: string }).status === 'signed-out')).toBe(true);
    expect(client.events.some((event) => event.name === 'sync.changed')).toBe(true);
    expect(client.events.some((event) => event.name === 'queue.item')).toBe(true);
  });
});
