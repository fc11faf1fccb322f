import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configureProxy } from '../../electron/engine/api/proxy-agents';
import { ServiceClient } from '../../electron/engine/api/service-client';
import { engineLogPath } from '../../electron/engine/log/engine-log';
import { runCliCapturing } from '../support/cli';
import { startTestService, type TestService } from '../../harness/local-service';
import { startRecordingProxy } from '../../harness/recording-proxy';
import { tempDir } from './cache/cache-fixtures';

const FIXTURES = join(import.meta.dirname, '../fixtures/images');
const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'all_proxy', 'no_proxy'];
const PASSWORD = 'pr0xy-secret-word';

let service: TestService;
/** The service as only the proxy knows it: a pull that succeeds went through the proxy. */
let hiddenUrl: string;
let profile: string;
const saved = new Map<string, string | undefined>();

beforeAll(async () => {
  service = await startTestService();
  const { token } = service.addUser('maker');
  const api = new ServiceClient({ baseUrl: service.url, token: () => token, retry: { retries: 1, minDelayMs: 5, maxDelayMs: 10 } });
  const gear = await api.createDesign({ name: 'Gear', excerpt: 'A spur gear', license: 'cc0' });
  await api.uploadImage(gear.id, { path: join(FIXTURES, 'jpg-sample.jpg') });
  await api.publishDesign(gear.id);
  hiddenUrl = `http://designs.test:${service.port}`;
  service.ctx.origin = hiddenUrl;
});
afterAll(async () => {
  await service.stop();
});
beforeEach(() => {
  profile = tempDir('cli-proxy');
  for (const name of PROXY_VARIABLES) {
    saved.set(name, process.env[name]);
    delete process.env[name];
  }
});
afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  configureProxy({ mode: 'system' });
  rmSync(profile, { recursive: true, force: true });
});

function engineLog(): string {
  const path = engineLogPath(profile);
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

describe('design-sync through a proxy', () => {
  it('pulls the catalogue and its files through HTTP_PROXY, and status --diagnostics names that proxy', async () => {
    const proxy = await startRecordingProxy({ hosts: { 'designs.test': '127.0.0.1' } });
    try {
      process.env.HTTP_PROXY = proxy.url;
      const pulled = await runCliCapturing(profile, ['--service', hiddenUrl, 'pull', '--json']);
      expect(pulled.err).toBe('');
      expect(pulled.code).toBe(0);
      expect(JSON.parse(pulled.out).designs.inserted).toBe(1);
      const lines = proxy.records.map((record) => record.line);
      expect(lines.some((line) => line.startsWith(`GET ${hiddenUrl}/v1/designs`))).toBe(true);
      expect(lines.some((line) => line.startsWith(`GET ${hiddenUrl}/uploads/`))).toBe(true);

      const diagnostics = await runCliCapturing(profile, ['status', '--diagnostics']);
      expect(diagnostics.out).toContain(`Proxy: ${proxy.shown} for designs.test:${service.port}, from the environment (HTTPS_PROXY / HTTP_PROXY / ALL_PROXY); setting: system, the environment names one`);
    } finally {
      await proxy.stop();
    }
  });

  it('uses --proxy with a user name and password, which never reach the engine log or the diagnostics', async () => {
    const proxy = await startRecordingProxy({ hosts: { 'designs.test': '127.0.0.1' }, credentials: { username: 'ana', password: PASSWORD } });
    try {
      const address = `http://ana:${PASSWORD}@${proxy.shown}`;
      const pulled = await runCliCapturing(profile, ['--service', hiddenUrl, '--proxy', address, 'pull']);
      expect(pulled.err).toBe('');
      expect(pulled.code).toBe(0);
      expect(proxy.records.length).toBeGreaterThan(0);
      expect(proxy.records.every((record) => record.proxyAuthorization === `Basic ${Buffer.from(`ana:${PASSWORD}`).toString('base64')}`)).toBe(true);

      const diagnostics = await runCliCapturing(profile, ['--proxy', address, 'status', '--diagnostics']);
      expect(diagnostics.out).toContain(`Proxy: ${proxy.shown} for designs.test:${service.port}, from --proxy`);
      expect(diagnostics.out).not.toContain(PASSWORD);
      expect(engineLog()).toContain('opening the profile');
      expect(engineLog()).not.toContain(PASSWORD);
    } finally {
      await proxy.stop();
    }
  });

  it('says that the proxy asks for a user name and password, naming it, and that a --proxy it cannot use is not one', async () => {
    const proxy = await startRecordingProxy({ hosts: { 'designs.test': '127.0.0.1' }, credentials: { username: 'ana', password: PASSWORD } });
    try {
      process.env.HTTP_PROXY = proxy.url;
      const pulled = await runCliCapturing(profile, ['--service', hiddenUrl, 'pull']);
      expect(pulled.code).toBe(1);
      expect(pulled.err).toContain(`The proxy ${proxy.shown} asks for a user name and password`);

      const wrong = await runCliCapturing(profile, ['--proxy', `http://ana:not-${PASSWORD}@${proxy.shown}`, 'pull']);
      expect(wrong.err).toContain(`The proxy ${proxy.shown} did not accept the user name and password; check the proxy in Settings → Proxy (or with --proxy).`);
      expect(engineLog()).not.toContain(`not-${PASSWORD}`);

      const unusable = await runCliCapturing(profile, ['--proxy', 'socks5://corp:1080', 'pull']);
      expect(unusable.err).toBe('--proxy: The proxy corp:1080 uses socks5, which design-sync does not speak; give an http:// or https:// proxy.');
    } finally {
      await proxy.stop();
    }
  });

  it('goes direct with --proxy none, whatever the environment names', async () => {
    process.env.HTTP_PROXY = 'http://127.0.0.1:9';
    const pulled = await runCliCapturing(profile, ['--service', service.url.replace('127.0.0.1', 'localhost'), 'pull']);
    expect(pulled.code).toBe(0); // loopback: direct
    const diagnostics = await runCliCapturing(profile, ['--proxy', 'none', 'status', '--diagnostics']);
    expect(diagnostics.out).toMatch(/Proxy: none in use for localhost:\d+ \(direct\); setting: none \(always direct\)/);
  });
});
