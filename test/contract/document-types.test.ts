import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesignDetail, DocumentView, RequestName, RequestResult } from '../../shared';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { startTestService, type TestService } from '../../harness/local-service';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';

/**
 * A document's type and its 3D preview come from its file (the file's address, or the service's
 * file_contains_3d_model), never from its display name: the service names documents "Rack Gear Segment (STL)".
 */
const CUBE = join(import.meta.dirname, '../fixtures/models/cube.stl');

let service: TestService;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let profile: string;
let scratch: string;
let detail: DesignDetail;
const ids: Record<string, number> = {};

async function ok<K extends RequestName>(name: K, input: unknown): Promise<RequestResult<K>> {
  const outcome = await endpoint.handle(name, input);
  if (!outcome.ok) throw new Error(`${name}: expected success, got ${JSON.stringify(outcome.problem)}`);
  return outcome.value as RequestResult<K>;
}

const documentOf = (id: number): DocumentView => detail.documents.find((document) => document.id === id)!;

beforeAll(async () => {
  service = await startTestService();
  const { token } = service.addUser('labeller');
  scratch = tempDir('document-types-files');
  writeFileSync(join(scratch, 'notes.txt'), 'Print at 0.2 mm.\n');
  writeFileSync(join(scratch, 'case.step'), 'ISO-10303-21;\nEND-ISO-10303-21;\n');
  const client = clientFor(service.url, token);
  const design = await client.createDesign({ name: 'Rack Gear Segment', excerpt: 'A rack', license: 'ccby' });
  ids.labelled = (await client.uploadDocument(design.id, { path: CUBE }, { name: 'Rack Gear Segment (STL)' })).id;
  ids.upperCase = (await client.uploadDocument(design.id, { path: CUBE, fileName: 'SEGMENT.STL' }, { name: 'Segment' })).id;
  ids.misleading = (await client.uploadDocument(design.id, { path: join(scratch, 'notes.txt') }, { name: 'bracket.stl' })).id;
  ids.unpreviewed = (await client.uploadDocument(design.id, { path: join(scratch, 'case.step') }, { name: 'Case (STEP)' })).id;
  await client.publishDesign(design.id);
  ids.design = design.id;

  profile = tempDir('document-types');
  engine = await openEngine({
    profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test',
    tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore(),
  });
  endpoint = createContractEndpoint(engine);
  await ok('catalogue.pull', {});
  detail = await ok('design.get', { id: ids.design });
});

afterAll(async () => {
  endpoint?.close();
  await engine?.close();
  await service?.stop().catch(() => {});
  rmSync(profile, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe('a document\'s type comes from its file, not its name', () => {
  it('offers the 3D preview of an STL whose name is a label, and serves the model behind it', async () => {
    expect(documentOf(ids.labelled!)).toMatchObject({ name: 'Rack Gear Segment (STL)', type: 'stl', isModel: true });
    const previewUrl = documentOf(ids.labelled!).previewUrl!;
    expect(previewUrl).toMatch(new RegExp(`^/files/documents/${ids.labelled}/`));
    const model = await endpoint.file(previewUrl);
    expect(model).toMatchObject({ contentType: 'model/stl', size: readFileSync(CUBE).length });
  });

  it('reads the extension in any case', async () => {
    expect(documentOf(ids.upperCase!)).toMatchObject({ name: 'Segment', type: 'stl', isModel: true });
    expect(documentOf(ids.upperCase!).previewUrl).not.toBeNull();
  });

  it('takes a text file named like a model for the text file it is: no preview, nothing served', async () => {
    expect(documentOf(ids.misleading!)).toMatchObject({ name: 'bracket.stl', type: 'txt', isModel: false, previewUrl: null });
    expect(await endpoint.file(`/files/documents/${ids.misleading}/bracket.stl`)).toBeNull();
  });

  it('calls a model the window cannot preview a 3D model, from the service\'s file_contains_3d_model', () => {
    // A CAD file (STEP): a 3D model to the service, not one the window draws (3MF, AMF, PLY and the rest it does).
    expect(documentOf(ids.unpreviewed!)).toMatchObject({ name: 'Case (STEP)', type: 'step', isModel: true, previewUrl: null });
  });
});
