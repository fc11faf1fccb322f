import { rmSync } from 'node:fs';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Outcome, SettingsView } from '../../shared';
import { configureProxy } from '../../electron/engine/api/proxy-agents';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { EngineBridge } from '../../electron/shell/engine-bridge/engine-bridge';
import type { BridgePort } from '../../electron/shell/engine-bridge/messages';
import { proxyFromPac, resolveSystemProxy } from '../../electron/shell/engine-bridge/system-proxy';
import { serveEngine } from '../../electron/shell/engine-process/serve-engine';
import { tempDir } from '../engine/cache/cache-fixtures';
import { startTestService, type TestService } from '../../harness/local-service';
import { startRecordingProxy, type RecordingProxy } from '../../harness/recording-proxy';
import { until } from '../../harness/until';

// The code under test needs only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

function portOf<In, Out>(port: MessagePort): BridgePort<In, Out> {
  return {
    post: (message) => port.postMessage(message),
    onMessage(listener) {
      const onMessage = (message: In) => listener(message);
      port.on('message', onMessage);
      return () => port.off('message', onMessage);
    },
  };
}

function valueOf<T>(outcome: Outcome<unknown>): T {
  if (!outcome.ok) throw new Error(`expected a value, got the problem ${outcome.problem.kind}: ${outcome.problem.message}`);
  return outcome.value as T;
}

describe("the system's proxy as the shell resolves it", () => {
  it('takes the first proxy of the PAC answer, skipping SOCKS, and DIRECT as none', () => {
    const skipped: string[] = [];
    expect(proxyFromPac('PROXY corp.example:8080; DIRECT')).toBe('http://corp.example:8080');
    expect(proxyFromPac('HTTPS secure.example:443')).toBe('https://secure.example:443');
    expect(proxyFromPac('SOCKS5 socks.example:1080; PROXY corp.example:3128', (entry) => skipped.push(entry))).toBe('http://corp.example:3128');
    expect(skipped).toEqual(['SOCKS5 socks.example:1080']);
    expect(proxyFromPac('DIRECT')).toBeNull();
    expect(proxyFromPac('')).toBeNull();
  });

  it('asks the session for the service, and says why when it cannot', async () => {
    const lines: string[] = [];
    const asked: string[] = [];
    expect(await resolveSystemProxy({ resolveProxy: async (url) => (asked.push(url), 'PROXY corp:8080') }, 'https://designs.example', (line) => lines.push(line))).toBe('http://corp:8080');
    expect(asked).toEqual(['https://designs.example']);
    expect(await resolveSystemProxy({ resolveProxy: async () => { throw new Error('no resolver'); } }, 'https://designs.example', (line) => lines.push(line))).toBeUndefined();
    expect(lines).toEqual(["design-sync: the system's proxy for designs.example cannot be resolved (no resolver); the environment's is used"]);
    expect(await resolveSystemProxy({ resolveProxy: async () => 'PROXY corp:8080' }, undefined, (line) => lines.push(line))).toBeUndefined();
  });
});

describe('the engine process with the proxy the host gives it', () => {
  let service: TestService;
  let proxy: RecordingProxy;
  let channel: MessageChannel;
  let bridge: EngineBridge;
  let profile: string;
  const hostTokens = new MemoryTokenStore(null);
  const hostProxyPassword = new MemoryTokenStore(null);
  const saved = new Map<string, string | undefined>();

  beforeAll(async () => {
    for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'all_proxy', 'no_proxy']) {
      saved.set(name, process.env[name]);
      delete process.env[name];
    }
    service = await startTestService();
    service.ctx.origin = `http://designs.test:${service.port}`;
    proxy = await startRecordingProxy({ hosts: { 'designs.test': '127.0.0.1' } });
    profile = tempDir('system-proxy-profile');
    channel = new MessageChannel();
    void serveEngine(portOf(channel.port2), { tune: { settleMs: 100, trash: 'folder' } });
    bridge = new EngineBridge(portOf(channel.port1), {
      tokens: hostTokens, proxyPassword: hostProxyPassword, saveSettings: () => {}, openExternal: () => {}, log: () => {},
    });
    await bridge.open({
      profileDir: profile, userAgent: 'design-sync-test', settings: {}, serviceUrl: `http://designs.test:${service.port}`,
      tokenDescription: 'in a test', systemProxy: proxy.url,
    });
  });

  afterAll(async () => {
    await bridge?.close(1_000, 10_000);
    channel?.port1.close();
    channel?.port2.close();
    await proxy?.stop();
    await service?.stop();
    configureProxy({ mode: 'system' });
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(profile, { recursive: true, force: true });
  });

  it("reaches the service through the system's proxy (resolved again when the host says), and keeps a manual proxy's password with the host, apart from the token", async () => {
    const view = valueOf<SettingsView>(await bridge.request('settings.get', {}));
    expect(view.proxy).toMatchObject({ mode: 'system', inUse: proxy.shown, inUseFrom: "the system's proxy settings" });
    // The host resolves it again when the service changes: the engine takes the new answer (here DIRECT, then the proxy).
    bridge.setSystemProxy(null);
    await until('the engine to go direct', async () => valueOf<SettingsView>(await bridge.request('settings.get', {})).proxy.inUse === null);
    bridge.setSystemProxy(proxy.url);
    await until("the engine to use the system's proxy again", async () => valueOf<SettingsView>(await bridge.request('settings.get', {})).proxy.inUse === proxy.shown);
    valueOf(await bridge.request('catalogue.pull', {}));
    expect(proxy.records.some((record) => record.line.startsWith(`GET http://designs.test:${service.port}/v1/designs`))).toBe(true);

    const manual = valueOf<SettingsView>(await bridge.request('settings.update', { proxy: { mode: 'manual', host: '127.0.0.1', port: proxy.port, username: 'ana', password: 'kept by the host' } }));
    expect(manual.proxy).toMatchObject({ mode: 'manual', passwordSet: true, inUse: proxy.shown, inUseFrom: 'Settings → Proxy' });
    expect(JSON.stringify(manual)).not.toContain('kept by the host');
    expect(Buffer.from((await hostProxyPassword.read())!, 'base64url').toString('utf8')).toBe('kept by the host');
    expect(await hostTokens.read()).toBeNull();
  });
});
