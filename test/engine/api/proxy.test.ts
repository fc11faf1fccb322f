import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configureProxy, routeFor } from '../../../electron/engine/api/proxy-agents';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { isServiceError } from '../../../electron/engine/api/service-error';
import { redactSecrets } from '../../../electron/engine/log/redact';
import { Connectivity } from '../../../electron/engine/runtime/connectivity';
import { syncReasonWords } from '../../../shared/sync/sync-state-words';
import { closedPort } from '../../support/free-port';
import { startTestService, type TestService } from '../../../harness/local-service';
import { startRecordingProxy } from '../../../harness/recording-proxy';
import type { ServiceProblem } from '../../../shared';

const FIXTURES = join(import.meta.dirname, '../../fixtures/images');
const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'all_proxy', 'no_proxy'];

let service: TestService;
let token: string;
/** The service as only the proxy knows it: a request that reaches it went through the proxy. */
let hiddenUrl: string;
const saved = new Map<string, string | undefined>();

beforeAll(async () => {
  service = await startTestService();
  token = service.addUser('maker').token;
  hiddenUrl = `http://designs.test:${service.port}`;
  // The service names its files at the address it is asked at: so file downloads go through the proxy too.
  service.ctx.origin = hiddenUrl;
});
afterAll(async () => {
  await service.stop();
});
beforeEach(() => {
  for (const name of PROXY_VARIABLES) {
    saved.set(name, process.env[name]);
    delete process.env[name];
  }
  configureProxy({ mode: 'system' });
});
afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  configureProxy({ mode: 'system' });
});

function client(baseUrl = hiddenUrl): ServiceClient {
  return new ServiceClient({ baseUrl, token: () => token, retry: { retries: 0 } });
}

async function problemOf(promise: Promise<unknown>): Promise<ServiceProblem> {
  try {
    await promise;
  } catch (error) {
    if (isServiceError(error)) return error.problem;
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('requests to the service through a proxy', () => {
  it('go through HTTP_PROXY: a listing, an upload and a file download, each recorded by the proxy', async () => {
    const proxy = await startRecordingProxy({ hosts: { 'designs.test': '127.0.0.1' } });
    try {
      process.env.HTTP_PROXY = proxy.url;
      const api = client();
      const design = await api.createDesign({ name: 'Proxied gear', excerpt: 'Through a proxy', license: 'cc0' });
      const document = await api.uploadDocument(design.id, { path: join(FIXTURES, 'png-sample.png'), fileName: 'gear.stl' });
      const listed = await api.listDocuments(design.id);
      const fileUrl = new URL(listed.find((one) => one.id === document.id)!.file.url!, hiddenUrl);
      expect(fileUrl.host).toBe(`designs.test:${service.port}`);
      const downloaded = Buffer.from(await (await api.download(fileUrl.href)).arrayBuffer());
      expect(downloaded.equals(readFileSync(join(FIXTURES, 'png-sample.png')))).toBe(true);

      const lines = proxy.records.map((record) => record.line);
      expect(lines.some((line) => line.startsWith(`POST ${hiddenUrl}/v1/designs`))).toBe(true);
      expect(lines.some((line) => new RegExp(`^POST ${hiddenUrl}/v1/designs/\\d+/documents`).test(line))).toBe(true);
      expect(lines.some((line) => line.startsWith(`GET ${fileUrl.href}`))).toBe(true);
      expect(proxy.records.every((record) => record.proxyAuthorization === null)).toBe(true);
    } finally {
      await proxy.stop();
    }
  });

  it('go direct to an address NO_PROXY names, and to loopback whatever the environment says', async () => {
    const proxy = await startRecordingProxy({ hosts: { 'designs.test': '127.0.0.1' } });
    try {
      process.env.HTTP_PROXY = proxy.url;
      process.env.NO_PROXY = 'designs.test';
      await expect(client().listDesigns()).rejects.toThrow(/cannot be reached/); // designs.test resolves nowhere but in the proxy
      delete process.env.NO_PROXY;
      await client(service.url).listDesigns();
      expect(proxy.records).toEqual([]);
      await client().listDesigns();
      expect(proxy.records.length).toBe(1);
    } finally {
      await proxy.stop();
    }
  });

  it('tunnel https addresses with CONNECT through HTTPS_PROXY', async () => {
    const proxy = await startRecordingProxy({ hosts: { 'designs.test': '127.0.0.1' } });
    try {
      process.env.HTTPS_PROXY = proxy.url;
      // The service speaks plain HTTP, so the TLS handshake inside the tunnel fails: what counts is that the tunnel was asked.
      await problemOf(client(`https://designs.test:${service.port}`).listDesigns());
      expect(proxy.records.map((record) => record.line)).toEqual([`CONNECT designs.test:${service.port}`]);
    } finally {
      await proxy.stop();
    }
  });

  it('use the manual proxy with its user name and password, sent as Proxy-Authorization', async () => {
    const proxy = await startRecordingProxy({ hosts: { 'designs.test': '127.0.0.1' }, credentials: { username: 'ana', password: 'p@ss word:1' } });
    try {
      configureProxy({ mode: 'manual', manualUrl: proxy.shown, username: 'ana', password: 'p@ss word:1' });
      process.env.HTTP_PROXY = 'http://127.0.0.1:9'; // the manual proxy wins over the environment
      await client().listDesigns();
      expect(proxy.records.map((record) => [record.proxyAuthorization, record.refusedWith])).toEqual([[`Basic ${Buffer.from('ana:p@ss word:1').toString('base64')}`, null]]);
    } finally {
      await proxy.stop();
    }
  });

  it('say that the proxy asks for a user name and password, or did not accept them, naming it', async () => {
    const proxy = await startRecordingProxy({ hosts: { 'designs.test': '127.0.0.1' }, credentials: { username: 'ana', password: 'right' } });
    try {
      process.env.HTTP_PROXY = proxy.url;
      const asked = await problemOf(client().listDesigns());
      expect(asked.message).toBe(`The proxy ${proxy.shown} asks for a user name and password; give them in Settings → Proxy (or as http://user:password@${proxy.shown} in HTTPS_PROXY or --proxy).`);

      configureProxy({ mode: 'manual', manualUrl: proxy.url, username: 'ana', password: 'wrong' });
      const refused = await problemOf(client().listDesigns());
      expect(refused.message).toMatch(new RegExp(`^The proxy ${proxy.shown} did not accept the user name and password; check the proxy in Settings`));
      expect(refused.message).not.toContain('wrong');

      process.env.HTTPS_PROXY = proxy.url;
      configureProxy({ mode: 'system' });
      const tunnel = await problemOf(client(`https://designs.test:${service.port}`).listDesigns());
      expect(tunnel.message).toMatch(new RegExp(`^The proxy ${proxy.shown} asks for a user name and password`));
    } finally {
      await proxy.stop();
    }
  });

  it('say that the proxy refused the connection, or a tunnel, or cannot be found, naming it rather than the service', async () => {
    const port = await closedPort();
    process.env.HTTP_PROXY = `http://127.0.0.1:${port}`;
    const refused = await problemOf(client().listDesigns());
    expect(refused).toMatchObject({ kind: 'offline' });
    expect(refused.message).toMatch(new RegExp(`^The proxy 127.0.0.1:${port} refused the connection .*HTTPS_PROXY / HTTP_PROXY`));
    expect(refused.message).not.toMatch(/service cannot be reached/);

    configureProxy({ mode: 'manual', manualUrl: 'proxy.invalid:3128' });
    const unknown = await problemOf(client().listDesigns());
    expect(unknown.message).toMatch(/^The proxy proxy\.invalid:3128 cannot be found \(its name does not resolve\); check the proxy in Settings → Proxy/);

    const proxy = await startRecordingProxy({ refuseTunnelsWith: 403 });
    try {
      configureProxy({ mode: 'manual', manualUrl: proxy.url });
      const tunnel = await problemOf(client(`https://designs.test:${service.port}`).listDesigns());
      expect(tunnel.message).toMatch(new RegExp(`^The proxy ${proxy.shown} refused to connect to designs.test:${service.port} \\(it answered 403\\)`));
    } finally {
      await proxy.stop();
    }
  });

  it("make the sync state say the proxy's words rather than that the service cannot be reached", async () => {
    const proxy = await startRecordingProxy({ hosts: { 'designs.test': '127.0.0.1' }, credentials: { username: 'ana', password: 'right' } });
    try {
      process.env.HTTP_PROXY = proxy.url;
      const asked = await problemOf(client().listDesigns());
      // Not reached, nothing applied: the engine waits for the way back (new settings) instead of failing the work.
      expect(asked).toMatchObject({ kind: 'offline', maybeApplied: false, proxy: true });
      const connectivity = new Connectivity();
      connectivity.noticeProblem(asked);
      expect(connectivity.state).toMatchObject({ online: false, proxyProblem: asked.message });
      const words = syncReasonWords({
        reasonCode: 'service-unreachable', detail: connectivity.state.proxyProblem ?? null, serviceUrl: hiddenUrl, folder: null, until: null,
        counts: { waiting: 0, running: 0, attention: 0, failed: 0, done: 0, cancelled: 0 } as never,
      });
      expect(words).toBe(`${asked.message} Changes are kept and sent when it is back.`);
      expect(words).not.toMatch(/service .* cannot be reached/);
    } finally {
      await proxy.stop();
    }
  });

  it("keep a proxy address's password out of the engine log, however short", () => {
    expect(redactSecrets('through http://ana:pw1@proxy.example:3128/ and https://bob:x%40y@corp:8080 failed'))
      .toBe('through http://ana:[redacted]@proxy.example:3128/ and https://bob:[redacted]@corp:8080 failed');
  });

  it('come from the system proxy the shell resolved only when the environment names none', () => {
    const target = new URL('https://designs.example/v1/designs');
    expect(routeFor(target, { mode: 'system', systemProxy: 'http://corp:8080' }, {})?.shown).toBe('corp:8080');
    expect(routeFor(target, { mode: 'system', systemProxy: 'http://corp:8080' }, { https_proxy: 'http://env:3128' })?.shown).toBe('env:3128');
    expect(routeFor(target, { mode: 'system', systemProxy: 'http://corp:8080' }, { HTTPS_PROXY: 'http://env:3128', NO_PROXY: '.example' })).toBeNull();
    expect(routeFor(target, { mode: 'none', systemProxy: 'http://corp:8080' }, { HTTPS_PROXY: 'http://env:3128' })).toBeNull();
    expect(routeFor(new URL('http://localhost:4010/v1'), { mode: 'manual', manualUrl: 'corp:8080' }, {})).toBeNull();
    expect(routeFor(new URL('http://[::1]:4010/v1'), { mode: 'system' }, { HTTP_PROXY: 'http://env:3128' })).toBeNull();
    expect(() => routeFor(target, { mode: 'manual', manualUrl: 'socks5://ana:secret@corp:1080' }, {})).toThrow(/^The proxy corp:1080 uses socks5/);
  });
});
