import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountView, DesignDetail, SettingsView } from '../../../shared';
import { FileTokenStore } from '../../../electron/engine/authorization/file-token-store';
import { createContractEndpoint } from '../../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../../electron/engine/runtime/engine';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { startWindowHost, type WindowHost } from '../../../electron/window-host/window-host';
import { connectContract, type TestContractClient } from '../../contract/contract-client';
import { createUser } from '../../../service/users/user-accounts';
import { startTestService, type TestService } from '../../../harness/local-service';
import { Browser, onlyForm } from '../../support/service-pages';
import { startServiceProcess } from '../../../harness/service-process';
import { startRecordingServer, type RecordingServer } from '../authorization/recording-server';
import { tempDir } from '../cache/cache-fixtures';

/**
 * The service's two addresses (spec §5: {base_url} and {auth_url}), as the real one has them on two hosts (api. and
 * www.): the local service with its API and its web site on two ports, each behind a recording proxy that keeps every
 * request it gets. The browser signs in on the web site, the engine talks to the API only, design pages open on the
 * web site, and the token never reaches the web site (the browser hands it to the loopback receiver).
 */

let service: TestService;
let api: RecordingServer;
let web: RecordingServer;
let profile: string;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let host: WindowHost;
let window: TestContractClient;
let author: { token: string };
let designId: number;

function valueOf<T>(outcome: { ok: true; value: T } | { ok: false; problem: { message: string } }): T {
  if (!outcome.ok) throw new Error(outcome.problem.message);
  return outcome.value;
}

beforeAll(async () => {
  service = await startTestService({ webPort: 0 });
  api = await startRecordingServer(service.url);
  web = await startRecordingServer(service.webUrl);
  author = service.addUser('two-addresses-author');
  const created = await service.request('POST', '/v1/designs', { token: author.token, json: { design: { name: 'Hinge', excerpt: 'A hinge', license: 'cc0' } } });
  designId = ((await created.json()) as { id: number }).id;
  expect((await service.request('PUT', `/v1/designs/${designId}`, { token: author.token, json: { design: { state: 'published' } } })).status).toBe(204);
  // Not yet authorized for design-sync: the browser is asked to allow it.
  createUser(service.db, { screenName: 'two-addresses-person', password: 'secret', now: Date.now() });

  profile = tempDir('two-addresses');
  engine = await openEngine({ profileDir: profile, userAgent: 'design-sync-test', serviceUrl: api.url, tokenStore: (paths) => new FileTokenStore(paths.tokenFile) });
  endpoint = createContractEndpoint(engine);
  host = await startWindowHost({ endpoint, port: 0 });
  window = await connectContract(host.url);
});
afterAll(async () => {
  await window.close();
  await host.close();
  endpoint.close();
  await engine.close();
  await web.close();
  await api.close();
  await service.stop();
  rmSync(profile, { recursive: true, force: true });
});

describe('the local service on two ports', () => {
  it('the API port answers only the API, the web port only the web site: a client that mixes them up fails', async () => {
    expect((await fetch(`${service.url}/v1/designs?limit=1`)).status).toBe(200);
    expect((await fetch(`${service.webUrl}/v1/designs?limit=1`)).status).toBe(404);
    expect((await fetch(`${service.webUrl}/designs/${designId}`)).status).toBe(200);
    expect((await fetch(`${service.url}/designs/${designId}`)).status).toBe(404);
    expect((await fetch(`${service.webUrl}/users/sign_in`)).status).toBe(200);
    expect((await fetch(`${service.url}/users/sign_in`)).status).toBe(404);
  });
});

describe('a profile with an API address and a web address', () => {
  it('the web address is derived from the API address until one is set, then it is the one set', async () => {
    expect(valueOf(await window.request('settings.get', {}))).toMatchObject({ serviceUrl: api.url, webUrl: api.url, webUrlDerived: true });
    const saved = valueOf(await window.request('settings.update', { webUrl: ` ${web.url}/ ` }));
    expect(saved).toMatchObject<Partial<SettingsView>>({ serviceUrl: api.url, webUrl: web.url, webUrlDerived: false });
    expect(engine.appSettings.store.read().webUrl).toBe(web.url);
  });

  it('a web address that is not one is refused, naming the field; nothing changes', async () => {
    const refused = await window.request('settings.update', { webUrl: 'www.example' });
    expect(refused).toMatchObject({ ok: false, problem: { kind: 'validation', fieldErrors: { webUrl: [expect.stringContaining('Not a web address')] } } });
    expect(engine.connection.webUrl()).toBe(web.url);
  });

  it('the browser signs in on the web address; the token is checked with the API and never reaches the web site', async () => {
    const signedIn = window.nextEvent('account.changed', (account: AccountView) => account.status === 'signed-in', 20_000);
    const { authorizationUrl } = valueOf(await window.request('account.signIn', {})) as { authorizationUrl: string };
    const address = new URL(authorizationUrl);
    expect(address.origin).toBe(web.url);
    expect(address.pathname).toBe('/integrations/design-sync/authorized_integrations/new');

    // The person's browser, on the web site: signs in, allows, and the service's page posts the token to the receiver.
    const browser = new Browser(web.url);
    const path = `${address.pathname}${address.search}`;
    const signInForm = onlyForm(await (await browser.get(path)).text());
    expect((await browser.submit(signInForm, { screen_name: 'two-addresses-person', password: 'secret' })).status).toBe(303);
    const allowed = await browser.submit(onlyForm(await (await browser.get(path)).text()), { decision: 'allow' });
    const handOverPage = await allowed.text();
    const handOver = onlyForm(handOverPage);
    expect(new URL(handOver.attrs.action!).hostname).toBe('127.0.0.1');
    expect((await browser.post(handOver.attrs.action!, handOver.hidden)).status).toBeLessThan(400);

    expect((await signedIn).user?.screenName).toBe('two-addresses-person');
    const token = engine.account.session.currentToken()!;
    expect(token).toBeTruthy();
    expect(web.requests.length).toBeGreaterThan(0);
    expect(web.carrying(token)).toEqual([]);
    expect(web.requests.filter((request) => request.url.includes('auth_token'))).toEqual([]);
    // The engine asked the API who signed in, with the token: on the API port only.
    expect(api.carrying(token).some((request) => request.url.startsWith('/v1/user/whoami'))).toBe(true);
  }, 30_000);

  it('design pages open on the web address; the engine\'s requests all go to the API address', async () => {
    valueOf(await window.request('catalogue.pull', {}));
    const design = valueOf(await window.request('design.get', { id: designId })) as DesignDetail;
    expect(design.pageUrl).toBe(`${web.url}/designs/hinge`);
    const page = await fetch(design.pageUrl!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Hinge');

    expect(api.requests.some((request) => request.url.startsWith('/v1/designs'))).toBe(true);
    expect(api.requests.filter((request) => !request.url.startsWith('/v1/') && !request.url.startsWith('/uploads/'))).toEqual([]);
    // The web site got the browser's pages and the design page, never an API request.
    expect(web.requests.filter((request) => request.url.startsWith('/v1/') || request.url.startsWith('/api/'))).toEqual([]);
  }, 30_000);
});

describe('npm run service -- --web-port', () => {
  it('starts the web site on a port of its own, and says where', async () => {
    const running = await startServiceProcess({ args: ['--web-port', '0'] });
    try {
      expect(running.webUrl).not.toBe(running.url);
      expect((await fetch(`${running.webUrl}/users/sign_in`)).status).toBe(200);
      expect((await fetch(`${running.webUrl}/v1/designs`)).status).toBe(404);
      expect((await fetch(`${running.url}/v1/designs`)).status).toBe(200);
      expect((await fetch(`${running.url}/users/sign_in`)).status).toBe(404);
    } finally {
      await running.stop();
    }
  }, 40_000);
});
