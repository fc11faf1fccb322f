import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesignCard, Outcome, RequestName, RequestResult } from '../../shared';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import type { EventMessage } from '../../electron/engine/contract/contract-endpoint';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { startWindowHost, type WindowHost } from '../../electron/window-host/window-host';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { startTestService, type TestService } from '../../harness/local-service';
import { cookieOf, type Answer } from '../window-host/host-fixtures';
import { until } from '../../harness/until';

const FIXTURES = join(import.meta.dirname, '../fixtures');
const CUBE_STL = join(FIXTURES, 'models', 'cube20.stl');
/** A real PNG (123×456) standing in for what the window renders. */
const PICTURE = readFileSync(join(FIXTURES, 'images', 'png-sample.png'));

let service: TestService;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let host: WindowHost;
let cookie: string;
let profile: string;
let aliceToken: string;
let bigModel: string | undefined;
const events: EventMessage[] = [];
const ids: Record<string, number> = {};
const docs: Record<string, number> = {};

/** A PUT of a picture as the window sends it, with any header changed. */
function put(path: string, body: Buffer, headers: Record<string, string | undefined> = {}): Promise<Answer> {
  const all: Record<string, string> = {
    host: `127.0.0.1:${host.port}`, cookie, origin: host.origin, 'x-design-sync-thumbnail': '1', 'content-type': 'image/png', 'content-length': String(body.length),
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
    req.on('error', (error) => (error as NodeJS.ErrnoException).code === 'EPIPE' || (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error));
    req.end(body);
  });
}

function ok<K extends RequestName>(outcome: Outcome<unknown>): RequestResult<K> {
  if (!outcome.ok) throw new Error(`expected success, got ${JSON.stringify(outcome.problem)}`);
  return outcome.value as RequestResult<K>;
}
const cardOf = async (id: number): Promise<DesignCard> => ok<'design.get'>(await endpoint.handle('design.get', { id })).card;
const problemOf = (answer: Answer) => (JSON.parse(answer.body) as { problem: { kind: string; message: string } }).problem;
const staged = () => (existsSync(join(profile, 'incoming')) ? readdirSync(join(profile, 'incoming')) : []);
const picturePath = (designId: number) => join(profile, 'thumbnails', `${designId}.png`);

beforeAll(async () => {
  service = await startTestService();
  aliceToken = service.addUser('alice').token;
  const alice = clientFor(service.url, aliceToken);
  const only = async (name: string) => {
    const design = await alice.createDesign({ name, excerpt: `${name}, a model and no image`, license: 'cc0' });
    await alice.publishDesign(design.id);
    return design.id;
  };
  ids.fresh = await only('Thumb fresh');
  docs.fresh = (await alice.uploadDocument(ids.fresh, { path: CUBE_STL })).id;
  ids.cube = await only('Thumb cube');
  docs.cube = (await alice.uploadDocument(ids.cube, { path: CUBE_STL })).id;
  ids.changing = await only('Thumb changing');
  docs.changing = (await alice.uploadDocument(ids.changing, { path: CUBE_STL })).id;
  // G-code and a mesh: the mesh is drawn, whatever their order.
  ids.both = await only('Thumb both');
  await alice.uploadDocument(ids.both, { path: join(FIXTURES, 'models', 'cube20.gcode') });
  docs.both = (await alice.uploadDocument(ids.both, { path: join(FIXTURES, 'models', 'cube20.3mf') })).id;
  ids.pictured = await only('Thumb pictured');
  await alice.uploadImage(ids.pictured, { path: join(FIXTURES, 'images', 'jpg-sample.jpg') });
  docs.pictured = (await alice.uploadDocument(ids.pictured, { path: CUBE_STL })).id;
  ids.removed = await only('Thumb removed');
  docs.removed = (await alice.uploadDocument(ids.removed, { path: CUBE_STL })).id;
  ids.big = await only('Thumb big');
  // Past the bound of a model a picture is made from (64 MiB): an STL's header and a little more than that of nothing.
  bigModel = join(tempDir('thumbnail-big'), 'big.stl');
  writeFileSync(bigModel, Buffer.alloc(64 * 1024 ** 2 + 1024));
  docs.big = (await alice.uploadDocument(ids.big, { path: bigModel })).id;
  ids.broken = await only('Thumb broken');
  docs.broken = (await alice.uploadDocument(ids.broken, { path: CUBE_STL })).id;

  profile = tempDir('thumbnail-profile');
  engine = await openEngine({
    profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test', settleMs: 200, trash: 'folder',
    tokenStore: () => new MemoryTokenStore(service.addUser('reader').token), settingsStore: () => memorySettingsStore(),
  });
  endpoint = createContractEndpoint(engine);
  endpoint.subscribe((event) => events.push(event));
  host = await startWindowHost({ endpoint });
  cookie = await cookieOf(host.port, host.url);
  ok(await endpoint.handle('catalogue.pull', {}));
});

afterAll(async () => {
  await host?.close();
  await endpoint?.close();
  await engine?.close();
  await service?.stop().catch(() => {});
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (bigModel) rmSync(bigModel, { force: true });
});

describe('pictures made from a design\'s model when it has no image', () => {
  it('a design with only a model offers that model to draw, and shows no picture until one is made', async () => {
    const card = await cardOf(ids.fresh!);
    expect(card).toMatchObject({
      thumbnailUrl: null, thumbnailGenerated: false,
      thumbnailModel: { documentId: docs.fresh, fileName: 'cube20.stl', type: 'stl', modelUrl: `/files/thumbnail-models/${docs.fresh}` },
    });
    // The model's bytes are served to the window at that address.
    expect((await endpoint.file(card.thumbnailModel!.modelUrl))?.size).toBe(readFileSync(CUBE_STL).length);
  });

  it('a picture sent by the window is kept with the design, shown on its card and page marked generated, and the cards are told', async () => {
    await cardOf(ids.cube!);
    const before = events.length;
    const answer = await put(`/thumbnails/designs/${ids.cube}/${docs.cube}`, PICTURE);
    expect(answer.status).toBe(201);
    const { thumbnailUrl } = JSON.parse(answer.body) as { thumbnailUrl: string };
    expect(thumbnailUrl).toMatch(new RegExp(`^/files/generated/${ids.cube}/\\d+$`));
    expect(events.slice(before).some((event) => event.name === 'designs.changed' && event.payload.ids.includes(ids.cube!))).toBe(true);

    const card = await cardOf(ids.cube!);
    expect(card).toMatchObject({ thumbnailUrl, thumbnailGenerated: true, thumbnailModel: { fileName: 'cube20.stl' } });
    const page = ok<'library.page'>(await endpoint.handle('library.page', { query: 'Thumb cube', sort: 'name' }));
    expect(page.items.find((item) => item.id === ids.cube)).toMatchObject({ thumbnailUrl, thumbnailGenerated: true });
    const served = await endpoint.file(thumbnailUrl);
    expect(served).toMatchObject({ contentType: 'image/png', size: PICTURE.length });
    expect(readFileSync(served!.path)).toEqual(PICTURE);
    expect(staged()).toEqual([]);
    // Never uploaded: the service still has no image of it.
    expect(await clientFor(service.url, aliceToken).listImages(ids.cube!)).toEqual([]);
  });

  it('never downloads a model larger than 64 MiB only to draw its picture, and its card stops waiting for one', async () => {
    const card = await cardOf(ids.big!);
    expect(card.thumbnailModel).toMatchObject({ documentId: docs.big, fileName: 'big.stl' });
    const seen = events.length;
    expect(await endpoint.file(card.thumbnailModel!.modelUrl)).toBeNull();
    expect(engine.cache.reader.prepare('SELECT count(*) FROM file_index WHERE url LIKE ?').pluck().get('%big.stl%')).toBe(0);
    expect(readFileSync(join(profile, 'logs', 'engine.log'), 'utf8')).toContain(`no picture is made from document ${docs.big}: it is ${64 * 1024 ** 2 + 1024} bytes`);
    // Remembered: the card no longer offers the model, and the window is told its cards changed.
    expect(await cardOf(ids.big!)).toMatchObject({ thumbnailUrl: null, thumbnailGenerated: false, thumbnailModel: null });
    expect(events.slice(seen).some((event) => event.name === 'designs.changed' && event.payload.ids.includes(ids.big!))).toBe(true);
  });

  it('prefers a mesh over G-code as the model to draw', async () => {
    expect((await cardOf(ids.both!)).thumbnailModel).toMatchObject({ documentId: docs.both, type: '3mf' });
  });

  it('is stale once its model changes on the service: the card asks for another picture', async () => {
    await cardOf(ids.changing!);
    expect((await put(`/thumbnails/designs/${ids.changing}/${docs.changing}`, PICTURE)).status).toBe(201);
    expect((await cardOf(ids.changing!)).thumbnailGenerated).toBe(true);
    await clientFor(service.url, aliceToken).updateDocument(ids.changing!, docs.changing!, {}, { path: join(FIXTURES, 'models', 'cube.stl') });
    const card = await cardOf(ids.changing!);
    expect(card).toMatchObject({ thumbnailUrl: null, thumbnailGenerated: false, thumbnailModel: { documentId: docs.changing } });
    expect(await endpoint.file(`/files/generated/${ids.changing}/1`)).toBeNull();
  });

  it('never makes one for a design with an image: its own cover wins and a picture is refused', async () => {
    const card = await cardOf(ids.pictured!);
    expect(card.thumbnailUrl).toMatch(/^\/files\/images\//);
    expect(card).toMatchObject({ thumbnailGenerated: false, thumbnailModel: null });
    const answer = await put(`/thumbnails/designs/${ids.pictured}/${docs.pictured}`, PICTURE);
    expect(answer.status).toBe(409);
    expect(problemOf(answer)).toEqual({ kind: 'conflict', message: '"Thumb pictured" has an image: its own cover is shown, never a generated one.' });
    expect(existsSync(picturePath(ids.pictured!))).toBe(false);
    expect(staged()).toEqual([]);
  });

  it('refuses what is not a PNG within bounds, or not from the design\'s first model, with a clear problem, keeping nothing', async () => {
    await cardOf(ids.broken!);
    const address = `/thumbnails/designs/${ids.broken}/${docs.broken}`;
    const notPng = await put(address, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    expect([notPng.status, problemOf(notPng)]).toEqual([400, { kind: 'validation', message: 'The picture is not a PNG image.' }]);

    const huge = Buffer.from(PICTURE);
    huge.writeUInt32BE(5000, 16);
    const tooWide = await put(address, huge);
    expect([tooWide.status, problemOf(tooWide).message]).toEqual([400, 'The picture is 5000×456 pixels: a generated thumbnail is at most 2048×2048.']);

    const oversized = Buffer.concat([PICTURE, Buffer.alloc(2 * 1024 ** 2)]);
    const tooLarge = await put(address, oversized);
    expect([tooLarge.status, problemOf(tooLarge).message]).toEqual([413, 'The picture is larger than 2 MiB, the most a generated thumbnail may be.']);
    const tooLargeUnannounced = await put(address, oversized, { 'content-length': undefined, 'transfer-encoding': 'chunked' });
    expect(tooLargeUnannounced.status).toBe(413);

    const otherModel = await put(`/thumbnails/designs/${ids.broken}/${docs.cube}`, PICTURE);
    expect([otherModel.status, problemOf(otherModel).message]).toEqual([400, `The picture must be made from "cube20.stl", the design's first model (document ${docs.broken}).`]);
    const unknown = await put(`/thumbnails/designs/987654/${docs.broken}`, PICTURE);
    expect([unknown.status, problemOf(unknown)]).toEqual([404, { kind: 'not-found', message: 'There is no design 987654 in the cache.' }]);

    expect(existsSync(picturePath(ids.broken!))).toBe(false);
    expect(staged()).toEqual([]);
    expect((await cardOf(ids.broken!)).thumbnailGenerated).toBe(false);
  });

  it('takes a picture only from this window: its session, its origin and the header', async () => {
    const address = `/thumbnails/designs/${ids.broken}/${docs.broken}`;
    expect((await put(address, PICTURE, { cookie: undefined })).status).toBe(403);
    expect((await put(address, PICTURE, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await put(address, PICTURE, { 'x-design-sync-thumbnail': undefined })).status).toBe(403);
    expect((await put(address, PICTURE, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await put('/thumbnails/designs/1/../2', PICTURE)).status).toBe(400);
    expect(existsSync(picturePath(ids.broken!))).toBe(false);
  });

  it('a model the window could not draw is remembered for that version, and not offered again', async () => {
    await cardOf(ids.broken!);
    expect(ok<'design.thumbnailFailed'>(await endpoint.handle('design.thumbnailFailed', { designId: ids.broken, documentId: docs.broken, reason: 'It holds no geometry to show.' })))
      .toEqual({ remembered: true });
    expect(await cardOf(ids.broken!)).toMatchObject({ thumbnailUrl: null, thumbnailGenerated: false, thumbnailModel: null });
  });

  it('a design that leaves the cache takes its picture with it', async () => {
    await cardOf(ids.removed!);
    await cardOf(ids.both!);
    expect((await put(`/thumbnails/designs/${ids.both}/${docs.both}`, PICTURE)).status).toBe(201);
    expect((await put(`/thumbnails/designs/${ids.removed}/${docs.removed}`, PICTURE)).status).toBe(201);
    expect(existsSync(picturePath(ids.removed!))).toBe(true);
    await clientFor(service.url, aliceToken).deleteDesign(ids.removed!);
    ok(await endpoint.handle('catalogue.pull', {}));
    expect(engine.cache.reader.prepare('SELECT count(*) FROM generated_thumbnails WHERE design_id = ?').pluck().get(ids.removed)).toBe(0);
    // Its file is swept when the services open next (a window's endpoint).
    const again = createContractEndpoint(engine);
    await until('the picture swept', () => !existsSync(picturePath(ids.removed!)));
    await again.close();
    expect(existsSync(picturePath(ids.both!))).toBe(true);
  });

  it('"Use as cover" is only for the person\'s own designs', async () => {
    const outcome = await endpoint.handle('design.useGeneratedCover', { id: ids.cube });
    expect(outcome.ok).toBe(false);
    expect(await clientFor(service.url, aliceToken).listImages(ids.cube!)).toEqual([]);
  });
});
