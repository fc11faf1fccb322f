import { readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelDownloadAddress } from '../../shared/files/model-files';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { attachment, startWindowHost, type WindowHost } from '../../electron/window-host/window-host';
import { startTestService, type TestService } from '../../harness/local-service';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { connectContract } from '../contract/contract-client';
import { cookieOf } from './host-fixtures';

/**
 * "Open in your slicer": in a browser, a download served by the window host from the file cache (fetched into it when
 * not kept; never the service's file address); in the Electron app with the system's default app, the path of a copy
 * under the file's own name, which the shell opens (test/shell/open-model-file.test.ts). Slicers: open-in-slicer.test.ts.
 */

const FIXTURES = join(import.meta.dirname, '../fixtures');
const CUBE = readFileSync(join(FIXTURES, 'models', 'cube.stl'));

let service: TestService;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let host: WindowHost;
let profile: string;
let cookie: string;
let designId: number;
let stlId: number;
let pdfId: number;

const get = (path: string) => fetch(`${host.origin}${path}`, { headers: { cookie } });
async function detail() {
  const outcome = await endpoint.handle('design.get', { id: designId });
  if (!outcome.ok) throw new Error(outcome.problem.message);
  return outcome.value as { documents: { id: number; name: string; cached: boolean; previewUrl: string | null }[] };
}

beforeAll(async () => {
  service = await startTestService();
  const alice = clientFor(service.url, service.addUser('alice').token);
  const gear = await alice.createDesign({ name: 'Gear', excerpt: 'A spur gear', license: 'ccby' });
  // Labelled as the service labels documents: the file's own name is what a download and a slicer get.
  stlId = (await alice.uploadDocument(gear.id, { path: join(FIXTURES, 'models', 'cube.stl') }, { name: 'Gear (STL)' })).id;
  pdfId = (await alice.uploadDocument(gear.id, { path: join(FIXTURES, 'images', 'png-sample.png') }, { name: 'Drawing' })).id;
  await alice.publishDesign(gear.id);
  designId = gear.id;
  profile = tempDir('model-download');
  engine = await openEngine({
    profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test',
    tokenStore: () => new MemoryTokenStore(null), settingsStore: () => memorySettingsStore(),
  });
  await engine.catalogue.pullNow();
  endpoint = createContractEndpoint(engine);
  host = await startWindowHost({ endpoint });
  cookie = await cookieOf(host.port, host.url);
  await detail();
});

afterAll(async () => {
  await host?.close();
  await endpoint?.close();
  await engine?.close();
  await service?.stop();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

describe('a model file for the person\'s slicer', () => {
  it('hands the Electron shell a copy under its own name, fetched first when not kept offline, for the system\'s app', async () => {
    expect((await detail()).documents.find((d) => d.id === stlId)!.cached).toBe(false);
    const outcome = await endpoint.handle('design.openModelFile', { documentId: stlId, slicer: 'system' });
    expect(outcome.ok).toBe(true);
    const { path } = (outcome as { value: { path: string } }).value;
    expect(basename(path)).toBe('cube.stl');
    expect(path.startsWith(join(profile, 'opened'))).toBe(true);
    expect(readFileSync(path)).toEqual(CUBE);
    expect((await detail()).documents.find((d) => d.id === stlId)!.cached).toBe(true);
    // Opened twice (the slicer may still hold the first copy): the same file again.
    expect(await endpoint.handle('design.openModelFile', { documentId: stlId, slicer: 'system' })).toEqual(outcome);
  });

  it('downloads the cached bytes from the window host, as an attachment under the file\'s own name, offline too', async () => {
    await service.stop();
    const answer = await get(modelDownloadAddress(stlId));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="cube.stl"; filename*=UTF-8\'\'cube.stl');
    expect(answer.headers.get('content-type')).toBe('model/stl');
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(CUBE);
  });

  it('never opens an app nor tells a browser page where the file is on this computer: it downloads it instead', async () => {
    const client = await connectContract(host.url);
    try {
      expect(await client.request('design.openModelFile', { documentId: stlId })).toMatchObject({ ok: true, value: { opened: false, path: null, slicer: { id: 'system' } } });
    } finally {
      await client.close();
    }
  });

  it('never hands out what is not a model file, nor an address without a session', async () => {
    expect((await get(modelDownloadAddress(pdfId))).status).toBe(404);
    expect(await endpoint.handle('design.openModelFile', { documentId: pdfId, slicer: 'system' })).toEqual({ ok: false, problem: {
      kind: 'conflict', message: 'This file is not a model a slicer opens (it is a .png file): only STL, 3MF, OBJ, AMF, PLY, STEP and G-code files are.',
      words: { id: 'engine.refusal.slicer.notAModelOfType', values: { type: 'png' } },
    } });
    expect((await fetch(`${host.origin}${modelDownloadAddress(stlId)}`)).status).toBe(403);
  });

  it('names a download safely, whatever the file is called', () => {
    expect(attachment('Zahnrad "groß";.stl')).toBe('attachment; filename="Zahnrad _gro___.stl"; filename*=UTF-8\'\'Zahnrad%20%22gro%C3%9F%22%3B.stl');
  });
});
