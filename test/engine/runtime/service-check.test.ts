import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AccountView, SyncView } from '../../../shared';
import { FileTokenStore } from '../../../electron/engine/authorization/file-token-store';
import { createContractEndpoint } from '../../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../../electron/engine/runtime/engine';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { checkServiceAddress } from '../../../electron/engine/runtime/service-check';
import { startWindowHost, type WindowHost } from '../../../electron/window-host/window-host';
import { connectContract, type TestContractClient } from '../../contract/contract-client';
import { closedPort } from '../../support/free-port';
import { startTestService, type TestService } from '../../../harness/local-service';
import { startRecordingServer, type RecordingServer } from '../authorization/recording-server';
import { tempDir } from '../cache/cache-fixtures';

/**
 * Settings → service address (and the first run's welcome) saves an address only when a design-sharing service answers
 * there: `GET /v1/designs?limit=1` without a token. Anything else is refused in words naming the address; nothing saved.
 */

let first: TestService;
let second: TestService;
let split: TestService;
let notAService: RecordingServer;
let profile: string;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let host: WindowHost;
let window: TestContractClient;
const silent: Server[] = [];

beforeAll(async () => {
  first = await startTestService();
  second = await startTestService();
  split = await startTestService({ webPort: 0 });
  notAService = await startRecordingServer();
  profile = tempDir('service-check');
  engine = await openEngine({ profileDir: profile, userAgent: 'design-sync-test', serviceUrl: first.url, tokenStore: (paths) => new FileTokenStore(paths.tokenFile) });
  endpoint = createContractEndpoint(engine);
  host = await startWindowHost({ endpoint, port: 0 });
  window = await connectContract(host.url);
});
afterEach(() => {
  for (const server of silent.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});
afterAll(async () => {
  await window.close();
  await host.close();
  endpoint.close();
  await engine.close();
  await Promise.all([first.stop(), second.stop(), split.stop(), notAService.close()]);
  rmSync(profile, { recursive: true, force: true });
});

async function refusal(serviceUrl: string) {
  const outcome = await window.request('settings.update', { serviceUrl });
  if (outcome.ok) throw new Error(`${serviceUrl} was saved`);
  expect(outcome.problem.kind).toBe('validation');
  expect(engine.connection.serviceUrl()).toBe(first.url);
  return outcome.problem as { message: string; fieldErrors: Record<string, string[]> };
}

describe('an address is checked before it is saved', () => {
  it('nothing answering there: refused, saying so; nothing saved', async () => {
    const address = `http://127.0.0.1:${await closedPort()}`;
    const problem = await refusal(address);
    expect(problem.message).toBe(`Nothing answers at ${address}: check the address.`);
    expect(problem.fieldErrors.serviceUrl).toEqual([`cannot be reached: nothing answers at ${address}. Check the address`]);
    expect(engine.appSettings.store.read().serviceUrl).toBe(first.url);
  });

  it('something else answering there: refused as not a design-sharing service, and it was asked without a token', async () => {
    const problem = await refusal(notAService.url);
    expect(problem.message).toBe(`${notAService.url} answered, but not as a design-sharing service (it has no /v1/designs): check the address.`);
    expect(problem.fieldErrors.serviceUrl).toEqual([`is not a design-sharing service: ${notAService.url} answered, but has no /v1/designs. Check the address`]);
    expect(notAService.requests.map((request) => request.url)).toContain('/v1/designs?limit=1');
    expect(notAService.requests.every((request) => !request.url.includes('auth_token'))).toBe(true);
  });

  it('the service\'s web site given as its API address: refused too (it has no /v1/designs)', async () => {
    const problem = await refusal(split.webUrl);
    expect(problem.message).toContain('answered, but not as a design-sharing service');
  });

  it('an answer that is JSON but no design list: refused', async () => {
    const server = createServer((_request, answer) => answer.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'));
    silent.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await refusal(address)).message).toContain(`${address} answered, but not as a design-sharing service`);
  });

  it('a service failing just now (503): refused as a problem of its own, never as no service at all', async () => {
    const server = createServer((_request, answer) => answer.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"Down for maintenance"}'));
    silent.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const problem = await refusal(address);
    expect(problem.message).toBe(`${address} answered with a problem of its own just now: try again in a moment.`);
    expect(problem.fieldErrors.serviceUrl).toEqual([`could not be checked: ${address} answered with a problem of its own just now. Try again in a moment`]);
  });

  it('a service that never answers: said to take too long (the check gives up on its own)', async () => {
    const server = createServer(() => undefined);
    silent.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const outcome = await checkServiceAddress(address, { timeouts: { firstByteMs: 200, idleMs: 200, overallMs: 300 } });
    expect(outcome?.message).toBe(`${address} took too long to answer: check the address, or try again later.`);
  });

  it('a design-sharing service there: saved; the window hears the new account and sync state at once', async () => {
    const account = window.nextEvent('account.changed', (view: AccountView) => view.serviceUrl === second.url);
    const sync = window.nextEvent('sync.changed', (view: SyncView) => view.serviceUrl === second.url);
    const saved = await window.request('settings.update', { serviceUrl: `${second.url}/` });
    expect(saved).toMatchObject({ ok: true, value: { serviceUrl: second.url, webUrl: second.url, webUrlDerived: true } });
    expect(engine.appSettings.store.read().serviceUrl).toBe(second.url);
    expect((await account).status).toBe('signed-out');
    await sync;
  });
});

describe('the web address when the service address changes', () => {
  it('a derived one follows the new service address; one the person set is kept', async () => {
    valueOf(await window.request('settings.update', { serviceUrl: first.url }));
    expect(valueOf(await window.request('settings.get', {}))).toMatchObject({ webUrl: first.url, webUrlDerived: true });

    valueOf(await window.request('settings.update', { webUrl: 'https://www.example.org/' }));
    const changed = valueOf(await window.request('settings.update', { serviceUrl: second.url }));
    expect(changed).toMatchObject({ serviceUrl: second.url, webUrl: 'https://www.example.org', webUrlDerived: false });

    // Back to the derived one: '' (the field emptied), or the derived address itself.
    expect(valueOf(await window.request('settings.update', { webUrl: '' }))).toMatchObject({ webUrl: second.url, webUrlDerived: true });
    expect(valueOf(await window.request('settings.update', { webUrl: `${second.url}/` }))).toMatchObject({ webUrl: second.url, webUrlDerived: true });
    valueOf(await window.request('settings.update', { serviceUrl: first.url }));
    expect(engine.connection.webUrl()).toBe(first.url);
  });
});

function valueOf<T>(outcome: { ok: true; value: T } | { ok: false; problem: { message: string } }): T {
  if (!outcome.ok) throw new Error(outcome.problem.message);
  return outcome.value;
}


