import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findApplication, grantAuthorization, liveAuthorization, REGISTERED_APPLICATION, revokeAuthorization } from '../../../service/authorization/integrations';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { isServiceError } from '../../../electron/engine/api/service-error';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { Session, type SessionState } from '../../../electron/engine/authorization/session';
import { authorizationUrl, signIn } from '../../../electron/engine/authorization/sign-in';
import { isSignInError } from '../../../electron/engine/authorization/sign-in-error';
import { startTestService, type TestService } from '../../../harness/local-service';

/** Plays the service's part at the end of §5.4: POSTs the form to redirect_url, as the auto-submitting page does. */
async function deliver(authorizeAddress: string, token: string, user: { id: number; screen_name: string }): Promise<Response> {
  const redirectUrl = new URL(authorizeAddress).searchParams.get('redirect_url')!;
  return fetch(redirectUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ authentication_token: token, user: JSON.stringify(user), authorized_integration: '{}' }),
  });
}

describe('sign-in and session against the local service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => service.stop());

  it('builds the authorization address of spec §5.2', () => {
    const url = new URL(authorizationUrl('http://127.0.0.1:4010', 'http://127.0.0.1:5/a/authorized', 'http://127.0.0.1:5/a/denied'));
    expect(url.pathname).toBe('/integrations/design-sync/authorized_integrations/new');
    expect(url.searchParams.get('redirect_url')).toBe('http://127.0.0.1:5/a/authorized');
    expect(url.searchParams.get('deny_url')).toBe('http://127.0.0.1:5/a/denied');
  });

  it('verifies the token with whoami before saving it', async () => {
    const { user, token } = service.addUser('verified');
    const store = new MemoryTokenStore();
    const shown: string[] = [];
    const result = await signIn({
      authUrl: service.url, baseUrl: service.url, store, timeoutMs: 10_000,
      onAuthorizationUrl: (url) => shown.push(url),
      openBrowser: async (url) => void (await deliver(url, token, user)),
    });
    expect(result).toMatchObject({ kind: 'signed-in', token, user: { id: user.id, screen_name: 'verified' } });
    expect(shown).toHaveLength(1);
    expect(await store.read()).toBe(token);
  });

  it('saves nothing when the service rejects the token handed over', async () => {
    const { user } = service.addUser('forged');
    const store = new MemoryTokenStore();
    const error = await signIn({
      authUrl: service.url, baseUrl: service.url, store, timeoutMs: 10_000,
      openBrowser: async (url) => void (await deliver(url, 'not-a-real-token', user)),
    }).catch((caught: unknown) => caught);
    expect(isSignInError(error, 'token-rejected')).toBe(true);
    expect((error as Error).message).not.toContain('not-a-real-token');
    expect(await store.read()).toBeNull();
  });

  it('reports a browser that cannot be opened, and goes on waiting', async () => {
    const { user, token } = service.addUser('nobrowser');
    const problems: unknown[] = [];
    let address = '';
    const pending = signIn({
      authUrl: service.url, baseUrl: service.url, store: new MemoryTokenStore(), timeoutMs: 10_000,
      onAuthorizationUrl: (url) => (address = url),
      openBrowser: () => { throw new Error('no display'); },
      onBrowserError: (error) => problems.push(error),
    });
    await expect.poll(() => problems.length).toBe(1);
    await deliver(address, token, user);
    await expect(pending).resolves.toMatchObject({ kind: 'signed-in' });
  });

  it('returns denied and timed-out as results', async () => {
    const denied = signIn({
      authUrl: service.url, baseUrl: service.url, store: new MemoryTokenStore(), timeoutMs: 10_000,
      openBrowser: async (url) => void (await fetch(new URL(url).searchParams.get('deny_url')!)),
    });
    await expect(denied).resolves.toEqual({ kind: 'denied' });
    await expect(signIn({ authUrl: service.url, baseUrl: service.url, store: new MemoryTokenStore(), timeoutMs: 100 }))
      .resolves.toEqual({ kind: 'timed-out' });
  });

  it('moves to needs-sign-in when the token is rejected, stops writes, and resumes on a new sign-in', async () => {
    const { user, token } = service.addUser('revoked');
    const store = new MemoryTokenStore();
    const session = new Session(store);
    const states: SessionState[] = [];
    session.subscribe((state) => states.push(state));
    expect(session.state).toEqual({ status: 'signed-out' });
    expect(session.canWrite()).toBe(false);

    await session.signInWithToken(service.url, token);
    expect(session.state).toEqual({ status: 'signed-in', user: { id: user.id, screen_name: 'revoked', real_name: expect.anything() } });
    expect(session.canWrite()).toBe(true);

    const client = new ServiceClient(session.transportOptions({ baseUrl: service.url }));
    expect((await client.whoami()).screen_name).toBe('revoked');

    const app = findApplication(service.db, REGISTERED_APPLICATION)!;
    revokeAuthorization(service.db, user.id, liveAuthorization(service.db, user.id, app.id)!.id, Date.now());
    const error = await client.whoami().catch((caught: unknown) => caught);
    expect(isServiceError(error, 'token-rejected')).toBe(true);
    expect(String(error)).not.toContain(token);
    expect(session.state).toMatchObject({ status: 'needs-sign-in', reason: expect.stringMatching(/sign in again/) });
    expect(session.canWrite()).toBe(false);
    expect(states.at(-1)?.status).toBe('needs-sign-in');
    expect(JSON.stringify(states)).not.toContain(token);
    // The rejected token is kept in storage until a new sign-in replaces it, but no longer sent: public reads go on.
    expect(await store.read()).toBe(token);
    expect(session.currentToken()).toBeNull();
    await expect(client.listDesigns()).resolves.toBeDefined();

    // The user authorizes design-sync again (here straight in the service's database): a new token.
    const newToken = grantAuthorization(service.db, user.id, app.id, Date.now()).token;
    expect(newToken).not.toBe(token);
    await session.signInWithToken(service.url, newToken);
    expect(session.state.status).toBe('signed-in');
    expect(session.canWrite()).toBe(true);
    expect((await client.whoami()).screen_name).toBe('revoked');
    expect(await store.read()).toBe(newToken);

    await session.signOut();
    expect(session.state).toEqual({ status: 'signed-out' });
    expect(await store.read()).toBeNull();
  });

  it('ignores a rejection of the old token that arrives after a new sign-in', async () => {
    const { user, token } = service.addUser('late-answer');
    const session = new Session(new MemoryTokenStore());
    await session.signInWithToken(service.url, token);
    const app = findApplication(service.db, REGISTERED_APPLICATION)!;
    revokeAuthorization(service.db, user.id, liveAuthorization(service.db, user.id, app.id)!.id, Date.now());
    const newToken = grantAuthorization(service.db, user.id, app.id, Date.now()).token;
    // A request leaves with the old token; the user signs in again before its 401 comes back.
    const oldClient = new ServiceClient({ baseUrl: service.url, token: () => token, onProblem: (problem, sent) => session.noticeProblem(problem, sent.token) });
    await session.signInWithToken(service.url, newToken);
    expect(isServiceError(await oldClient.whoami().catch((caught: unknown) => caught), 'token-rejected')).toBe(true);
    expect(session.state.status).toBe('signed-in');
    expect(session.canWrite()).toBe(true);
  });

  it('loads a stored token as signed in, user not yet confirmed', async () => {
    const { token } = service.addUser('stored');
    const session = new Session(new MemoryTokenStore(token));
    expect(await session.load()).toEqual({ status: 'signed-in', user: null });
    const client = new ServiceClient(session.transportOptions({ baseUrl: service.url }));
    session.confirmUser(await client.whoami());
    expect(session.state).toMatchObject({ status: 'signed-in', user: { screen_name: 'stored' } });
  });
});
