import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appProtocolHandler } from '../../electron/shell/protocol/app-protocol';
import { appDropHandler } from '../../electron/shell/protocol/drop-handler';
import { appResponseHeaders } from '../../electron/shell/window/content-security-policy';
import { tempDir } from '../engine/cache/cache-fixtures';

// The code under test needs only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

let root: string;
let renderer: string;
let incoming: string;
let cached: string;
const adopted: { designId: number; fileName: string; stagedPath: string }[] = [];
let handler: (request: Request) => Promise<Response>;

beforeAll(() => {
  root = tempDir('app-protocol');
  renderer = join(root, 'renderer');
  incoming = join(root, 'incoming');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>design-sync</title>');
  writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(root, 'secret.txt'), 'not for the window');
  symlinkSync(join(root, 'secret.txt'), join(renderer, 'assets', 'link.js'));
  cached = join(root, 'cached.jpg');
  writeFileSync(cached, Buffer.alloc(2048, 7));
  handler = appProtocolHandler({
    rendererDir: renderer,
    headers: appResponseHeaders(),
    file: async (address) => (address === '/files/images/1/large' ? { path: cached, contentType: 'image/jpeg', size: 2048 } : null),
    drop: appDropHandler({
      incomingDir: incoming,
      headers: appResponseHeaders(),
      maxBytes: 1024,
      adopt: async (drop) => {
        adopted.push(drop);
        return drop.designId === 404
          ? { ok: false, problem: { kind: 'not-found', message: 'There is no design 404 on the service.', words: { id: 'engine.refusal.ownDesign.noSuchDesign', values: { id: 404 } } } }
          : { ok: true, value: { fileName: drop.fileName } };
      },
    }),
  });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const get = (url: string, init?: RequestInit) => handler(new Request(url, init));

describe('the app:// protocol', () => {
  it('serves the window from its build, with the CSP on every answer', async () => {
    const page = await get('app://window/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(await page.text()).toMatch(/design-sync/);
    const missing = await get('app://window/nothing.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
  });

  it('refuses paths out of the build, symbolic links out of it, other hosts and other methods', async () => {
    for (const url of ['app://window/../secret.txt', 'app://window/%2e%2e/secret.txt', 'app://window/assets/link.js', 'app://other/index.html']) {
      expect((await get(url)).status, url).toBe(404);
    }
    expect((await get('app://window/index.html', { method: 'POST', body: 'x' })).status).toBe(405);
  });

  it('serves a contract file address from the engine\'s file cache, and nothing else under /files/', async () => {
    const file = await get('app://window/files/images/1/large');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-length')).toBe('2048');
    expect((await file.arrayBuffer()).byteLength).toBe(2048);
    expect((await get('app://window/files/images/2/large')).status).toBe(404);
  });

  it('takes a dropped file with its header, stages it and hands it to the engine', async () => {
    const response = await get('app://window/drops/designs/12/gear%20v2.stl', { method: 'PUT', body: 'solid gear', headers: { 'x-design-sync-drop': '1' } });
    expect(response.status).toBe(201);
    expect(adopted.at(-1)).toMatchObject({ designId: 12, fileName: 'gear v2.stl' });
    expect(adopted.at(-1)!.stagedPath.startsWith(incoming)).toBe(true);
  });

  it('refuses a drop without its header, with a bad name, too large, or one the engine refuses, saying why', async () => {
    const before = adopted.length;
    const noHeader = await get('app://window/drops/designs/12/a.stl', { method: 'PUT', body: 'x' });
    expect(noHeader.status).toBe(403);
    const badName = await get('app://window/drops/designs/12/..%2Fescape.stl', { method: 'PUT', body: 'x', headers: { 'x-design-sync-drop': '1' } });
    expect(badName.status).toBe(400);
    // The reason in English and as facts, for the window to say it in the person's language.
    expect(await badName.json()).toEqual({ problem: {
      kind: 'validation', message: '../escape.stl: a file name cannot contain / or \\ (drop the files themselves, not a path).',
      words: { id: 'engine.refusal.dropName.path', values: { file: '../escape.stl' } },
    } });
    const tooLarge = await get('app://window/drops/designs/12/big.stl', { method: 'PUT', body: Buffer.alloc(4096), headers: { 'x-design-sync-drop': '1' } });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ problem: {
      kind: 'validation', message: 'The file is larger than 1 KB, the most one drop takes: put it in the design\'s folder in the sync folder instead.',
      words: { id: 'engine.refusal.drop.tooLarge', values: { limit: { id: 'format.bytesRounded.kb', values: { value: 1 } } } },
    } });
    expect(adopted.length).toBe(before);
    expect(readdirSync(incoming).filter((name) => name.startsWith('drop-'))).toHaveLength(1);
    const refused = await get('app://window/drops/designs/404/a.stl', { method: 'PUT', body: 'x', headers: { 'x-design-sync-drop': '1' } });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ problem: { kind: 'not-found', message: 'There is no design 404 on the service.', words: { id: 'engine.refusal.ownDesign.noSuchDesign', values: { id: 404 } } } });
    expect((await get('app://window/drops/designs/12/a.stl')).status).toBe(405);
  });
});
