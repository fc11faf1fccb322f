import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALTERNATIVE_FORMAT_KEYS, CREATION_FORMAT_KEYS, createdDocumentShape, documentShape, urlRef, type CreatedDocument, type Document,
} from '../../shared';
import { NOT_AUTHORIZED_MESSAGE } from '../../service/http/errors';
import { expectEmpty, expectExactShape, json } from '../support/conformance';
import { startTestService, type TestService } from '../../harness/local-service';
import { bytesOf, createDesign, fixture, getDesign, tempLeftovers, uploadForm } from './upload-helpers';

let service: TestService;
let owner: string;
let other: string;

beforeAll(async () => {
  service = await startTestService();
  owner = service.addUser('doc-owner').token;
  other = service.addUser('doc-other').token;
});
afterAll(() => service.stop());

const documentsPath = (designId: number) => `/v1/designs/${designId}/documents`;
const sha1 = (content: Uint8Array) => createHash('sha1').update(content).digest('hex');

async function upload(designId: number, fileName: string, content: Uint8Array, fields: { name?: string; description?: string } = {}): Promise<CreatedDocument> {
  const response = await service.request('POST', documentsPath(designId), { token: owner, body: uploadForm('document', fileName, content, fields) });
  return json<CreatedDocument>(response, 201);
}

async function read(designId: number, id: number, token: string | undefined = owner): Promise<Document> {
  return json<Document>(await service.request('GET', `${documentsPath(designId)}/${id}`, { token }), 200);
}

/** Triangles a fan triangulation of every `f` line gives. */
function fanTriangles(obj: string): number {
  return obj.split(/\r?\n/).filter((line) => /^f\s/.test(line.trim()))
    .reduce((sum, line) => sum + Math.max(0, line.trim().split(/\s+/).length - 1 - 2), 0);
}

function expectBinaryStl(stl: Buffer, triangles: number): void {
  expect(stl.length).toBe(84 + 50 * triangles);
  expect(stl.readUInt32LE(80)).toBe(triangles);
  for (let i = 0; i < Math.min(triangles, 50); i++) {
    for (let k = 0; k < 12; k++) expect(Number.isFinite(stl.readFloatLE(84 + i * 50 + k * 4))).toBe(true);
  }
}

describe('POST /v1/designs/:design_id/documents', () => {
  it('answers 201 with the creation form: exactly the §2.3 fields plus the seven format slots', async () => {
    const design = await createDesign(service, owner);
    const content = fixture('models/cube.stl');
    const response = await service.request('POST', documentsPath(design.id), { token: owner, body: uploadForm('document', 'cube.stl', content) });
    const document = await json<CreatedDocument>(response, 201);
    expectExactShape(createdDocumentShape, document);
    expect(Object.keys(document)).not.toContain('alternative_formats');
    expect(Object.keys(document)).not.toContain('rendered_image');
    for (const key of CREATION_FORMAT_KEYS) expectExactShape(urlRef.shape, document[key]);
    expectExactShape(urlRef.shape, document.file);
    expect(response.headers.get('location')).toBe(`${documentsPath(design.id)}/${document.id}`);
    expect(document).toMatchObject({
      name: 'cube.stl', description: '', documentable_id: design.id, documentable_type: 'Design', file_contains_3d_model: true,
      design_tool_id: null, design_tool_version_id: null, file_tmp: null, properties: {}, download_count: 0, modelhash: sha1(content),
      ctm_file: { url: null }, jscad_file: { url: null }, obj_file: { url: null }, obj_zip_file: { url: null }, scad_file: { url: null },
    });
    expect(document.stl_file.url).toMatch(/\.stl$/);
    expect(document.stl_zip_file.url).toMatch(/\.zip$/);
    expect(document.user_id).toBe(design.user_id);
    expect(document.created_at).toBe(document.updated_at);
  });

  it('fills the slots that match the uploaded format (obj, scad, jscad) and none for other files', async () => {
    const design = await createDesign(service, owner);
    const obj = await upload(design.id, 'box.obj', fixture('models/box.obj'));
    expect(obj.obj_file.url).toBe(obj.file.url);
    for (const key of ['obj_zip_file', 'stl_file', 'stl_zip_file'] as const) expect(obj[key].url, key).toEqual(expect.any(String));
    expect([obj.ctm_file.url, obj.scad_file.url, obj.jscad_file.url]).toEqual([null, null, null]);
    const scad = await upload(design.id, 'part.scad', Buffer.from('cube(10);'));
    expect(scad.scad_file.url).toBe(scad.file.url);
    expect(CREATION_FORMAT_KEYS.filter((key) => scad[key].url !== null)).toEqual(['scad_file']);
    const jscad = await upload(design.id, 'part.jscad', Buffer.from('function main() { return cube(); }'));
    expect(CREATION_FORMAT_KEYS.filter((key) => jscad[key].url !== null)).toEqual(['jscad_file']);
    const pdf = await upload(design.id, 'instructions.pdf', Buffer.from('%PDF-1.4\n'));
    expect(CREATION_FORMAT_KEYS.filter((key) => pdf[key].url !== null)).toEqual([]);
    expect(pdf.file_contains_3d_model).toBe(false);
  });

  it('takes name and description from document[name] and document[description]', async () => {
    const design = await createDesign(service, owner);
    const document = await upload(design.id, 'cube.stl', fixture('models/cube.stl'), { name: 'Cube', description: '<p>12 facets</p>' });
    expect(document).toMatchObject({ name: 'Cube', description: '<p>12 facets</p>' });
  });

  it('accepts a 0-byte file', async () => {
    const design = await createDesign(service, owner);
    const document = await upload(design.id, 'empty.txt', new Uint8Array(0));
    expect(document.modelhash).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect((await bytesOf(await service.request('GET', document.file.url!, { token: owner }))).length).toBe(0);
  });

  it('keeps a unicode file name and sends it back in Content-Disposition (RFC 5987 filename*)', async () => {
    const design = await createDesign(service, owner);
    const fileName = 'Zahnräder – 齿轮 "v2".stl';
    const document = await upload(design.id, fileName, fixture('models/cube.stl'));
    expect(document.name).toBe(fileName.replace(/"/g, '%22'));
    const response = await service.request('GET', document.file.url!, { token: owner });
    const disposition = response.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("filename*=UTF-8''")[1]!)).toBe(document.name);
    expect(await bytesOf(response)).toEqual(fixture('models/cube.stl'));
  });

  it('refuses .exe by name, naming the file', async () => {
    const design = await createDesign(service, owner);
    const response = await service.request('POST', documentsPath(design.id), { token: owner, body: uploadForm('document', 'setup.exe', Buffer.from('hello')) });
    const body = await json<{ errors: { file: string[] } }>(response, 422);
    expect(Object.keys(body.errors)).toEqual(['file']);
    expect(body.errors.file[0]).toMatch(/setup\.exe.*executable/);
  });

  it('refuses Windows executable content whatever its name', async () => {
    const design = await createDesign(service, owner);
    const pe = Buffer.alloc(512);
    pe.write('MZ', 0, 'latin1');
    pe.writeUInt32LE(0x80, 60);
    pe.write('PE\0\0', 0x80, 'latin1');
    const response = await service.request('POST', documentsPath(design.id), { token: owner, body: uploadForm('document', 'totally-a-model.stl', pe) });
    const body = await json<{ errors: { file: string[] } }>(response, 422);
    expect(body.errors.file[0]).toMatch(/totally-a-model\.stl.*Windows executable/);
    expect(tempLeftovers(service)).toEqual([]);
  });

  it('refuses a missing file with 422 {"errors":{"file":["can\'t be blank"]}} and a non-multipart body with a clear error', async () => {
    const design = await createDesign(service, owner);
    const missing = await service.request('POST', documentsPath(design.id), { token: owner, body: uploadForm('document', null, null, { name: 'x' }) });
    expect(await json(missing, 422)).toEqual({ errors: { file: ["can't be blank"] } });
    const notMultipart = await service.request('POST', documentsPath(design.id), { token: owner, json: { document: { name: 'x' } } });
    expect((await json<{ error: string }>(notMultipart, 415)).error).toMatch(/multipart\/form-data.*document\[file\]/);
  });
});

describe('GET /v1/designs/:design_id/documents and /:id (read form)', () => {
  it('lists documents by id in the read form, with alternative_formats {} for non-models and three keys for models', async () => {
    const design = await createDesign(service, owner);
    const text = await upload(design.id, 'notes.txt', Buffer.from('print at 0.2 mm'));
    const stl = await upload(design.id, 'cube.stl', fixture('models/cube.stl'));
    const threeMf = await upload(design.id, 'part.3mf', Buffer.from('PK'));
    const list = await json<Document[]>(await service.request('GET', documentsPath(design.id), { token: owner }), 200);
    expect(list.map((document) => document.id)).toEqual([text.id, stl.id, threeMf.id]);
    for (const document of list) {
      expectExactShape(documentShape, document);
      expect(document).toMatchObject({ rendered_image: null, file_tmp: null, properties: {}, design_tool_id: null, design_tool_version_id: null });
      for (const key of CREATION_FORMAT_KEYS) expect(Object.keys(document)).not.toContain(key);
    }
    const [readText, readStl, read3mf] = list;
    expect(readText!.alternative_formats).toEqual({});
    expect(readText!.file_contains_3d_model).toBe(false);
    expect(Object.keys(readStl!.alternative_formats).sort()).toEqual([...ALTERNATIVE_FORMAT_KEYS].sort());
    const formats = readStl!.alternative_formats as Record<string, { url: string | null }>;
    for (const key of ALTERNATIVE_FORMAT_KEYS) expectExactShape(urlRef.shape, formats[key]);
    expect(formats.stl_file!.url).toBe(stl.stl_file.url);
    expect(formats.stl_zip_file!.url).toBe(stl.stl_zip_file.url);
    expect(formats.ctm_file!.url).toBeNull();
    expect(read3mf!.file_contains_3d_model).toBe(true);
    expect(read3mf!.alternative_formats).toEqual({ stl_file: { url: null }, stl_zip_file: { url: null }, ctm_file: { url: null } });
    expect(await read(design.id, stl.id)).toEqual(readStl);
  });

  it('answers 404 JSON for an unknown id, a non-numeric id and a document of another design', async () => {
    const design = await createDesign(service, owner);
    const elsewhere = await createDesign(service, owner);
    const document = await upload(elsewhere.id, 'a.txt', Buffer.from('a'));
    for (const id of ['999999', 'abc', String(document.id)]) {
      expect(await json(await service.request('GET', `${documentsPath(design.id)}/${id}`, { token: owner }), 404)).toHaveProperty('error');
    }
    await json(await service.request('GET', documentsPath(999999), { token: owner }), 404);
  });

  it('hides the documents and files of another user\'s draft, and shows those of a published design to anyone', async () => {
    const draft = await createDesign(service, owner);
    const hidden = await upload(draft.id, 'a.txt', Buffer.from('secret'));
    await json(await service.request('GET', documentsPath(draft.id), { token: other }), 404);
    await json(await service.request('GET', hidden.file.url!), 404);
    await json(await service.request('GET', hidden.file.url!, { token: other }), 404);
    await bytesOf(await service.request('GET', hidden.file.url!, { token: owner }));
    const published = await createDesign(service, owner, { publish: true });
    const shown = await upload(published.id, 'b.txt', Buffer.from('public'));
    expect(await json<Document[]>(await service.request('GET', documentsPath(published.id)), 200)).toHaveLength(1);
    expect((await bytesOf(await service.request('GET', shown.file.url!))).toString()).toBe('public');
  });
});

describe('PATCH/PUT /v1/designs/:design_id/documents/:id', () => {
  it('answers 204 with an empty body to a request without fields, and to one with only a name', async () => {
    const design = await createDesign(service, owner);
    const document = await upload(design.id, 'a.txt', Buffer.from('a'));
    const path = `${documentsPath(design.id)}/${document.id}`;
    await expectEmpty(await service.request('PATCH', path, { token: owner }), 204);
    await expectEmpty(await service.request('PATCH', path, { token: owner, body: uploadForm('document', null, null) }), 204);
    expect((await read(design.id, document.id)).name).toBe('a.txt');
    await expectEmpty(await service.request('PUT', path, { token: owner, json: { document: { name: 'Renamed', description: 'new' } } }), 204);
    expect(await read(design.id, document.id)).toMatchObject({ name: 'Renamed', description: 'new' });
  });

  it('replaces the file: new content, name of the new file in the URL, new modelhash; the name stays', async () => {
    const design = await createDesign(service, owner);
    const document = await upload(design.id, 'a.txt', Buffer.from('old'), { name: 'Kept' });
    const path = `${documentsPath(design.id)}/${document.id}`;
    const content = fixture('models/box.obj');
    await expectEmpty(await service.request('PATCH', path, { token: owner, body: uploadForm('document', 'box.obj', content) }), 204);
    const after = await read(design.id, document.id);
    expect(after).toMatchObject({ name: 'Kept', modelhash: sha1(content), file_contains_3d_model: true });
    expect(after.file.url).toMatch(/box\.obj$/);
    expect(await bytesOf(await service.request('GET', after.file.url!, { token: owner }))).toEqual(content);
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(document.updated_at));
  });

  it('refuses an executable replacement with 422 and keeps the old file', async () => {
    const design = await createDesign(service, owner);
    const document = await upload(design.id, 'a.txt', Buffer.from('old'));
    const path = `${documentsPath(design.id)}/${document.id}`;
    await json(await service.request('PUT', path, { token: owner, body: uploadForm('document', 'virus.exe', Buffer.from('x')) }), 422);
    expect((await bytesOf(await service.request('GET', document.file.url!, { token: owner }))).toString()).toBe('old');
  });
});

describe('DELETE /v1/designs/:design_id/documents/:id', () => {
  it('answers 204 with an empty body and removes the document, its file and (when it was the last) the design\'s zip', async () => {
    const design = await createDesign(service, owner);
    const document = await upload(design.id, 'a.txt', Buffer.from('a'));
    expect((await getDesign(service, owner, design.id)).documents_zip.url).toEqual(expect.any(String));
    const stored = join(service.dataDir, 'files', 'documents', String(document.id));
    expect(existsSync(stored)).toBe(true);
    await expectEmpty(await service.request('DELETE', `${documentsPath(design.id)}/${document.id}`, { token: owner }), 204);
    expect(existsSync(stored)).toBe(false);
    await json(await service.request('GET', `${documentsPath(design.id)}/${document.id}`, { token: owner }), 404);
    await json(await service.request('GET', document.file.url!, { token: owner }), 404);
    expect((await getDesign(service, owner, design.id)).documents_zip.url).toBeNull();
  });
});

describe('permissions on document writes', () => {
  let designId: number;
  let documentId: number;
  beforeAll(async () => {
    designId = (await createDesign(service, owner, { publish: true })).id;
    documentId = (await upload(designId, 'a.txt', Buffer.from('a'))).id;
  });

  const writes = () => [
    ['POST', documentsPath(designId), () => uploadForm('document', 'x.txt', Buffer.from('x'))],
    ['PATCH', `${documentsPath(designId)}/${documentId}`, () => uploadForm('document', null, null, { name: 'hijacked' })],
    ['PUT', `${documentsPath(designId)}/${documentId}`, () => uploadForm('document', null, null, { name: 'hijacked' })],
    ['DELETE', `${documentsPath(designId)}/${documentId}`, () => undefined],
  ] as const;

  it('answers another user with 403 and the §7 body', async () => {
    for (const [method, path, body] of writes()) {
      expect(await json(await service.request(method, path, { token: other, body: body() }), 403), `${method}`).toEqual({ error: NOT_AUTHORIZED_MESSAGE });
    }
  });

  it('answers a request without a token with 401', async () => {
    for (const [method, path, body] of writes()) {
      expect(await json(await service.request(method, path, { body: body() }), 401), `${method}`).toHaveProperty('error');
    }
  });

  it('answers 404 for writes to an unknown design or document', async () => {
    await json(await service.request('POST', documentsPath(999999), { token: owner, body: uploadForm('document', 'x.txt', Buffer.from('x')) }), 404);
    await json(await service.request('PATCH', `${documentsPath(designId)}/999999`, { token: owner }), 404);
    await json(await service.request('DELETE', `${documentsPath(designId)}/999999`, { token: owner }), 404);
  });

  it('left the document untouched', async () => {
    expect((await read(designId, documentId, undefined)).name).toBe('a.txt');
  });
});

describe('document downloads', () => {
  it('counts a download of file.url for the document and for the design, but not a HEAD or a later range', async () => {
    const design = await createDesign(service, owner, { publish: true });
    const document = await upload(design.id, 'cube.stl', fixture('models/cube.stl'));
    await bytesOf(await service.request('GET', document.file.url!));
    await bytesOf(await service.request('GET', document.file.url!, { token: other }));
    const head = await service.request('HEAD', document.file.url!);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(fixture('models/cube.stl').length));
    const tail = await service.request('GET', document.file.url!, { headers: { range: 'bytes=84-' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes 84-683/684`);
    expect(await bytesOf(tail, 206)).toEqual(fixture('models/cube.stl').subarray(84));
    expect((await read(design.id, document.id)).download_count).toBe(2);
    expect((await getDesign(service, owner, design.id)).documents_download_count).toBe(2);
  });

  it('serves a .stl as its own stl_file, and zips it as stl_zip_file', async () => {
    const design = await createDesign(service, owner);
    const content = fixture('models/cube.stl');
    const document = await upload(design.id, 'cube.stl', content);
    const stl = await service.request('GET', document.stl_file.url!, { token: owner });
    expect(stl.headers.get('content-type')).toBe('model/stl');
    expect(await bytesOf(stl)).toEqual(content);
    const zip = unzipSync(await bytesOf(await service.request('GET', document.stl_zip_file.url!, { token: owner })));
    expect(Object.keys(zip)).toEqual(['cube.stl']);
    expect(Buffer.from(zip['cube.stl']!)).toEqual(content);
  });

  it.each([['box.obj', 12], ['teapot.obj', null], ['airboat.obj', null]] as const)(
    'converts %s to a binary STL with one triangle per fan triangle', async (file, known) => {
      const design = await createDesign(service, owner);
      const content = fixture(`models/${file}`);
      const document = await upload(design.id, file, content);
      const triangles = fanTriangles(content.toString('utf8'));
      if (known !== null) expect(triangles).toBe(known);
      const stl = await bytesOf(await service.request('GET', document.stl_file.url!, { token: owner }));
      expectBinaryStl(stl, triangles);
      const zip = unzipSync(await bytesOf(await service.request('GET', document.stl_zip_file.url!, { token: owner })));
      const stlName = file.replace(/\.obj$/, '.stl');
      expect(Object.keys(zip)).toEqual([stlName]);
      expect(Buffer.from(zip[stlName]!)).toEqual(stl);
      const objZip = unzipSync(await bytesOf(await service.request('GET', document.obj_zip_file.url!, { token: owner })));
      expect(Buffer.from(objZip[file]!)).toEqual(content);
    },
  );

  it('computes facet normals of the converted box: unit length, pointing along an axis', async () => {
    const design = await createDesign(service, owner);
    const document = await upload(design.id, 'box.obj', fixture('models/box.obj'));
    const stl = await bytesOf(await service.request('GET', document.stl_file.url!, { token: owner }));
    for (let i = 0; i < 12; i++) {
      const normal = [0, 1, 2].map((k) => stl.readFloatLE(84 + i * 50 + k * 4));
      expect(Math.hypot(...normal)).toBeCloseTo(1, 5);
      expect(normal.filter((value) => Math.abs(value) > 0.99)).toHaveLength(1);
    }
  });

  it('answers 404 for an alternative format a document does not have', async () => {
    const design = await createDesign(service, owner);
    const document = await upload(design.id, 'notes.txt', Buffer.from('x'));
    const base = `/uploads/document/stl/${document.id}/notes.stl`;
    await json(await service.request('GET', base, { token: owner }), 404);
    await json(await service.request('GET', `/uploads/document/ctm/${document.id}/notes.ctm`, { token: owner }), 404);
  });

  it('zips all of a design\'s documents at documents_zip.url, and counts it as a design download', async () => {
    const design = await createDesign(service, owner);
    expect(design.documents_zip.url).toBeNull();
    const files: [string, Buffer][] = [
      ['cube.stl', fixture('models/cube.stl')], ['box.obj', fixture('models/box.obj')], ['notes.txt', Buffer.from('notes')],
      ['notes.txt', Buffer.from('second notes')], ['empty.txt', Buffer.alloc(0)], ['Übersicht.txt', Buffer.from('ü')],
    ];
    for (const [name, content] of files) await upload(design.id, name, content);
    const url = (await getDesign(service, owner, design.id)).documents_zip.url!;
    const response = await service.request('GET', url, { token: owner });
    expect(response.headers.get('content-type')).toBe('application/zip');
    const zip = unzipSync(await bytesOf(response));
    expect(Object.keys(zip).sort()).toEqual(['box.obj', 'cube.stl', 'empty.txt', 'notes (2).txt', 'notes.txt', 'Übersicht.txt'].sort());
    expect(Buffer.from(zip['cube.stl']!)).toEqual(files[0]![1]);
    expect(Buffer.from(zip['notes (2).txt']!).toString()).toBe('second notes');
    expect(zip['empty.txt']!.length).toBe(0);
    expect((await getDesign(service, owner, design.id)).download_count).toBe(1);
  });

  it('answers 404 JSON for the documents zip of a design without documents', async () => {
    const design = await createDesign(service, owner);
    expect(await json(await service.request('GET', `/uploads/design/documents_zip/${design.id}/${design.slug}.zip`, { token: owner }), 404))
      .toEqual({ error: 'This design has no documents' });
  });
});
