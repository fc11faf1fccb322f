import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicUser } from '../../shared';
import { createUser } from '../../service/users/user-accounts';
import { startTestService, type TestService } from '../../harness/local-service';
import { authorizePath, Browser, formsOf, onlyForm, signInThrough as signInWith } from '../support/service-pages';

/** Spec §5 driven over plain HTTP, the way a browser would (test/support/service-pages.ts). */

const PASSWORD = 'correct horse';

interface Received { path: string; fields: URLSearchParams }

describe('browser authorization (spec §5)', () => {
  let service: TestService;
  let receiver: Server;
  let receiverOrigin: string;
  const received: Received[] = [];
  let userCount = 0;

  beforeAll(async () => {
    service = await startTestService();
    receiver = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', fields: new URLSearchParams(body) });
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await service.stop();
  });

  function newUser(prefix: string) {
    return createUser(service.db, { screenName: `${prefix}${++userCount}`, password: PASSWORD, now: Date.now() });
  }

  function addresses() {
    const attempt = randomBytes(12).toString('hex');
    return { redirect_url: `${receiverOrigin}/callback/${attempt}`, deny_url: `${receiverOrigin}/denied/${attempt}` };
  }

  function liveAuthorizations(userId: number): number {
    return (service.db.prepare('SELECT count(*) AS n FROM authorized_integrations WHERE user_id = ? AND revoked_at IS NULL').get(userId) as { n: number }).n;
  }

  /** GET the page, sign in on the sign-in page it shows, and come back to it. Returns the page shown after sign-in. */
  function signInThrough(browser: Browser, path: string, screenName: string): Promise<Response> {
    return signInWith(browser, path, screenName, PASSWORD);
  }

  /** Plays the browser's part of the auto-submit: POSTs the page's form to its action, i.e. the receiver. */
  async function deliver(page: string): Promise<Received> {
    const form = formsOf(page).find((candidate) => candidate.attrs.id === 'authorized-integration-form');
    expect(form).toBeDefined();
    const before = received.length;
    const response = await fetch(form!.attrs.action!, { method: 'POST', body: new URLSearchParams(form!.hidden) });
    expect(response.status).toBe(200);
    expect(received).toHaveLength(before + 1);
    return received.at(-1)!;
  }

  async function whoami(token: string) {
    return service.request('GET', '/v1/user/whoami', { token });
  }

  /** Signs a new user in and allows design-sync; returns the browser, the user and the token the receiver got. */
  async function authorizeNewUser(prefix: string) {
    const user = newUser(prefix);
    const browser = new Browser(service.url);
    const query = addresses();
    const consent = await signInThrough(browser, authorizePath(query), user.screen_name);
    const allowed = await browser.submit(onlyForm(await consent.text()), { decision: 'allow' });
    const delivery = await deliver(await allowed.text());
    return { user, browser, query, token: delivery.fields.get('authentication_token')! };
  }

  it('signs in, asks, and on Allow posts the token, the public user and the integration to redirect_url; the token then works', async () => {
    const user = newUser('alice');
    const browser = new Browser(service.url);
    const query = addresses();
    const path = authorizePath(query);

    const signInPage = await browser.get(path);
    expect(signInPage.status).toBe(200);
    const signInHtml = await signInPage.text();
    expect(signInHtml).toMatch(/Screen name/);
    expect(signInHtml).toMatch(/type="password"/);
    const signInForm = onlyForm(signInHtml);
    expect(signInForm.attrs).toMatchObject({ method: 'post', action: '/users/sign_in' });
    expect(signInForm.hidden.return_to).toBe(path);

    const signedIn = await browser.submit(signInForm, { screen_name: user.screen_name, password: PASSWORD });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(path);
    const sessionCookie = signedIn.headers.getSetCookie().find((line) => line.startsWith('ds_session='));
    expect(sessionCookie).toMatch(/HttpOnly/i);
    expect(sessionCookie).toMatch(/SameSite=Lax/i);

    const consent = await browser.get(path);
    expect(consent.status).toBe(200);
    const consentHtml = await consent.text();
    expect(consentHtml).toMatch(/design-sync/);
    expect(consentHtml).toMatch(/act on your behalf/);
    expect(consentHtml).toMatch(/designs/);
    const consentForm = onlyForm(consentHtml);
    expect(consentForm.attrs).toMatchObject({ method: 'post', action: '/integrations/design-sync/authorized_integrations' });
    expect(consentForm.hidden).toMatchObject({ redirect_url: query.redirect_url, deny_url: query.deny_url });
    expect(consentForm.hidden.csrf_token).toMatch(/^[\w-]{20,}$/);
    expect(consentForm.buttons.map((button) => button.value)).toEqual(['allow', 'deny']);
    expect(consent.headers.get('content-security-policy')).toContain(`form-action 'self' ${receiverOrigin}`);

    const allowed = await browser.submit(consentForm, { decision: 'allow' });
    expect(allowed.status).toBe(200);
    const autoPost = await allowed.text();
    const form = onlyForm(autoPost);
    expect(form.attrs).toMatchObject({ id: 'authorized-integration-form', method: 'post', action: query.redirect_url });
    expect(Object.keys(form.hidden)).toEqual(['authentication_token', 'user', 'authorized_integration']);
    expect(autoPost).toMatch(/<noscript>/);
    expect(form.buttons).toHaveLength(1);

    // The page must work in a real browser: the inline auto-submit runs by nonce, and the form may post to the receiver.
    const csp = allowed.headers.get('content-security-policy')!;
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(autoPost).toContain(`<script nonce="${nonce}">document.getElementById("authorized-integration-form").submit();</script>`);
    expect(csp).toContain(`form-action ${receiverOrigin}`);

    const delivery = await deliver(autoPost);
    expect(delivery.path).toBe(new URL(query.redirect_url).pathname);
    const token = delivery.fields.get('authentication_token')!;
    expect(token).toMatch(/^[\w-]{20,}$/);
    const postedUser = publicUser.strict().parse(JSON.parse(delivery.fields.get('user')!));
    expect(postedUser).toMatchObject({ id: user.id, screen_name: user.screen_name });
    const integration = JSON.parse(delivery.fields.get('authorized_integration')!) as Record<string, unknown>;
    expect(integration).toMatchObject({ id: expect.any(Number), application: 'design-sync', user_id: user.id });
    expect(integration.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    expect(JSON.stringify(integration)).not.toContain(token);

    const me = await whoami(token);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: user.id, screen_name: user.screen_name });
  });

  it('sends every page with a CSP, no framing and no caching', async () => {
    const response = await new Browser(service.url).get(authorizePath(addresses()));
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    const html = await response.text();
    expect(html).not.toMatch(/(src|href)="https?:/);
  });

  it('on Deny redirects with 303 to deny_url and authorizes nothing', async () => {
    const user = newUser('dora');
    const browser = new Browser(service.url);
    const query = addresses();
    const consent = await signInThrough(browser, authorizePath(query), user.screen_name);
    const denied = await browser.submit(onlyForm(await consent.text()), { decision: 'deny' });
    expect(denied.status).toBe(303);
    expect(denied.headers.get('location')).toBe(query.deny_url);
    expect(liveAuthorizations(user.id)).toBe(0);
  });

  it('sends an already-authorized user straight to the auto-POST page with the same token', async () => {
    const { browser, token } = await authorizeNewUser('bob');
    const again = await browser.get(authorizePath(addresses()));
    expect(again.status).toBe(200);
    const page = await again.text();
    expect(page).not.toMatch(/value="allow"/);
    const delivery = await deliver(page);
    expect(delivery.fields.get('authentication_token')).toBe(token);
    expect((await whoami(token)).status).toBe(200);
  });

  it('asks again, instead of posting the token, when an authorized user comes with a redirect_url off this computer', async () => {
    const { browser, token } = await authorizeNewUser('erin');
    const query = { redirect_url: 'https://elsewhere.example/steal', deny_url: 'https://elsewhere.example/no' };
    const page = await (await browser.get(authorizePath(query))).text();
    expect(page).not.toContain(token);
    expect(page).toContain('https://elsewhere.example');
    expect(onlyForm(page).buttons.map((button) => button.value)).toEqual(['allow', 'deny']);
  });

  it('shows the sign-in page again with 401 after a wrong password, and starts no session', async () => {
    const user = newUser('carol');
    const browser = new Browser(service.url);
    const path = authorizePath(addresses());
    const form = onlyForm(await (await browser.get(path)).text());
    const wrong = await browser.submit(form, { screen_name: user.screen_name, password: 'not it' });
    expect(wrong.status).toBe(401);
    const page = await wrong.text();
    expect(page).toMatch(/Wrong screen name or password/);
    expect(onlyForm(page).hidden.return_to).toBe(path);
    expect(browser.cookies.has('ds_session')).toBe(false);
    const unknown = await browser.submit(form, { screen_name: 'nobody-here', password: PASSWORD });
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).toMatch(/Wrong screen name or password/);
  });

  it('refuses a sign-in that does not come from its own form (login CSRF)', async () => {
    const user = newUser('mallory-target');
    const response = await new Browser(service.url).post('/users/sign_in', {
      screen_name: user.screen_name, password: PASSWORD, return_to: '/profile', sign_in_token: 'forged',
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('never sends the browser off the service after sign-in', async () => {
    const user = newUser('olive');
    const browser = new Browser(service.url);
    const form = onlyForm(await (await browser.get('/profile')).text());
    const response = await browser.submit(form, { screen_name: user.screen_name, password: PASSWORD, return_to: '//evil.example/x' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/profile');
  });

  it('answers an unknown application with a 404 page', async () => {
    const response = await new Browser(service.url).get(authorizePath(addresses(), 'no-such-app'));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toMatch(/No application called “no-such-app”/);
  });

  it.each([
    ['redirect_url', { deny_url: 'http://127.0.0.1:9/deny' }],
    ['redirect_url', { redirect_url: '/relative/path', deny_url: 'http://127.0.0.1:9/deny' }],
    ['redirect_url', { redirect_url: 'javascript:alert(1)', deny_url: 'http://127.0.0.1:9/deny' }],
    ['deny_url', { redirect_url: 'http://127.0.0.1:9/ok', deny_url: 'ftp://127.0.0.1/deny' }],
    ['deny_url', { redirect_url: 'http://127.0.0.1:9/ok' }],
  ])('answers a missing or invalid %s with a 400 page naming it', async (name, query) => {
    const response = await new Browser(service.url).get(authorizePath(query));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain(name);
  });

  it('escapes what it echoes back into its pages', async () => {
    const user = newUser('eve');
    const browser = new Browser(service.url);
    const query = { redirect_url: `${receiverOrigin}/cb?x="><script>alert(1)</script>`, deny_url: `${receiverOrigin}/no` };
    const page = await (await signInThrough(browser, authorizePath(query), user.screen_name)).text();
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('&quot;&gt;&lt;script&gt;');
    expect(onlyForm(page).hidden.redirect_url).toBe(query.redirect_url);
  });

  it('refuses with 403 an Allow without the CSRF token, with a wrong one, or without a session, and grants nothing', async () => {
    const user = newUser('frank');
    const browser = new Browser(service.url);
    const query = addresses();
    const form = onlyForm(await (await signInThrough(browser, authorizePath(query), user.screen_name)).text());
    const { csrf_token: _, ...withoutCsrf } = form.hidden;
    const missing = await browser.post(form.attrs.action!, { ...withoutCsrf, decision: 'allow' });
    expect(missing.status).toBe(403);
    expect(missing.headers.get('content-type')).toMatch(/^text\/html/);
    const wrong = await browser.post(form.attrs.action!, { ...form.hidden, csrf_token: 'x'.repeat(43), decision: 'allow' });
    expect(wrong.status).toBe(403);
    const noSession = await new Browser(service.url).post(form.attrs.action!, { ...form.hidden, decision: 'allow' });
    expect(noSession.status).toBe(403);
    expect(liveAuthorizations(user.id)).toBe(0);
  });

  it('revokes from the profile page: the token gets 401, and authorizing again yields a new working token', async () => {
    const { user, browser, token } = await authorizeNewUser('gina');
    const profile = await browser.get('/profile');
    expect(profile.status).toBe(200);
    const page = await profile.text();
    expect(page).toContain(user.screen_name);
    expect(page).toMatch(/design-sync/);
    const revoke = formsOf(page).find((form) => /\/revoke$/.test(form.attrs.action ?? ''))!;
    expect(revoke.attrs.action).toMatch(/^\/profile\/authorized_integrations\/\d+\/revoke$/);

    const forged = await browser.post(revoke.attrs.action!, { csrf_token: 'forged' });
    expect(forged.status).toBe(403);
    expect((await whoami(token)).status).toBe(200);

    const revoked = await browser.submit(revoke);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe('/profile');
    expect((await whoami(token)).status).toBe(401);
    expect(await (await browser.get('/profile')).text()).toMatch(/not authorized any application/);

    const consent = await browser.get(authorizePath(addresses()));
    const allowed = await browser.submit(onlyForm(await consent.text()), { decision: 'allow' });
    const fresh = (await deliver(await allowed.text())).fields.get('authentication_token')!;
    expect(fresh).not.toBe(token);
    expect((await whoami(fresh)).status).toBe(200);
    expect((await whoami(token)).status).toBe(401);
  });

  it('shows the sign-in page for /profile without a session and comes back to it', async () => {
    const user = newUser('hank');
    const browser = new Browser(service.url);
    const page = await signInThrough(browser, '/profile', user.screen_name);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/Authorized applications/);
  });

  it('signs out: the session ends on the service, not only in the browser', async () => {
    const user = newUser('ivy');
    const browser = new Browser(service.url);
    const profile = await signInThrough(browser, '/profile', user.screen_name);
    const oldCookie = browser.cookies.get('ds_session')!;
    const signOut = formsOf(await profile.text()).find((form) => form.attrs.action === '/users/sign_out')!;
    const response = await browser.submit(signOut);
    expect(response.status).toBe(200);
    expect(browser.cookies.has('ds_session')).toBe(false);
    expect(await (await browser.get('/profile')).text()).toMatch(/type="password"/);
    const replay = await fetch(new URL('/profile', service.url), { headers: { cookie: `ds_session=${oldCookie}` } });
    expect(await replay.text()).toMatch(/type="password"/);
  });

  it('ends a web session 12 hours after sign-in', async () => {
    const user = newUser('jack');
    const browser = new Browser(service.url);
    await signInThrough(browser, '/profile', user.screen_name);
    expect(await (await browser.get('/profile')).text()).toMatch(/Authorized applications/);
    service.db.prepare('UPDATE web_sessions SET created_at = created_at - ? WHERE user_id = ?').run(12 * 60 * 60 * 1000, user.id);
    expect(await (await browser.get('/profile')).text()).toMatch(/type="password"/);
  });
});
