import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Outcome } from '../../shared';
import type { ContractEndpoint, EventMessage } from '../../electron/engine/contract/contract-endpoint';
import { startWindowHost, type WindowHost } from '../../electron/window-host/window-host';
import { cookieFrom } from '../contract/contract-client';

/** An endpoint that answers from a table: these tests are about the host, the real engine's are in test/contract. */
function tableEndpoint(files: Record<string, string>): ContractEndpoint & { emit(event: EventMessage): void } {
  const listeners = new Set<(event: EventMessage) => void>();
  return {
    async handle(name, input): Promise<Outcome<unknown>> {
      if (name === 'account.get') return { ok: true, value: { echo: input } };
      return { ok: false, problem: { kind: 'unknown-request', message: `There is no request ${String(name)}.` } };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async file(address) {
      const path = files[address];
      return path ? { path, contentType: 'image/png', size: 4 } : null;
    },
    emit(event) {
      for (const listener of listeners) listener(event);
    },
  };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so that Host and other headers can be anything (fetch will not let a test set Host). */
function raw(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Tries a WebSocket upgrade; resolves with 'open' or the HTTP status it was refused with. */
function upgrade(port: number, headers: Record<string, string>): Promise<{ opened: WebSocket | null; status: number | null }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/contract`, { headers });
    socket.once('open', () => resolve({ opened: socket, status: null }));
    socket.once('unexpected-response', (_req, res) => resolve({ opened: null, status: res.statusCode ?? null }));
    socket.once('error', () => resolve({ opened: null, status: null }));
  });
}

let host: WindowHost;
let endpoint: ReturnType<typeof tableEndpoint>;
let cookie: string;
let staticDir: string;
let origin: string;

beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'design-sync-window-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>window</title><script src="/assets/app.js"></script>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log("window")');
  writeFileSync(join(staticDir, '..', 'outside-secret.txt'), 'must not be served');
  writeFileSync(join(staticDir, 'thumb.png'), 'PNG!');
  endpoint = tableEndpoint({ '/files/images/1/grid': join(staticDir, 'thumb.png') });
  host = await startWindowHost({ endpoint, port: 0, staticDir });
  origin = host.origin;
  cookie = await cookieFrom(host.url);
});

afterAll(async () => {
  await host.close();
  rmSync(staticDir, { recursive: true, force: true });
  rmSync(join(staticDir, '..', 'outside-secret.txt'), { force: true });
});

describe('the window host', () => {
  it('listens on 127.0.0.1 only, and prints an address holding a long secret', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?secret=[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a request without the secret or its cookie', async () => {
    const answer = await raw(host.port, '/');
    expect(answer.status).toBe(403);
    expect(answer.body).toMatch(/Open the full address that <code>design-sync ui<\/code> printed/);
    expect((await raw(host.port, '/?secret=wrong')).status).toBe(403);
    expect((await raw(host.port, '/', { cookie: `${cookie.split('=')[0]}=guessed` })).status).toBe(403);
  });

  it('turns the secret into an HttpOnly SameSite=Strict cookie and takes it out of the address', async () => {
    const path = host.url.slice(origin.length);
    const answer = await raw(host.port, path);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/');
    expect(String(answer.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict; Path=\//);
    expect((await raw(host.port, '/', { cookie })).status).toBe(200);
  });

  it('refuses a wrong Host header (DNS rebinding), even with the cookie', async () => {
    const answer = await raw(host.port, '/', { cookie, host: `evil.example:${host.port}` });
    expect(answer.status).toBe(421);
    expect((await raw(host.port, '/', { cookie, host: `127.0.0.1:${host.port + 1}` })).status).toBe(421);
  });

  it('serves the window with a strict CSP and no CORS, and only GET and HEAD', async () => {
    const answer = await raw(host.port, '/', { cookie, origin: 'http://evil.example' });
    expect(answer.body).toContain('<title>window</title>');
    const csp = String(answer.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect((await raw(host.port, '/assets/app.js', { cookie })).headers['content-type']).toMatch(/text\/javascript/);
    const preflight = await raw(host.port, '/', { cookie, origin: 'http://evil.example', 'access-control-request-method': 'POST' }, 'OPTIONS');
    expect(preflight.status).toBe(405);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect((await raw(host.port, '/', { cookie }, 'POST')).status).toBe(405);
  });

  it('never serves a file outside the window build', async () => {
    for (const path of ['/../outside-secret.txt', '/%2e%2e/outside-secret.txt', '/assets/..%2f..%2foutside-secret.txt', '/%00']) {
      const answer = await raw(host.port, path, { cookie });
      expect(answer.status, path).toBe(404);
      expect(answer.body).not.toContain('must not be served');
    }
  });

  it('serves file addresses through the engine, and 404s what it does not know', async () => {
    const served = await raw(host.port, '/files/images/1/grid', { cookie });
    expect(served).toMatchObject({ status: 200, body: 'PNG!' });
    expect(served.headers['content-type']).toBe('image/png');
    expect((await raw(host.port, '/files/images/2/grid', { cookie })).status).toBe(404);
    expect((await raw(host.port, '/files/images/1/grid')).status).toBe(403);
  });

  it('refuses a WebSocket from a foreign Origin, without an Origin, without the cookie, or with a wrong Host', async () => {
    expect(await upgrade(host.port, { cookie, origin: 'http://evil.example' })).toMatchObject({ opened: null, status: 403 });
    expect(await upgrade(host.port, { cookie })).toMatchObject({ opened: null, status: 403 });
    expect(await upgrade(host.port, { origin })).toMatchObject({ opened: null, status: 403 });
    expect(await upgrade(host.port, { cookie, origin, host: `evil.example:${host.port}` })).toMatchObject({ opened: null, status: 403 });
  });

  it('carries requests, refusals of malformed frames, and events over an accepted WebSocket', async () => {
    const { opened } = await upgrade(host.port, { cookie, origin });
    expect(opened).not.toBeNull();
    const socket = opened!;
    const messages: unknown[] = [];
    const next = () => new Promise<unknown>((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));

    let answer = next();
    socket.send(JSON.stringify({ type: 'request', id: 1, name: 'account.get', input: { a: 1 } }));
    expect(await answer).toEqual({ type: 'response', id: 1, outcome: { ok: true, value: { echo: { a: 1 } } } });

    answer = next();
    socket.send(JSON.stringify({ type: 'request', id: 2, name: 42, input: {} }));
    expect(await answer).toMatchObject({ id: 2, outcome: { ok: false, problem: { kind: 'validation', fieldErrors: { name: [expect.any(String)] } } } });

    answer = next();
    socket.send(JSON.stringify({ type: 'request', id: 3, name: 'account.get', input: {}, extra: true }));
    expect(await answer).toMatchObject({ id: 3, outcome: { ok: false, problem: { kind: 'validation', fieldErrors: { extra: ['is not a known field'] } } } });

    answer = next();
    endpoint.emit({ type: 'event', name: 'connectivity', payload: { online: false, reason: 'gone', since: new Date(0).toISOString() } });
    expect(await answer).toEqual({ type: 'event', name: 'connectivity', payload: { online: false, reason: 'gone', since: '1970-01-01T00:00:00.000Z' } });

    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('x'.repeat(1024 * 1024 + 1));
    expect(await closed).toBe(1009);
  });
});
