import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RequestName, RequestResult } from '../../shared';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { startTestService, type TestService } from '../../harness/local-service';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { recordedArguments, recordingProgram, writeEntry } from '../engine/slicers/slicer-fixtures';

/**
 * "Open in your slicer" through the contract, against the real local service: a model file the cache does not hold
 * is fetched, copied under its own name and opened with the slicer chosen (a desktop entry whose program is a real
 * script that records its arguments), and the choice is remembered.
 */

const MODELS = join(import.meta.dirname, '../fixtures/models');
const GEAR_3MF = readFileSync(join(MODELS, 'cube20.3mf'));

let service: TestService;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let profile: string;
let desktop: string;
const ids: Record<string, number> = {};
const records = { orca: '', recorder: '' };

async function ok<K extends RequestName>(name: K, input: unknown): Promise<RequestResult<K>> {
  const outcome = await endpoint.handle(name, input);
  if (!outcome.ok) throw new Error(`${name}: expected success, got ${JSON.stringify(outcome.problem)}`);
  return outcome.value as RequestResult<K>;
}


beforeAll(async () => {
  service = await startTestService();
  const { token } = service.addUser('maker');
  const client = clientFor(service.url, token);
  const gear = await client.createDesign({ name: 'Gear', excerpt: 'A spur gear', license: 'ccby' });
  ids.gear3mf = (await client.uploadDocument(gear.id, { path: join(MODELS, 'cube20.3mf') }, { name: 'Gear (3MF)' })).id;
  ids.gearStl = (await client.uploadDocument(gear.id, { path: join(MODELS, 'cube.stl') }, { name: 'Gear (STL)' })).id;
  await client.publishDesign(gear.id);
  ids.design = gear.id;

  // This computer's slicers: two desktop entries whose programs record the arguments they are started with.
  desktop = tempDir('open-in-slicer-desktop');
  const bin = join(desktop, 'bin');
  mkdirSync(bin);
  records.orca = join(desktop, 'orca-arguments.txt');
  records.recorder = join(desktop, 'recorder-arguments.txt');
  recordingProgram(join(bin, 'orca-slicer'), records.orca);
  recordingProgram(join(bin, 'mesh-recorder'), records.recorder);
  writeEntry(join(desktop, 'data-home/applications'), 'OrcaSlicer.desktop', `[Desktop Entry]\nType=Application\nName=OrcaSlicer\nExec=${join(bin, 'orca-slicer')} %F\nMimeType=model/stl;application/vnd.ms-3mfdocument;\n`);
  writeEntry(join(desktop, 'data-dir/applications'), 'mesh-recorder.desktop', `[Desktop Entry]\nType=Application\nName=Mesh Recorder\nExec=${join(bin, 'mesh-recorder')} --new-window %U\nMimeType=model/3mf;\n`);
  vi.stubEnv('XDG_DATA_HOME', join(desktop, 'data-home'));
  vi.stubEnv('XDG_DATA_DIRS', join(desktop, 'data-dir'));
  vi.stubEnv('HOME', desktop);

  profile = tempDir('open-in-slicer');
  engine = await openEngine({
    profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test',
    tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore(),
  });
  endpoint = createContractEndpoint(engine);
  await ok('catalogue.pull', {});
  await ok('design.get', { id: ids.design });
}, 60_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await endpoint?.close();
  await engine?.close();
  await service?.stop().catch(() => {});
  rmSync(profile, { recursive: true, force: true });
  rmSync(desktop, { recursive: true, force: true });
});

const cached = async (documentId: number) => (await ok('design.get', { id: ids.design })).documents.find((document) => document.id === documentId)!.cached;

describe('a model file opened in the slicer the person chooses', () => {
  it('lists the slicers that open the file\'s type, known ones first, the system\'s default app last', async () => {
    const view = await ok('design.slicers', { documentId: ids.gear3mf });
    expect(view.type).toBe('3mf');
    expect(view.slicers.map((slicer) => [slicer.id, slicer.name])).toEqual([
      ['desktop:OrcaSlicer.desktop', 'OrcaSlicer'],
      ['desktop:mesh-recorder.desktop', 'Mesh Recorder'],
      ['system', 'System default app'],
    ]);
    expect(view.chosen).toBe('desktop:OrcaSlicer.desktop');
    expect((await ok('design.slicers', {})).slicers.map((slicer) => slicer.id)).toEqual(['desktop:OrcaSlicer.desktop', 'desktop:mesh-recorder.desktop', 'system']);
  });

  it('fetches a 3MF the cache does not hold, opens a copy under its own name with the chosen slicer, and remembers the choice', async () => {
    expect(await cached(ids.gear3mf!)).toBe(false);
    const opened = await ok('design.openModelFile', { documentId: ids.gear3mf, slicer: 'desktop:mesh-recorder.desktop' });
    expect(opened).toEqual({ opened: true, path: null, slicer: { id: 'desktop:mesh-recorder.desktop', name: 'Mesh Recorder', types: ['3mf'] } });
    const [flag, file] = await recordedArguments(records.recorder);
    expect(flag).toBe('--new-window');
    expect(file).toBe(join(profile, 'opened', String(ids.gear3mf), 'cube20.3mf'));
    expect(readFileSync(file!)).toEqual(GEAR_3MF);
    expect(await cached(ids.gear3mf!)).toBe(true);

    expect(engine.appSettings.store.read().openModelWith).toEqual({ '3mf': 'desktop:mesh-recorder.desktop', '*': 'desktop:mesh-recorder.desktop' });
    expect((await ok('design.slicers', { documentId: ids.gear3mf })).chosen).toBe('desktop:mesh-recorder.desktop');
    // The STL: the recorder opens no STL, so the first slicer found for it stays chosen.
    expect((await ok('design.slicers', { documentId: ids.gearStl })).chosen).toBe('desktop:OrcaSlicer.desktop');
  });

  it('opens with the remembered slicer when none is named', async () => {
    rmSync(records.recorder, { force: true });
    expect((await ok('design.openModelFile', { documentId: ids.gear3mf })).slicer.id).toBe('desktop:mesh-recorder.desktop');
    expect((await recordedArguments(records.recorder))[1]).toBe(join(profile, 'opened', String(ids.gear3mf), 'cube20.3mf'));
  });

  it('answers the copy\'s path for the host to open with the system\'s default app, and remembers that choice', async () => {
    const opened = await ok('design.openModelFile', { documentId: ids.gear3mf, slicer: 'system' });
    expect(opened).toMatchObject({ opened: false, path: join(profile, 'opened', String(ids.gear3mf), 'cube20.3mf'), slicer: { id: 'system' } });
    expect(readFileSync(opened.path!)).toEqual(GEAR_3MF);
    expect(engine.appSettings.store.read().openModelWith?.['3mf']).toBe('system');
    expect((await ok('design.slicers', { documentId: ids.gear3mf })).chosen).toBe('system');
  });

  it('refuses a slicer that is not installed, or that does not open the type, and changes nothing', async () => {
    const before = engine.appSettings.store.read();
    const gone = await endpoint.handle('design.openModelFile', { documentId: ids.gear3mf, slicer: 'desktop:cura.desktop' });
    expect(gone).toEqual({ ok: false, problem: { kind: 'conflict', message: expect.stringMatching(/no longer found on this computer/), words: { id: 'engine.refusal.slicer.gone' } } });
    const wrongType = await endpoint.handle('design.openModelFile', { documentId: ids.gearStl, slicer: 'desktop:mesh-recorder.desktop' });
    expect(wrongType).toEqual({ ok: false, problem: {
      kind: 'conflict', message: 'Mesh Recorder does not open .stl files: choose another app.',
      words: { id: 'engine.refusal.slicer.wrongType', values: { app: 'Mesh Recorder', type: 'stl' } },
    } });
    expect(engine.appSettings.store.read()).toEqual(before);
    expect(await cached(ids.gearStl!)).toBe(false);
  });

  it('says so when the file is not kept offline and the service cannot be reached', async () => {
    await service.stop();
    const outcome = await endpoint.handle('design.openModelFile', { documentId: ids.gearStl, slicer: 'desktop:OrcaSlicer.desktop' });
    expect(outcome).toEqual({ ok: false, problem: { kind: 'not-cached', message: expect.stringMatching(/^cube\.stl is not kept offline, and the service cannot be reached to get it\./) } });
    // The one kept is still opened, offline.
    rmSync(records.orca, { force: true });
    expect((await ok('design.openModelFile', { documentId: ids.gear3mf, slicer: 'desktop:OrcaSlicer.desktop' })).opened).toBe(true);
    expect(dirname((await recordedArguments(records.orca))[0]!)).toBe(join(profile, 'opened', String(ids.gear3mf)));
  });
});
