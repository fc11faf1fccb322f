import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Words } from '../../../shared/i18n/create-intl';
import { badRequestPage, cancelledPage, notFoundPage, RECEIVER_HEADERS, signedInPage } from './receiver-pages';
import { SignInError } from './sign-in-error';
import { readSignedInUser, type SignedInUser } from './signed-in-user';

/**
 * The loopback end of the browser sign-in (spec §5, RFC 8252 §7.3, §8.3, §8.9): an HTTP server on
 * 127.0.0.1 only, an ephemeral port, alive for one attempt. The service posts the token itself (there is no
 * code exchange), so an unguessable path per attempt is what keeps a forged POST out; it is taken once.
 * Nothing here logs, and no answer or error carries the token.
 */

export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60 * 1000;
const DEFAULT_BODY_LIMIT = 64 * 1024;
const LOOPBACK_HOST = '127.0.0.1';

export type ReceiverOutcome =
  | {
    kind: 'authorized';
    /** The token: hand it to a TokenStore, never to a log. */
    token: string;
    user: SignedInUser;
    /** For debugging only (spec §5.4: no guarantees); undefined when absent or not JSON. */
    authorizedIntegration: unknown;
  }
  | { kind: 'denied' };

export interface LoopbackReceiverOptions {
  /** How long the attempt waits for the browser (default 5 minutes). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Largest form body taken (default 64 KB). */
  bodyLimit?: number;
  /** The words of its pages, in the language of whoever started the sign-in (English when not given). */
  words?: Words;
}

export interface LoopbackReceiver {
  /** redirect_url for the service: http://127.0.0.1:<port>/<nonce>/authorized */
  readonly redirectUrl: string;
  /** deny_url for the service: http://127.0.0.1:<port>/<nonce>/denied */
  readonly denyUrl: string;
  readonly port: number;
  /** The browser's answer. Rejects with SignInError 'timed-out' or 'cancelled'; the port is closed by then. */
  readonly result: Promise<ReceiverOutcome>;
  /** Gives up the attempt (result rejects with 'cancelled' if still pending) and closes the port. */
  close(): Promise<void>;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Constant-time comparison, so that response timing tells nothing about how much of a path was right. */
function samePath(candidate: string, expected: Buffer): boolean {
  return timingSafeEqual(digest(candidate), expected);
}

function send(response: ServerResponse, status: number, body: string, close = false): void {
  if (response.headersSent) return;
  const headers: Record<string, string | number> = { ...RECEIVER_HEADERS, 'content-length': Buffer.byteLength(body) };
  if (close) headers.connection = 'close';
  response.writeHead(status, headers).end(body);
}

type BodyResult = { ok: true; text: string } | { ok: false; status: number };

function readBody(request: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(request.headers['content-length'] ?? '0');
    if (Number.isFinite(declared) && declared > limit) {
      resolve({ ok: false, status: 413 });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyResult) => {
      if (done) return;
      done = true;
      resolve(result);
    };
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        finish({ ok: false, status: 413 });
        request.pause();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => finish({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    request.on('error', () => finish({ ok: false, status: 400 }));
    request.on('close', () => finish({ ok: false, status: 400 }));
  });
}

/** The form the service posts (spec §5.4), or undefined when it is not one. */
function readAuthorizationForm(text: string): Omit<ReceiverOutcome & { kind: 'authorized' }, 'kind'> | undefined {
  const fields = new URLSearchParams(text);
  const tokens = fields.getAll('authentication_token');
  const users = fields.getAll('user');
  if (tokens.length !== 1 || users.length !== 1) return undefined;
  const token = tokens[0]!;
  if (token.trim() === '' || token !== token.trim() || /[\u0000-\u001f\u007f]/.test(token)) return undefined;
  let user: SignedInUser | undefined;
  try {
    user = readSignedInUser(JSON.parse(users[0]!));
  } catch {
    return undefined;
  }
  if (!user) return undefined;
  let authorizedIntegration: unknown = undefined;
  const integration = fields.get('authorized_integration');
  if (integration) {
    try {
      authorizedIntegration = JSON.parse(integration);
    } catch {
      authorizedIntegration = undefined; // debugging information only: its absence changes nothing
    }
  }
  return { token, user, authorizedIntegration };
}

/** Starts listening on 127.0.0.1 (port chosen by the system) for one sign-in attempt. */
export async function startLoopbackReceiver(options: LoopbackReceiverOptions = {}): Promise<LoopbackReceiver> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const { words } = options;
  if (options.signal?.aborted) throw new SignInError('cancelled');

  const nonce = randomBytes(32).toString('base64url');
  const redirectPath = `/${nonce}/authorized`;
  const denyPath = `/${nonce}/denied`;
  const redirectDigest = digest(redirectPath);
  const denyDigest = digest(denyPath);

  let settled = false;
  let resolveResult!: (outcome: ReceiverOutcome) => void;
  let rejectResult!: (error: SignInError) => void;
  const result = new Promise<ReceiverOutcome>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });
  result.catch(() => {}); // the caller awaits it; a rejection nobody waits for must not crash the process

  let expectedHost = '';
  let timer: NodeJS.Timeout | undefined;
  let closed: Promise<void> | undefined;

  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, (request, response) => {
    void handle(request, response);
  });
  // Browsers open speculative connections; none of them may keep the port open after the attempt.
  server.keepAliveTimeout = 1_000;

  function shutDown(): Promise<void> {
    closed ??= new Promise<void>((resolve) => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    return closed;
  }

  function fail(error: SignInError): void {
    if (settled) return;
    settled = true;
    rejectResult(error);
    server.closeAllConnections();
    void shutDown();
  }

  function onAbort(): void {
    fail(new SignInError('cancelled'));
  }

  function succeed(outcome: ReceiverOutcome, response: ServerResponse, body: string): void {
    settled = true;
    response.on('finish', () => void shutDown());
    response.on('close', () => void shutDown());
    send(response, 200, body, true);
    resolveResult(outcome);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = request.url ?? '';
    // DNS rebinding: a page of another site resolved to 127.0.0.1 sends its own name as Host.
    if (request.headers.host !== expectedHost) return send(response, 400, badRequestPage(words), true);
    if (settled) return send(response, 404, notFoundPage(words), true);

    if (request.method === 'GET' && samePath(url, denyDigest)) {
      return succeed({ kind: 'denied' }, response, cancelledPage(words));
    }
    if (request.method !== 'POST' || !samePath(url, redirectDigest)) return send(response, 404, notFoundPage(words));

    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') return send(response, 400, badRequestPage(words), true);
    const body = await readBody(request, bodyLimit);
    if (!body.ok) return send(response, body.status, badRequestPage(words), true);
    // Another request may have ended the attempt while this body was arriving.
    if (settled) return send(response, 404, notFoundPage(words), true);
    const form = readAuthorizationForm(body.text);
    if (!form) return send(response, 400, badRequestPage(words));
    return succeed({ kind: 'authorized', ...form }, response, signedInPage(form.user.screen_name, words));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, LOOPBACK_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', () => fail(new SignInError('cancelled', 'Sign-in stopped: the loopback receiver failed.')));

  const port = (server.address() as AddressInfo).port;
  expectedHost = `${LOOPBACK_HOST}:${port}`;
  const origin = `http://${expectedHost}`;

  if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
    timer = setTimeout(() => fail(new SignInError('timed-out')), timeoutMs);
    timer.unref?.();
  }
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  return {
    redirectUrl: `${origin}${redirectPath}`,
    denyUrl: `${origin}${denyPath}`,
    port,
    result,
    close() {
      fail(new SignInError('cancelled'));
      return shutDown();
    },
  };
}
