import { afterEach, describe, expect, it } from 'vitest';
import { rawHttp, type RawAnswer } from '../../support/raw-http';
import { startLoopbackReceiver, type LoopbackReceiver } from '../../../electron/engine/authorization/loopback-receiver';
import { isSignInError } from '../../../electron/engine/authorization/sign-in-error';

const TOKEN = 'tok_very_secret_value_0123456789';
const USER = JSON.stringify({ id: 7, screen_name: 'ada<b>', real_name: 'Ada' });
const FORM = 'application/x-www-form-urlencoded';

const send = rawHttp;

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  send(url, { method: 'POST', body, headers: { 'content-type': FORM, ...headers } });

const authorizedForm = (fields: Record<string, string> = {}) =>
  new URLSearchParams({ authentication_token: TOKEN, user: USER, authorized_integration: '{"id":1}', ...fields }).toString();

async function portIsClosed(port: number): Promise<boolean> {
  try {
    await send(`http://127.0.0.1:${port}/`);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ECONNREFUSED';
  }
}

describe('loopback receiver', () => {
  let receiver: LoopbackReceiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  it('listens on 127.0.0.1 with an unguessable path per attempt', async () => {
    receiver = await startLoopbackReceiver();
    const other = await startLoopbackReceiver();
    try {
      const redirect = new URL(receiver.redirectUrl);
      expect(redirect.hostname).toBe('127.0.0.1');
      expect(redirect.port).toBe(String(receiver.port));
      expect(redirect.pathname).toMatch(/^\/[A-Za-z0-9_-]{43}\/authorized$/);
      expect(new URL(receiver.denyUrl).pathname).toBe(redirect.pathname.replace(/authorized$/, 'denied'));
      expect(other.redirectUrl).not.toBe(receiver.redirectUrl);
      expect(new URL(other.redirectUrl).pathname).not.toBe(redirect.pathname);
    } finally {
      await other.close();
    }
  });

  it('takes the service\'s form POST once, answers a friendly page, then closes the port', async () => {
    receiver = await startLoopbackReceiver();
    const answer = await post(receiver.redirectUrl, authorizedForm());
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Signed in to design-sync as ada&lt;b&gt;. You can close this tab.');
    expect(answer.body).not.toContain(TOKEN);
    expect(answer.body).not.toMatch(/<script|<img|<link|https?:\/\//i);
    expect(answer.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(answer.headers['cache-control']).toBe('no-store');
    const outcome = await receiver.result;
    expect(outcome).toEqual({ kind: 'authorized', token: TOKEN, user: { id: 7, screen_name: 'ada<b>', real_name: 'Ada' }, authorizedIntegration: { id: 1 } });

    // A second POST (a replay) gets nothing: the port is closed once the attempt has ended.
    await expect.poll(() => portIsClosed(receiver!.port), { timeout: 5_000 }).toBe(true);
  });

  it('answers forged and malformed requests with nothing, and keeps waiting for the real answer', async () => {
    receiver = await startLoopbackReceiver();
    const origin = `http://127.0.0.1:${receiver.port}`;
    const nonce = new URL(receiver.redirectUrl).pathname.split('/')[1]!;

    const attempts: Array<Promise<RawAnswer>> = [
      post(`${origin}/`, authorizedForm()),
      post(`${origin}/authorized`, authorizedForm()),
      post(`${origin}/${'A'.repeat(43)}/authorized`, authorizedForm()),
      post(`${origin}/${nonce}/authorized/`, authorizedForm()),
      post(`${origin}/${nonce}/denied`, authorizedForm()),
      post(`${receiver.redirectUrl}?x=1`, authorizedForm()),
      send(receiver.redirectUrl), // GET on the redirect path
      send(receiver.redirectUrl, { method: 'PUT', body: authorizedForm(), headers: { 'content-type': FORM } }),
      send(`${origin}/favicon.ico`),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.status).toBe(404);
      expect(answer.body).not.toContain(nonce);
      expect(answer.body).not.toContain('authorized');
    }

    const malformed = await Promise.all([
      post(receiver.redirectUrl, new URLSearchParams({ user: USER }).toString()), // no token
      post(receiver.redirectUrl, authorizedForm({ authentication_token: '' })),
      post(receiver.redirectUrl, `${authorizedForm()}&authentication_token=second`),
      post(receiver.redirectUrl, authorizedForm({ user: '{not json' })),
      post(receiver.redirectUrl, authorizedForm({ user: '{"id":"7"}' })),
      post(receiver.redirectUrl, JSON.stringify({ authentication_token: TOKEN, user: USER }), { 'content-type': 'application/json' }),
      post(receiver.redirectUrl, authorizedForm({ padding: 'x'.repeat(70 * 1024) })),
    ]);
    expect(malformed.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400, 400, 413]);
    for (const answer of malformed) expect(answer.body).not.toContain(TOKEN);

    // None of that ended the attempt: the real answer still gets through.
    const real = await post(receiver.redirectUrl, authorizedForm());
    expect(real.status).toBe(200);
    await expect(receiver.result).resolves.toMatchObject({ kind: 'authorized', token: TOKEN });
  });

  it('refuses a Host other than 127.0.0.1:<port> (DNS rebinding)', async () => {
    receiver = await startLoopbackReceiver();
    for (const host of ['localhost', `localhost:${receiver.port}`, `evil.example:${receiver.port}`, '127.0.0.1']) {
      const answer = await post(receiver.redirectUrl, authorizedForm(), { host });
      expect(answer.status).toBe(400);
      expect(answer.body).not.toContain(TOKEN);
    }
    const deny = await send(receiver.denyUrl, { headers: { host: `attacker.test:${receiver.port}` } });
    expect(deny.status).toBe(400);
    const real = await post(receiver.redirectUrl, authorizedForm());
    expect(real.status).toBe(200);
  });

  it('takes a GET of the deny path as the user\'s deny', async () => {
    receiver = await startLoopbackReceiver();
    const answer = await send(receiver.denyUrl);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Sign-in was cancelled');
    await expect(receiver.result).resolves.toEqual({ kind: 'denied' });
    await expect.poll(() => portIsClosed(receiver!.port), { timeout: 5_000 }).toBe(true);
  });

  it('times out with a clear outcome and closes the port', async () => {
    receiver = await startLoopbackReceiver({ timeoutMs: 150 });
    const error = await receiver.result.catch((caught: unknown) => caught);
    expect(isSignInError(error, 'timed-out')).toBe(true);
    expect((error as Error).message).toMatch(/timed out/);
    await expect.poll(() => portIsClosed(receiver!.port), { timeout: 5_000 }).toBe(true);
  });

  it('stops when its AbortSignal fires', async () => {
    const controller = new AbortController();
    receiver = await startLoopbackReceiver({ signal: controller.signal });
    controller.abort();
    const error = await receiver.result.catch((caught: unknown) => caught);
    expect(isSignInError(error, 'cancelled')).toBe(true);
    await expect.poll(() => portIsClosed(receiver!.port), { timeout: 5_000 }).toBe(true);
    await expect(startLoopbackReceiver({ signal: controller.signal })).rejects.toSatisfy((e: unknown) => isSignInError(e, 'cancelled'));
  });
});
