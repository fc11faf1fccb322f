import { readFileSync, statSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_RENDITIONS, type CreatedDocument, type Image, type PublicUser } from '../../shared';
import { storeAvatar } from '../../service/media/avatars';
import { AVATAR_RENDITION_SIZES } from '../../service/media/renditions';
import { expectEmpty, json } from '../support/conformance';
import { startTestService, type TestService } from '../../harness/local-service';
import { bytesOf, createDesign, fixture, tempLeftovers, uploadForm } from './upload-helpers';

const LIMIT = 64 * 1024;

/**
 * A child process generates `size` bytes on the fly and POSTs them as document[file] (the name field comes after
 * the file), streaming with fetch and a ReadableStream body. It reports the status, the body and the SHA-1 it sent.
 */
async function sendFromChildProcess(url: URL, size: number): Promise<{ status: number; body: string; sha1: string }> {
  const script = `
    const { createHash } = require('node:crypto');
    const [url, size] = [process.argv[1], Number(process.argv[2])];
    const boundary = 'design-sync-' + Date.now();
    const head = Buffer.from('--' + boundary + '\\r\\nContent-Disposition: form-data; name="document[file]"; filename="huge.bin"\\r\\n'
      + 'Content-Type: application/octet-stream\\r\\n\\r\\n');
    const tail = Buffer.from('\\r\\n--' + boundary + '\\r\\nContent-Disposition: form-data; name="document[name]"\\r\\n\\r\\nHuge scan\\r\\n--' + boundary + '--\\r\\n');
    const hash = createHash('sha1');
    let sent = 0, stage = 0;
    const body = new ReadableStream({ pull(controller) {
      if (stage === 0) { controller.enqueue(head); stage = 1; return; }
      if (stage === 1) {
        const chunk = Buffer.alloc(Math.min(1 << 20, size - sent), sent & 0xff);
        hash.update(chunk); sent += chunk.length; controller.enqueue(chunk);
        if (sent >= size) stage = 2;
        return;
      }
      controller.enqueue(tail); controller.close();
    } });
    fetch(url, { method: 'POST', body, duplex: 'half', headers: { 'content-type': 'multipart/form-data; boundary=' + boundary } })
      .then(async (response) => process.stdout.write(JSON.stringify({ status: response.status, body: await response.text(), sha1: hash.digest('hex') })))
      .catch((error) => { console.error(error); process.exit(1); });
  `;
  const child = spawn(process.execPath, ['-e', script, url.toString(), String(size)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => { output += text; });
  const [code] = (await once(child, 'close')) as [number];
  expect(code, output).toBe(0);
  return JSON.parse(output) as { status: number; body: string; sha1: string };
}

describe('upload size limit', () => {
  let service: TestService;
  let owner: string;
  beforeAll(async () => {
    service = await startTestService({ maxUploadBytes: LIMIT });
    owner = service.addUser('limited').token;
  });
  afterAll(() => service.stop());

  it('answers 413 JSON for a document over maxUploadBytes, stores nothing and leaves no temporary file', async () => {
    const design = await createDesign(service, owner);
    const response = await service.request('POST', `/v1/designs/${design.id}/documents`, {
      token: owner, body: uploadForm('document', 'big.bin', Buffer.alloc(LIMIT + 1, 7)),
    });
    expect((await json<{ error: string }>(response, 413)).error).toMatch(/larger than the limit of 65536 bytes/);
    expect(await json(await service.request('GET', `/v1/designs/${design.id}/documents`, { token: owner }), 200)).toEqual([]);
    expect(tempLeftovers(service)).toEqual([]);
  });

  it('answers 413 for an image over the limit (the 730 KB fixture)', async () => {
    const design = await createDesign(service, owner);
    const response = await service.request('POST', `/v1/designs/${design.id}/images`, {
      token: owner, body: uploadForm('image', 'large.jpg', fixture('images/jpg-large.jpg')),
    });
    await json(response, 413);
    expect(tempLeftovers(service)).toEqual([]);
  });

  it('accepts a file of exactly the limit', async () => {
    const design = await createDesign(service, owner);
    await json(await service.request('POST', `/v1/designs/${design.id}/documents`, {
      token: owner, body: uploadForm('document', 'exact.bin', Buffer.alloc(LIMIT, 1)),
    }), 201);
  });
});

describe('uploads and /uploads serving', () => {
  let service: TestService;
  let owner: string;
  beforeAll(async () => {
    service = await startTestService();
    owner = service.addUser('streamer').token;
  });
  afterAll(() => service.stop());

  it('streams a 300 MB document to disk without holding it in memory; the stored file and modelhash match', async () => {
    const design = await createDesign(service, owner);
    const size = 300 * 1024 * 1024;
    const url = new URL(`/v1/designs/${design.id}/documents?auth_token=${owner}`, service.url);
    // A first, smaller upload warms up what every upload needs once, so the measurement shows growth with size.
    expect((await sendFromChildProcess(url, 16 * 1024 * 1024)).status).toBe(201);
    // The sender runs in a child process, so only the service's memory counts in this process's RSS.
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
    const sent = await sendFromChildProcess(url, size);
    clearInterval(sampler);
    expect(sent.status, sent.body).toBe(201);
    const document = JSON.parse(sent.body) as CreatedDocument;
    const growth = (Math.max(peak, process.memoryUsage().rss) - before) / 1024 / 1024;
    expect(growth, `RSS grew by ${growth.toFixed(0)} MB`).toBeLessThan(100);
    expect(document.name).toBe('Huge scan');
    expect(document.modelhash).toBe(sent.sha1);
    const stored = join(service.dataDir, 'files', 'documents', String(document.id), 'file');
    expect(statSync(stored).size).toBe(size);
    await expectEmpty(await service.request('DELETE', `/v1/designs/${design.id}/documents/${document.id}`, { token: owner }), 204);
  }, 60_000);

  it('serves image originals with Range (206, 416) and HEAD', async () => {
    const design = await createDesign(service, owner);
    const content = fixture('images/png-sample.png');
    const image = await json<Image>(await service.request('POST', `/v1/designs/${design.id}/images`, {
      token: owner, body: uploadForm('image', 'range.png', content),
    }), 201);
    const url = image.file.url!;
    const head = await service.request('HEAD', url, { token: owner });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(content.length));
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    expect(head.headers.get('content-type')).toBe('image/png');
    expect(await head.text()).toBe('');
    const part = await service.request('GET', url, { token: owner, headers: { range: 'bytes=0-7' } });
    expect(part.headers.get('content-range')).toBe(`bytes 0-7/${content.length}`);
    expect(await bytesOf(part, 206)).toEqual(content.subarray(0, 8));
    const suffix = await service.request('GET', url, { token: owner, headers: { range: 'bytes=-10' } });
    expect(await bytesOf(suffix, 206)).toEqual(content.subarray(content.length - 10));
    const beyond = await service.request('GET', url, { token: owner, headers: { range: `bytes=${content.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${content.length}`);
    const etag = head.headers.get('etag')!;
    expect((await service.request('GET', url, { token: owner, headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('never reaches outside the file store, whatever the path', async () => {
    const design = await createDesign(service, owner);
    const document = await json<CreatedDocument>(await service.request('POST', `/v1/designs/${design.id}/documents`, {
      token: owner, body: uploadForm('document', 'a.txt', Buffer.from('a')),
    }), 201);
    const attempts = [
      `/uploads/document/file/${document.id}/..%2F..%2F..%2Fservice.sqlite`,
      `/uploads/document/file/${document.id}/%2e%2e`,
      `/uploads/document/file/..%2F${document.id}/a.txt`,
      `/uploads/image/file/${document.id}/..%2F..%2Fdocuments%2F${document.id}%2Ffile`,
      `/uploads/user/avatar/1/..%2F..%2F..%2Fservice.sqlite`,
      `/uploads/document/stl/${document.id}/..%2Ffile`,
      `/uploads/design/documents_zip/${design.id}/..%2F..%2Fservice.sqlite`,
    ];
    for (const path of attempts) {
      const response = await service.request('GET', path, { token: owner });
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toContain('SQLite');
    }
  });

  it('refuses an unknown auth_token on /uploads with 401', async () => {
    const design = await createDesign(service, owner, { publish: true });
    const document = await json<CreatedDocument>(await service.request('POST', `/v1/designs/${design.id}/documents`, {
      token: owner, body: uploadForm('document', 'a.txt', Buffer.from('a')),
    }), 201);
    await json(await service.request('GET', document.file.url!, { token: 'not-a-token' }), 401);
  });

  it('stores avatars (storeAvatar) and serves the avatar and its renditions as square JPEGs', async () => {
    const { user } = service.addUser('with-avatar');
    await storeAvatar(service.ctx, user.id, fixture('images/bmp-sample.bmp'));
    const read = await json<PublicUser>(await service.request('GET', `/v1/users/${user.id}`), 200);
    const main = await sharp(await bytesOf(await service.request('GET', read.avatar_file.url!))).metadata();
    expect({ format: main.format, width: main.width, height: main.height }).toEqual({ format: 'jpeg', width: 123, height: 456 });
    for (const rendition of AVATAR_RENDITIONS) {
      const meta = await sharp(await bytesOf(await service.request('GET', read.avatar_file[rendition].url!))).metadata();
      expect({ width: meta.width, height: meta.height }, rendition).toEqual({
        width: AVATAR_RENDITION_SIZES[rendition].width, height: AVATAR_RENDITION_SIZES[rendition].height,
      });
    }
    await expect(storeAvatar(service.ctx, user.id, fixture('images/gif-sample.gif'))).rejects.toThrow(/GIF/);
    expect(readFileSync(join(service.dataDir, 'files', 'avatars', String(user.id), 'avatar.jpg')).length).toBeGreaterThan(0);
  });
});
