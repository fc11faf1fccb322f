import { keptOfflineWords } from '../../shared/files/kept-offline-words';
import { createTranslator } from '../../shared/i18n/create-intl';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractEvents, DesignDetail, KeptDesignView, RequestName, RequestResult } from '../../shared';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { EventMessage } from '../../electron/engine/contract/contract-endpoint';
import { serveFileAddress } from '../../electron/engine/contract/file-addresses';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import type { ServiceClient } from '../../electron/engine/api/service-client';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { startTestService, type TestService } from '../../harness/local-service';
import { until } from '../../harness/until';

/**
 * Keeping designs offline, through the contract against the real local service: every image (the renditions the
 * window shows) and document downloaded, never evicted, brought again when the service changes them, and released.
 */
const FIXTURES = join(import.meta.dirname, '../fixtures');
const CUBE = join(FIXTURES, 'models/cube20.stl');
const THREE_MF = join(FIXTURES, 'models/cube20.3mf');
const PNG = join(FIXTURES, 'images/png-sample.png');
const JPG = join(FIXTURES, 'images/jpg-sample.jpg');

let service: TestService;
let client: ServiceClient;
/** Another maker, whose design the person keeps. */
let author: ServiceClient;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let profile: string;
let scratch: string;
const events: EventMessage[] = [];
const ids = {} as Record<'bracket' | 'cube' | 'notes' | 'other' | 'otherDocument' | 'unlisted' | 'added', number>;

async function ok<K extends RequestName>(name: K, input: unknown): Promise<RequestResult<K>> {
  const outcome = await endpoint.handle(name, input);
  if (!outcome.ok) throw new Error(`${name}: expected success, got ${JSON.stringify(outcome.problem)}`);
  return outcome.value as RequestResult<K>;
}

async function problem(name: RequestName, input: unknown) {
  const outcome = await endpoint.handle(name, input);
  if (outcome.ok) throw new Error(`${name}: expected a problem`);
  return outcome.problem;
}

const progress = () => events.filter((event) => event.name === 'offline.progress').map((event) => event.payload as ContractEvents['offline.progress']);

/** The kept design, once `matches` holds of what `offline.list` says of it. */
const keptOnce = (designId: number, matches: (view: KeptDesignView) => boolean, what: string) =>
  until(what, async () => {
    const view = (await ok('offline.list', {})).designs.find((design) => design.designId === designId);
    return view && matches(view) ? view : null;
  }, 20_000);

const everyFileHere = (detail: DesignDetail) => detail.documents.every((document) => document.cached) && detail.images.every((image) => image.cached);

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  const { token } = service.addUser('keeper');
  client = clientFor(service.url, token);
  scratch = tempDir('keep-offline-files');
  writeFileSync(join(scratch, 'notes.txt'), 'Print at 0.2 mm with 15 % infill.\n');

  const bracket = await client.createDesign({ name: 'Workshop Bracket', excerpt: 'For the workshop', license: 'ccby' });
  await client.uploadImage(bracket.id, { path: PNG }, { name: 'Front' });
  await client.uploadImage(bracket.id, { path: JPG }, { name: 'Side' });
  ids.cube = (await client.uploadDocument(bracket.id, { path: CUBE }, { name: 'Bracket (STL)' })).id;
  ids.notes = (await client.uploadDocument(bracket.id, { path: join(scratch, 'notes.txt') }, { name: 'Print notes' })).id;
  await client.publishDesign(bracket.id);
  ids.bracket = bracket.id;

  const other = await client.createDesign({ name: 'Other Part', excerpt: 'Not kept', license: 'cc0' });
  await client.uploadImage(other.id, { path: PNG }, { name: 'Other' });
  ids.otherDocument = (await client.uploadDocument(other.id, { path: THREE_MF }, { name: 'Other (3MF)' })).id;
  await client.publishDesign(other.id);
  ids.other = other.id;

  profile = tempDir('keep-offline');
  engine = await openEngine({
    profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test',
    tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore(),
  });
  endpoint = createContractEndpoint(engine);
  endpoint.subscribe((event) => events.push(event));
  await ok('catalogue.pull', {});
  // Another maker's, published after the pull: read from the service when kept.
  author = clientFor(service.url, service.addUser('maker').token);
  const unlisted = await author.createDesign({ name: 'Read On Demand', excerpt: 'Not pulled yet', license: 'cc0' });
  await author.uploadDocument(unlisted.id, { path: CUBE }, { name: 'Demand (STL)' });
  await author.publishDesign(unlisted.id);
  ids.unlisted = unlisted.id;
}, 60_000);

afterAll(async () => {
  await endpoint?.close();
  await engine?.close();
  await service?.stop();
  rmSync(profile, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe('keeping designs offline', () => {
  it('downloads every image and document of a kept design, telling its progress, and says ready with the space it takes', async () => {
    const answer = await ok('offline.keep', { designs: [ids.bracket] });
    expect(answer.designs.map((design) => design.name)).toEqual(['Workshop Bracket']);
    const ready = await keptOnce(ids.bracket, (view) => view.state === 'ready', 'the bracket ready');
    // Two images (grid and large renditions each) and two documents.
    expect(ready).toMatchObject({ filesTotal: 6, filesHere: 6, problem: null, current: null });
    const stl = readFileSync(CUBE).length;
    expect(ready.bytesHere).toBeGreaterThan(stl);
    expect((await ok('offline.list', {})).bytes).toBe(engine.cache.files.keptBytes());
    expect(progress().some((view) => view.designId === ids.bracket && view.state === 'downloading')).toBe(true);

    const detail = await ok('design.get', { id: ids.bracket });
    expect(everyFileHere(detail)).toBe(true);
    expect(detail.card.keptOffline).toBe(true);
    expect(detail.kept).toMatchObject({ state: 'ready', filesHere: 6 });
    const page = await ok('library.page', { keptOnly: true });
    expect(page.items.map((card) => card.name)).toEqual(['Workshop Bracket']);
    expect(page.total).toBe(1);
    const all = await ok('library.page', { sort: 'name' });
    expect(all.items.find((card) => card.id === ids.other)?.keptOffline).toBe(false);
  });

  it('never evicts a kept design\'s files when the cache limit is passed, while other files go', async () => {
    // Another design's model, viewed (so cached) but not kept.
    expect(await serveFileAddress(engine, `/files/documents/${ids.otherDocument}/other.3mf`)).not.toBeNull();
    const before = (await ok('offline.list', {})).bytes;
    engine.cache.files.setLimit(0);
    const other = await ok('design.get', { id: ids.other });
    expect(other.documents[0]!.cached).toBe(false);
    const kept = await ok('design.get', { id: ids.bracket });
    expect(everyFileHere(kept)).toBe(true);
    expect((await ok('offline.list', {})).bytes).toBe(before);
    expect(engine.cache.files.evictableBytes()).toBe(0);
  });

  it('serves a kept design\'s documents with the service stopped answering, one the window does not show as an attachment only', async () => {
    const stopped = await service.request('POST', '/__admin/faults', { json: { kind: 'drop' } });
    expect(stopped.ok).toBe(true);
    try {
      const served = await serveFileAddress(engine, `/files/documents/${ids.notes}/notes.txt`);
      expect(served).not.toBeNull();
      expect(readFileSync(served!.path, 'utf8')).toContain('15 % infill');
      // A type the window does not show: only ever an attachment, under its own name.
      expect(served).toMatchObject({ contentType: 'application/octet-stream', downloadName: 'notes.txt' });
    } finally {
      await service.request('DELETE', '/__admin/faults');
    }
  });

  it('brings a file added on the service to a kept design once a pull sees the design changed', async () => {
    ids.added = (await client.uploadDocument(ids.bracket, { path: THREE_MF }, { name: 'Bracket (3MF)' })).id;
    await ok('catalogue.pull', {});
    const ready = await keptOnce(ids.bracket, (view) => view.state === 'ready' && view.filesTotal === 7, 'the added 3MF brought');
    expect(ready.filesHere).toBe(7);
    const served = await serveFileAddress(engine, `/files/documents/${ids.added}/cube20.3mf`);
    expect(readFileSync(served!.path).equals(readFileSync(THREE_MF))).toBe(true);
  });

  it('reads a design the cache lacks from the service (by id) before keeping it', async () => {
    await ok('offline.keep', { designs: [ids.unlisted] });
    const ready = await keptOnce(ids.unlisted, (view) => view.state === 'ready', 'the design read on demand ready');
    expect(ready).toMatchObject({ name: 'Read On Demand', filesTotal: 1, filesHere: 1 });
  });

  it('refuses a design neither cached nor on the service, naming it, and keeps nothing of the request', async () => {
    const before = (await ok('offline.list', {})).designs.length;
    const refused = await problem('offline.keep', { designs: ['no-such-design-anywhere'] });
    expect(refused.kind).toBe('not-found');
    expect(refused.message).toContain('no-such-design-anywhere');
    expect(refused.words).toEqual({ id: 'engine.refusal.library.noSuchDesign', values: { design: '"no-such-design-anywhere"' } });
    expect((await ok('offline.list', {})).designs).toHaveLength(before);
  });

  it('keeps a kept design that left the service, with its files and words that say so', async () => {
    await author.deleteDesign(ids.unlisted);
    await ok('catalogue.pull', {});
    const gone = await keptOnce(ids.unlisted, (view) => view.problem !== null, 'the design gone from the service said');
    expect(gone.problem).toMatch(/no longer on the service/);
    // Its facts, said in the person's language where it is shown.
    expect(gone.problemWords).toEqual({ id: 'engine.refusal.kept.gone' });
    const german = keptOfflineWords(gone, await createTranslator('de'));
    expect(german).toContain('Es ist nicht mehr auf dem Dienst: Die hier gespeicherten Dateien bleiben.');
    expect(german).not.toContain('no longer');
    expect(gone.filesHere).toBe(1);
    expect((await ok('design.get', { id: ids.unlisted })).card.name).toBe('Read On Demand');
  });

  it('releases a design: no longer kept, its files evictable again', async () => {
    const released = await ok('offline.release', { designs: [ids.bracket, ids.unlisted] });
    expect(released.designs).toEqual([]);
    expect(released.bytes).toBe(0);
    // The limit is still 0: what is no longer kept is evicted.
    const detail = await ok('design.get', { id: ids.bracket });
    expect(detail.kept).toBeNull();
    expect(detail.card.keptOffline).toBe(false);
    expect(detail.documents.some((document) => document.cached)).toBe(false);
    expect((await ok('library.page', { keptOnly: true })).items).toEqual([]);
    // A document the window does not show is served only while a kept design needs it.
    expect(await serveFileAddress(engine, `/files/documents/${ids.notes}/notes.txt`)).toBeNull();
  });
});
