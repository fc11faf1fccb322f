import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FileRead } from '../../../electron/engine/api/multipart-upload';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { startTestService, type TestService } from '../../../harness/local-service';

/**
 * An upload's file is read into two buffers in turn, each reused two chunks later, once the connection has the chunk
 * (streamed-body.ts). What arrives must still be the file, byte for byte: at the service's pace, and at a receiver that
 * reads slowly, so that chunks wait for the connection while the next ones are read.
 */
let service: TestService;
let token: string;
const dir = mkdtempSync(join(tmpdir(), 'design-sync-upload-body-'));
const servers: Server[] = [];
const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');
/** Several reads of a megabyte, and a last one shorter; more than the connection's buffers hold. */
const FILE_BYTES = 16 * 1024 * 1024 + 123_457;

beforeAll(async () => {
  service = await startTestService();
  token = service.addUser('uploader').token;
});
afterAll(async () => {
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/**
 * A service that reads nothing of a request's body for a while (the connection's buffers fill, the client's writes
 * wait), then takes it 64 KB at a time with pauses, and keeps what it got.
 */
async function slowReceiver(): Promise<{ url: string; bodies: Buffer[] }> {
  const bodies: Buffer[] = [];
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    const take = () => {
      const chunk = request.read(64 * 1024) as Buffer | null;
      if (chunk === null) return;
      parts.push(chunk);
      request.off('readable', take);
      setTimeout(() => {
        request.on('readable', take);
        take();
      }, 1);
    };
    setTimeout(() => request.on('readable', take), 300);
    request.on('end', () => {
      bodies.push(Buffer.concat(parts));
      response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 1, name: 'part.stl' }));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, bodies };
}

describe('the body of an upload', () => {
  it('carries the file byte for byte to the service, with the hash of what was sent', async () => {
    const client = new ServiceClient({ baseUrl: service.url, token: () => token, retry: { retries: 0 } });
    const design = await client.createDesign({ name: 'Part', excerpt: 'x' });
    const bytes = randomBytes(FILE_BYTES);
    const path = join(dir, 'part.stl');
    writeFileSync(path, bytes);
    let read: FileRead | null = null;
    await client.uploadDocument(design.id, { path, beforeLastBytes: (what) => void (read = what) }, { name: 'part.stl' });
    const [document] = await client.listDocuments(design.id);
    expect(read).toMatchObject({ sha1: sha1(bytes), size: FILE_BYTES });
    expect(document!.modelhash).toBe(sha1(bytes));
  });

  it('carries the file byte for byte to a receiver that reads slowly', async () => {
    const receiver = await slowReceiver();
    const client = new ServiceClient({ baseUrl: receiver.url, token: () => 'token', retry: { retries: 0 } });
    const bytes = randomBytes(FILE_BYTES);
    const path = join(dir, 'slow.stl');
    writeFileSync(path, bytes);
    await client.uploadDocument(1, { path }, { name: 'slow.stl' });
    const [body] = receiver.bodies;
    const at = body!.indexOf(bytes.subarray(0, 64));
    expect(at).toBeGreaterThan(0);
    expect(sha1(body!.subarray(at, at + FILE_BYTES))).toBe(sha1(bytes));
    expect(body!.subarray(at + FILE_BYTES).toString('latin1')).toMatch(/^\r\n--[^\r\n]+--\r\n(\r\n)?$/);
  }, 30_000);
});
