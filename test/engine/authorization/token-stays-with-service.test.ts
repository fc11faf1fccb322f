import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../../electron/engine/authorization/file-token-store';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { Session } from '../../../electron/engine/authorization/session';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { createContractEndpoint } from '../../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../../electron/engine/runtime/engine';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { startWindowHost, type WindowHost } from '../../../electron/window-host/window-host';
import { connectContract, type TestContractClient } from '../../contract/contract-client';
import { runCliCapturing } from '../../support/cli';
import { startTestService, type TestService } from '../../../harness/local-service';
import { until } from '../../../harness/until';
import { tempDir } from '../cache/cache-fixtures';
import { startRecordingServer, type RecordingServer } from './recording-server';

/**
 * The token stays with its service in the engine itself: a client the session makes for another address never carries
 * it, and the window's Settings → service address is refused while signed in (sign out first, saying so), so the token
 * never reaches the new address. The other address is a real HTTP server that records every request it gets.
 */

let service: TestService;
/** A second real service, behind a recording proxy (`other`): the window checks an address before taking it. */
let otherService: TestService;
let other: RecordingServer;
let token: string;

beforeAll(async () => {
  service = await startTestService();
  otherService = await startTestService();
  other = await startRecordingServer(otherService.url);
  token = service.addUser('settings-person').token;
});
afterAll(async () => {
  await other.close();
  await otherService.stop();
  await service.stop();
});

describe('the session gives its token only to the service that issued it', () => {
  it('a client made for another address sends no token; the same service spelled another way gets it', async () => {
    const session = new Session(new MemoryTokenStore());
    await session.signInWithToken(service.url, token);
    expect(session.tokenService).toBe(service.url);

    const elsewhere = new ServiceClient(session.transportOptions({ baseUrl: other.url, retry: { retries: 0 } }));
    await expect(elsewhere.whoami()).rejects.toThrow();
    expect(other.requests.length).toBeGreaterThan(0);
    expect(other.carrying(token)).toEqual([]);
    expect(other.requests.every((r) => !r.url.includes('auth_token'))).toBe(true);
    // An answer from the other address says nothing about this sign-in.
    expect(session.state.status).toBe('signed-in');

    const same = new ServiceClient(session.transportOptions({ baseUrl: `${service.url.toUpperCase()}/` }));
    expect((await same.whoami()).screen_name).toBe('settings-person');
  });

  it('signing out forgets the token and which service it was for: nothing is given to any address', async () => {
    const session = new Session(new MemoryTokenStore());
    await session.signInWithToken(service.url, token);
    await session.signOut();
    expect(session.tokenService).toBeNull();
    expect(session.tokenFor(service.url)).toBeNull();
    expect(session.tokenFor(other.url)).toBeNull();
  });
});

describe('the window: Settings → service address on a signed-in profile', () => {
  let profile: string;
  let engine: Engine;
  let host: WindowHost;
  let window: TestContractClient;
  let endpoint: ReturnType<typeof createContractEndpoint>;

  beforeAll(async () => {
    profile = tempDir('window-service-address');
    expect((await runCliCapturing(profile, ['--service', service.url, 'login', '--with-token'], token)).code).toBe(0);
    engine = await openEngine({ profileDir: profile, userAgent: 'design-sync-test', tokenStore: (paths) => new FileTokenStore(paths.tokenFile) });
    endpoint = createContractEndpoint(engine);
    host = await startWindowHost({ endpoint, port: 0 });
    window = await connectContract(host.url);
    await engine.startBackground();
  });
  afterAll(async () => {
    await window.close();
    await host.close();
    endpoint.close();
    await engine.close();
    rmSync(profile, { recursive: true, force: true });
  });

  it('refuses another address while signed in, saying to sign out first; nothing is sent there and nothing changes', async () => {
    const before = other.requests.length;
    const refused = await window.request('settings.update', { serviceUrl: other.url });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.problem.kind).toBe('conflict');
    expect(refused.problem.message).toBe(
      `Signed in to ${service.url}: sign out before choosing another service. A sign-in belongs to its service and is never sent to another (${other.url}).`,
    );
    expect(other.requests.length).toBe(before);
    const settings = await window.request('settings.get', {});
    expect(settings).toMatchObject({ ok: true, value: { serviceUrl: service.url } });
    expect(await window.request('account.get', {})).toMatchObject({ ok: true, value: { status: 'signed-in', serviceUrl: service.url } });
  });

  it('takes the same service spelled another way as no change at all', async () => {
    const same = await window.request('settings.update', { serviceUrl: `${service.url}/` });
    expect(same).toMatchObject({ ok: true, value: { serviceUrl: service.url } });
    expect(await window.request('account.get', {})).toMatchObject({ ok: true, value: { status: 'signed-in' } });
  });

  it('after signing out, the new address is taken and never gets the token (the background work follows it)', async () => {
    expect(await window.request('account.signOut', {})).toMatchObject({ ok: true, value: { status: 'signed-out' } });
    const before = other.requests.length;
    const changed = await window.request('settings.update', { serviceUrl: other.url });
    expect(changed).toMatchObject({ ok: true, value: { serviceUrl: other.url } });
    // The background work (connectivity, the catalogue) now asks the new address: without a token.
    await window.request('catalogue.pull', {});
    await until('a request to the new address', () => other.requests.length > before, 10_000);
    expect(other.carrying(token)).toEqual([]);
    expect(other.requests.every((r) => !r.url.includes('auth_token'))).toBe(true);
  });
});
