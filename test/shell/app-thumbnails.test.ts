import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appProtocolHandler } from '../../electron/shell/protocol/app-protocol';
import { appThumbnailHandler } from '../../electron/shell/protocol/thumbnail-handler';
import { appResponseHeaders } from '../../electron/shell/window/content-security-policy';
import { tempDir } from '../engine/cache/cache-fixtures';

// The code under test needs only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

const PICTURE = readFileSync(join(import.meta.dirname, '../fixtures/images/png-sample.png'));

let root: string;
let incoming: string;
const adopted: { designId: number; documentId: number; bytes: Buffer }[] = [];
let handler: (request: Request) => Promise<Response>;

beforeAll(() => {
  root = tempDir('app-thumbnails');
  incoming = join(root, 'incoming');
  handler = appProtocolHandler({
    rendererDir: join(root, 'renderer'),
    headers: appResponseHeaders(),
    file: async () => null,
    thumbnail: appThumbnailHandler({
      incomingDir: incoming,
      headers: appResponseHeaders(),
      adopt: async ({ designId, documentId, stagedPath }) => {
        adopted.push({ designId, documentId, bytes: readFileSync(stagedPath) });
        rmSync(stagedPath);
        return designId === 404
          ? { ok: false, problem: { kind: 'not-found', message: 'There is no design 404 in the cache.' } }
          : { ok: true, value: { thumbnailUrl: `/files/generated/${designId}/1` } };
      },
    }),
  });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const put = (path: string, body: Buffer, headers: Record<string, string> = { 'x-design-sync-thumbnail': '1', 'content-type': 'image/png' }) =>
  handler(new Request(`app://window${path}`, { method: 'PUT', body, headers }));

describe('a picture drawn from a design\'s model, in the Electron window (app://)', () => {
  it('is staged and handed to the engine, which answers its address', async () => {
    const answer = await put('/thumbnails/designs/7/12', PICTURE);
    expect(answer.status).toBe(201);
    expect(await answer.json()).toEqual({ thumbnailUrl: '/files/generated/7/1' });
    expect(adopted.at(-1)).toEqual({ designId: 7, documentId: 12, bytes: PICTURE });
    expect(answer.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
  });

  it('is refused, with the window host\'s words, without the header, as another type, too large, at a bad address, or when the engine refuses it', async () => {
    const before = adopted.length;
    expect((await put('/thumbnails/designs/7/12', PICTURE, { 'content-type': 'image/png' })).status).toBe(403);
    expect((await put('/thumbnails/designs/7/12', PICTURE, { 'x-design-sync-thumbnail': '1', 'content-type': 'text/plain' })).status).toBe(415);
    expect((await put('/thumbnails/designs/7/x', PICTURE)).status).toBe(400);
    const tooLarge = await put('/thumbnails/designs/7/12', Buffer.alloc(2 * 1024 ** 2 + 1));
    expect([tooLarge.status, await tooLarge.json()]).toEqual([413, { problem: { kind: 'validation', message: 'The picture is larger than 2 MiB, the most a generated thumbnail may be.' } }]);
    expect(adopted.length).toBe(before);
    const unknown = await put('/thumbnails/designs/404/12', PICTURE);
    expect([unknown.status, await unknown.json()]).toEqual([404, { problem: { kind: 'not-found', message: 'There is no design 404 in the cache.' } }]);
    expect((await handler(new Request('app://window/thumbnails/designs/7/12'))).status).toBe(405);
    expect(readdirSync(incoming)).toEqual([]);
  });
});
