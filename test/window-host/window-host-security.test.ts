import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWindowHost, type WindowHost } from '../../electron/window-host/window-host';
import { cookieOf, deadline, fakeEndpoint, raw } from './host-fixtures';

let host: WindowHost;
let cookie: string;
let root: string;
let staticDir: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'design-sync-window-host-'));
  staticDir = join(root, 'window');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>window</title><script src="/assets/app.js"></script>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log("window")');
  writeFileSync(join(root, 'outside-secret.txt'), 'must not be served');
  symlinkSync(join(root, 'outside-secret.txt'), join(staticDir, 'linked.txt'));
  writeFileSync(join(root, 'thumb.png'), 'PNG!');
  const endpoint = fakeEndpoint({ '/files/images/1/grid': { path: join(root, 'thumb.png'), size: 4 } });
  host = await startWindowHost({ endpoint, port: 0, staticDir });
  cookie = await cookieOf(host.port, host.url);
});

afterAll(async () => {
  await host?.close();
  rmSync(root, { recursive: true, force: true });
});

/** Whether a TCP connection to address:port is accepted. */
function accepts(address: string, port: number): Promise<boolean> {
  return deadline(new Promise((resolve) => {
    const socket = connect({ host: address, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  }), 5000, `no answer from ${address}`);
}

describe('the window host over HTTP', () => {
  it('listens on 127.0.0.1 only, and prints an address holding a 32-byte secret', async () => {
    expect(host.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${host.port}/\\?secret=[A-Za-z0-9_-]{43}$`));
    expect(host.origin).toBe(`http://127.0.0.1:${host.port}`);
    expect(await accepts('127.0.0.1', host.port)).toBe(true);
    // Listening on :: or 0.0.0.0 would accept these too.
    const others = ['::1', ...Object.values(networkInterfaces()).flat()
      .filter((nic) => nic && !nic.internal && !nic.address.startsWith('fe80:')).map((nic) => nic!.address)];
    for (const address of others) expect(await accepts(address, host.port), address).toBe(false);
  });

  it('refuses a request without the secret or its cookie, saying to open the printed address', async () => {
    const answer = await raw(host.port, '/');
    expect(answer.status).toBe(403);
    expect(answer.body).toMatch(/Open the full address that <code>design-sync ui<\/code> printed/);
    expect((await raw(host.port, '/?secret=wrong')).status).toBe(403);
    expect((await raw(host.port, '/assets/app.js')).status).toBe(403);
    expect((await raw(host.port, '/', { cookie: `${cookie.split('=')[0]}=guessed` })).status).toBe(403);
    // The secret itself is not the cookie.
    expect((await raw(host.port, '/', { cookie: `${cookie.split('=')[0]}=${new URL(host.url).searchParams.get('secret')}` })).status).toBe(403);
  });

  it('turns the secret into an HttpOnly SameSite=Strict cookie and redirects to the address without it', async () => {
    const answer = await raw(host.port, host.url.slice(host.origin.length));
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe(`${host.origin}/`);
    const setCookie = String(answer.headers['set-cookie']);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).not.toContain(new URL(host.url).searchParams.get('secret')!);
    expect((await raw(host.port, '/', { cookie })).status).toBe(200);
    const deeper = await raw(host.port, `/assets/app.js?v=2&secret=${new URL(host.url).searchParams.get('secret')}`);
    expect(deeper.headers.location).toBe(`${host.origin}/assets/app.js?v=2`);
  });

  it('never redirects to another host, whatever the path', async () => {
    const secret = new URL(host.url).searchParams.get('secret')!;
    const answer = await raw(host.port, `//evil.example/x?secret=${secret}`);
    expect(answer.status).toBe(303);
    expect(new URL(String(answer.headers.location)).origin).toBe(host.origin);
    expect((await raw(host.port, '//evil.example/', { cookie })).status).toBe(404);
  });

  it('refuses a wrong Host header (DNS rebinding), even with the cookie', async () => {
    for (const name of [`evil.example:${host.port}`, `127.0.0.1:${host.port + 1}`, '127.0.0.1', `127.0.0.1.nip.io:${host.port}`]) {
      const answer = await raw(host.port, '/', { cookie, host: name });
      expect(answer.status, name).toBe(421);
      expect(answer.body).not.toContain('<title>window</title>');
    }
    const local = await raw(host.port, '/', { cookie, host: `localhost:${host.port}` });
    expect(local.status).toBe(200);
    expect(local.headers['content-security-policy']).toContain(`connect-src 'self' ws://localhost:${host.port};`);
  });

  it('serves the window with a strict CSP and the other security headers, and no CORS at all', async () => {
    const answer = await raw(host.port, '/', { cookie, origin: 'http://evil.example' });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<title>window</title>');
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['content-security-policy']).toBe(
      `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self' ws://127.0.0.1:${host.port}; `
      + "worker-src 'self'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(answer.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    const refused = await raw(host.port, '/');
    expect(refused.headers['content-security-policy']).toContain("default-src 'self'");
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers only GET and HEAD; a CORS preflight gets no Access-Control headers', async () => {
    const preflight = await raw(host.port, '/', { cookie, origin: 'http://evil.example', 'access-control-request-method': 'POST' }, 'OPTIONS');
    expect(preflight.status).toBe(405);
    expect(Object.keys(preflight.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) expect((await raw(host.port, '/', { cookie }, method)).status, method).toBe(405);
    const head = await raw(host.port, '/assets/app.js', { cookie }, 'HEAD');
    expect(head).toMatchObject({ status: 200, body: '' });
    expect(head.headers['content-length']).toBe(String('console.log("window")'.length));
  });

  it('serves the window\'s files with their types, and no directory listing', async () => {
    const script = await raw(host.port, '/assets/app.js', { cookie });
    expect(script).toMatchObject({ status: 200, body: 'console.log("window")' });
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await raw(host.port, '/assets/', { cookie })).status).toBe(404);
    expect((await raw(host.port, '/assets', { cookie })).status).toBe(404);
  });

  it('never serves a file outside the window build', async () => {
    const paths = [
      '/../outside-secret.txt', '/%2e%2e/outside-secret.txt', '/assets/%2e%2e/%2e%2e/outside-secret.txt', '/assets/..%2f..%2foutside-secret.txt',
      '/..%5coutside-secret.txt', '/%00', '/linked.txt', '/%E0%A4%A',
    ];
    for (const path of paths) {
      const answer = await raw(host.port, path, { cookie });
      expect([400, 404], path).toContain(answer.status);
      expect(answer.body, path).not.toContain('must not be served');
    }
    const traversal = await raw(host.port, '/../package.json', { cookie });
    expect(traversal.status).toBe(404);
    expect(traversal.body).not.toContain('"name"');
  });

  it('serves file addresses through the endpoint, privately cached, and 404s what it does not know', async () => {
    const served = await raw(host.port, '/files/images/1/grid', { cookie });
    expect(served).toMatchObject({ status: 200, body: 'PNG!' });
    expect(served.headers).toMatchObject({ 'content-type': 'image/png', 'content-length': '4' });
    expect(served.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    const head = await raw(host.port, '/files/images/1/grid', { cookie }, 'HEAD');
    expect(head).toMatchObject({ status: 200, body: '' });
    expect(head.headers['content-length']).toBe('4');
    const missing = await raw(host.port, '/files/images/2/grid', { cookie });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(missing.body).toMatch(/No such file/);
    expect((await raw(host.port, '/files/images/1/grid')).status).toBe(403);
  });
});
