import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DesignDetail, LibraryPage, Outcome } from '../../shared';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import type { EventMessage } from '../../electron/engine/contract/contract-endpoint';
import type { EngineSettings } from '../../electron/engine/settings/settings-store';
import { EngineBridge } from '../../electron/shell/engine-bridge/engine-bridge';
import type { BridgePort } from '../../electron/shell/engine-bridge/messages';
import { serveEngine } from '../../electron/shell/engine-process/serve-engine';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { startTestService, type TestService } from '../../harness/local-service';

// The code under test needs only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

const FIXTURES = join(import.meta.dirname, '../fixtures');

/** One end of a worker_threads channel as a bridge port: structured clone, as between Electron's processes. */
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

async function until<T>(read: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The library's page of a search once it sees every cached design (the search index filled behind the pull). */
async function untilSearchable(query: string): Promise<LibraryPage> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const page = valueOf<LibraryPage>(await bridge.request('library.page', { query }));
    if (page.notSearchedYet === 0) return page;
    if (Date.now() > deadline) throw new Error(`timed out waiting for the search index (${page.notSearchedYet} designs not searched yet)`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let service: TestService;
let channel: MessageChannel;
let bridge: EngineBridge;
let served: Promise<void>;
let profile: string;
const hostTokens = new MemoryTokenStore(null);
const savedSettings: EngineSettings[] = [];
const opened: string[] = [];
const events: EventMessage[] = [];
let gearId: number;

beforeAll(async () => {
  service = await startTestService();
  const alice = clientFor(service.url, service.addUser('alice').token);
  const gear = await alice.createDesign({ name: 'Gear', excerpt: 'A spur gear', license: 'ccby' });
  await alice.uploadImage(gear.id, { path: join(FIXTURES, 'images', 'jpg-sample.jpg') });
  await alice.publishDesign(gear.id);
  gearId = gear.id;
  await hostTokens.write(service.addUser('maker').token);

  profile = tempDir('bridge-profile');
  channel = new MessageChannel();
  served = serveEngine(portOf(channel.port2), { tune: { settleMs: 100, trash: 'folder' } });
  bridge = new EngineBridge(portOf(channel.port1), {
    tokens: hostTokens,
    saveSettings: (settings) => savedSettings.push(settings),
    openExternal: (url) => opened.push(url),
    log: () => {},
  });
  bridge.onEvent((event) => events.push(event));
  await bridge.open({ profileDir: profile, userAgent: 'design-sync-test', settings: {}, serviceUrl: service.url, tokenDescription: 'in a test' });
});

afterAll(async () => {
  await bridge?.close(1_000, 10_000);
  channel?.port1.close();
  channel?.port2.close();
  await service?.stop();
  rmSync(profile, { recursive: true, force: true });
});

describe('the engine behind the bridge (as in its utility process)', () => {
  it('reads the token the host keeps: the window sees who is signed in', async () => {
    const account = valueOf<{ status: string; user: { screenName: string } | null; tokenKeptIn: string }>(await bridge.request('account.get', {}));
    expect(account.status).toBe('signed-in');
    expect(account.tokenKeptIn).toBe('in a test');
  });

  it('remembers the service address given at opening in the host\'s settings', () => {
    expect(savedSettings.at(-1)?.serviceUrl).toBe(service.url);
  });

  it('answers the window\'s requests, and a malformed one with a validation problem naming the field', async () => {
    await bridge.request('catalogue.pull', {});
    // The search rows are written behind the pull: until then a search says how many designs it could not see.
    const page = await untilSearchable('gear');
    expect(page.items.map((design) => design.name)).toEqual(['Gear']);
    const refused = await bridge.request('library.page', { limit: 'all' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.problem.kind).toBe('validation');
      expect(refused.problem.message).toMatch(/limit/);
    }
    const unknown = await bridge.request('shell.exec', { command: 'rm -rf /' });
    expect(!unknown.ok && unknown.problem.kind).toBe('unknown-request');
  });

  it('sends the engine\'s events to the host', async () => {
    const finished = await until(() => events.find((event) => event.name === 'pull.finished'), 'pull.finished');
    expect(finished.name).toBe('pull.finished');
  });

  it('hands over the file behind a contract file address, from the engine\'s file cache', async () => {
    const design = valueOf<DesignDetail>(await bridge.request('design.get', { id: gearId }));
    const address = design.images[0]!.largeUrl;
    expect(address).toMatch(/^\/files\//);
    const file = await bridge.file(address);
    expect(file).not.toBeNull();
    expect(existsSync(file!.path)).toBe(true);
    expect(file!.size).toBeGreaterThan(0);
    expect(await bridge.file('/files/../../etc/passwd')).toBeNull();
  });

  it('writes settings the window changes back to the host', async () => {
    valueOf(await bridge.request('settings.update', { cacheLimitMb: 123 }));
    expect(savedSettings.at(-1)?.cacheLimitBytes).toBe(123 * 1024 * 1024);
  });

  it('opens a design\'s page through the host, never by itself', async () => {
    const result = valueOf<{ url: string; opened: boolean }>(await bridge.request('design.openPage', { id: gearId }));
    expect(opened).toContain(result.url);
    expect(result.url.startsWith(service.url)).toBe(true);
  });

  it('clears the host\'s token on sign-out', async () => {
    valueOf(await bridge.request('account.signOut', {}));
    expect(await hostTokens.read()).toBeNull();
  });
});

describe('the bridge when the engine process ends', () => {
  it('ends pending and later requests with a problem instead of hanging', async () => {
    const lonely = new MessageChannel();
    const orphan = new EngineBridge(portOf(lonely.port1), { tokens: new MemoryTokenStore(), saveSettings: () => {}, openExternal: () => {}, log: () => {} });
    const pending = orphan.request('account.get', {});
    orphan.engineExited();
    const outcome = await pending;
    expect(!outcome.ok && outcome.problem.kind).toBe('internal');
    const later = await orphan.request('account.get', {});
    expect(!later.ok && later.problem.message).toMatch(/engine stopped/);
    expect(await orphan.file('/files/anything')).toBeNull();
    lonely.port1.close();
    lonely.port2.close();
  });

  it('closes the engine on request: the served loop ends', async () => {
    expect(await bridge.close(500, 15_000)).toBe('closed');
    await served;
  });
});
