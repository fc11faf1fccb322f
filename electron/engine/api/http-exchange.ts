import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ProxyAddressError, proxyAgentFor, type ProxyUse } from './proxy-agents';
import { writeStreamedBody } from './streamed-body';
import type { Timeouts } from './transport-limits';

/**
 * One HTTP exchange through node:http(s), watched from the first byte to the last: the connect, first-byte, idle and
 * overall timeouts of transport-limits.ts, a body read with a counter (refused past a size, never buffered whole
 * first), an answer cut short told from a complete one, and redirects followed only where they are safe.
 * (Node 20's fetch has no connect or idle timeout one can set, and its errors say `TypeError: terminated`.)
 * Streamed request bodies are sent with backpressure, so an upload of any size takes flat memory.
 * Everything that goes wrong is an ExchangeFailure; transport.ts turns it into a ServiceProblem with a message.
 */

export type ExchangeFailureReason =
  | 'connect-timeout' | 'first-byte-timeout' | 'idle-timeout' | 'overall-timeout' | 'stalled'
  | 'too-large' | 'truncated' | 'redirect-loop' | 'redirect-elsewhere' | 'redirect-write'
  | 'network' | 'cancelled';

export interface ExchangeFailureDetail {
  /** The address being asked when it happened (after redirects). */
  url: URL;
  /** The timeout that fired. */
  limitMs?: number;
  /** Body bytes read when it happened. */
  bytes?: number;
  /** Content-Length of the answer, when it gave one. */
  expectedBytes?: number | null;
  /** The size limit that was passed. */
  limitBytes?: number;
  /** Redirects: every address asked, in order. */
  chain?: URL[];
  /** A redirect's target. */
  target?: URL;
  /** The system's or the HTTP parser's error code. */
  code?: string;
  /** The request certainly never reached the service (no connection was made). */
  neverSent?: boolean;
  /** The proxy the request went through, when it went through one. */
  proxy?: ProxyUse;
}

export class ExchangeFailure extends Error {
  constructor(readonly reason: ExchangeFailureReason, readonly detail: ExchangeFailureDetail, cause?: unknown) {
    super(`${reason} (${detail.url.host})`, cause === undefined ? undefined : { cause });
    this.name = 'ExchangeFailure';
  }
}

export interface ExchangeLimits extends Timeouts {
  maxRedirects: number;
}

export interface ExchangeRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  /** A body in memory, or a stream sent with backpressure (uploads). */
  body?: string | AsyncIterable<Uint8Array>;
  /**
   * Which redirects are followed (GET and HEAD only): 'same-host' (an API request: another host is refused), 'any' (a
   * file: a storage host may serve it). On the service's own host the token's auth_token parameter is kept; nothing
   * of ours is added for another host.
   */
  redirects: 'same-host' | 'any';
  signal?: AbortSignal;
  /** Aborted when an upload stalls: a timeout, not a cancellation. */
  stallSignal?: AbortSignal;
}

export interface Exchange {
  status: number;
  headers: Headers;
  /** The address that answered (after redirects). */
  url: URL;
  /** The proxy the answer came through, when it came through one: a 407 is the proxy's. */
  proxy?: ProxyUse;
  /** The answer is the proxy's own (it refused to open a tunnel to the service), not the service's. */
  fromProxy?: boolean;
  /** The body as it comes, watched by the idle and overall timeouts; ends with 'truncated' when it was cut short. */
  body(): AsyncGenerator<Buffer>;
  /**
   * The whole body: 'refuse' fails with 'too-large' as soon as more than `maxBytes` came (or the service announced
   * more); 'cut' keeps the first `maxBytes` and drops the rest (error answers).
   */
  read(maxBytes: number, over: 'refuse' | 'cut'): Promise<Buffer>;
  /** Drops the rest of the answer (and its connection when it is not read to the end). */
  close(): void;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function contentLength(headers: Headers): number | null {
  const value = headers.get('content-length');
  return value !== null && /^\s*\d+\s*$/.test(value) ? Number(value) : null;
}

function headersOf(message: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined) continue;
    try {
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    } catch {
      // A header value fetch's Headers will not hold is of no use to us either.
    }
  }
  return headers;
}

/** The first error code along an error's causes (undici and node:http wrap the system's). */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What stops whatever is in flight now (the request while waiting for the answer, then the answer's body). */
interface Halt {
  current: ((failure: ExchangeFailure) => void) | null;
  failure: ExchangeFailure | null;
  bytes: number;
  url: URL;
  /** The proxy of the request in flight, when it goes through one, and whether it answered in the service's place. */
  proxy?: ProxyUse;
  fromProxy?: boolean;
}

/** One request and its answer's head, watched by the connect and first-byte timeouts. */
function hop(url: URL, request: ExchangeRequest, method: string, body: ExchangeRequest['body'], limits: ExchangeLimits, halt: Halt): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    // A write goes on a connection of its own: on a kept-alive one the service may have closed meanwhile, its failure
    // could not be told from a lost answer (and a write whose answer was lost is never sent blindly again).
    const fresh = method === 'POST' || method === 'PATCH';
    // Through a proxy when the settings or the environment name one (proxy-agents.ts).
    const proxied = proxyAgentFor(url, fresh);
    halt.proxy = proxied?.use;
    halt.fromProxy = false;
    const req = send(url, { method, headers: request.headers, ...(proxied ? { agent: proxied.agent } : fresh ? { agent: false } : {}) });
    let timer: NodeJS.Timeout | undefined;
    let connected = false;
    let sent = false;
    let settled = false;
    const arm = (ms: number, failure: () => ExchangeFailure) => {
      clearTimeout(timer);
      if (ms > 0) timer = setTimeout(() => req.destroy(failure()), ms).unref();
    };
    const armFirstByte = () => {
      if (connected && sent) arm(limits.firstByteMs, () => new ExchangeFailure('first-byte-timeout', { url, limitMs: limits.firstByteMs }));
    };
    halt.current = (failure) => req.destroy(failure);
    // Through a proxy the socket comes only once the proxy has connected (or tunnelled): the connect timeout covers that.
    if (proxied) arm(limits.connectMs, () => new ExchangeFailure('connect-timeout', { url, limitMs: limits.connectMs, neverSent: true, proxy: proxied.use }));
    // https-proxy-agent tells the proxy's answer to CONNECT: any but 200 is the proxy's refusal, replayed as the answer
    // (http-proxy-agent tells its connection, without a status: what comes then is the service's answer, forwarded).
    req.once('proxyConnect', (connect: { statusCode?: number }) => {
      if (typeof connect.statusCode === 'number' && connect.statusCode !== 200) halt.fromProxy = true;
    });
    req.once('socket', (socket) => {
      if (!socket.connecting) {
        connected = true;
        armFirstByte();
        return;
      }
      arm(limits.connectMs, () => new ExchangeFailure('connect-timeout', { url, limitMs: limits.connectMs, neverSent: true }));
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
        connected = true;
        clearTimeout(timer);
        armFirstByte();
      });
    });
    req.once('finish', () => {
      sent = true;
      armFirstByte();
    });
    req.once('response', (response) => {
      settled = true;
      clearTimeout(timer);
      resolve(response);
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      if (settled) return; // after the answer came, its body reports what went wrong
      settled = true;
      if (error instanceof ExchangeFailure) {
        reject(error);
        return;
      }
      reject(new ExchangeFailure('network', { url, code: errorCode(error), neverSent: !connected, ...(proxied ? { proxy: proxied.use } : {}) }, error));
    });
    if (halt.failure) {
      req.destroy(halt.failure);
      return;
    }
    if (body === undefined) req.end();
    else if (typeof body === 'string') req.end(body);
    // The service may answer early (a refusal) before the whole body is sent: that answer wins. A failure of the
    // body shows as the request's error or a missing answer (writeStreamedBody never rejects).
    else void writeStreamedBody(body, req);
  });
}

function sameHostTarget(from: URL, to: URL, original: URL): URL | null {
  if (to.host !== original.host && !(to.hostname === original.hostname && original.protocol === 'http:' && to.protocol === 'https:' && to.port === '')) return null;
  if (original.protocol === 'https:' && to.protocol !== 'https:') return null;
  // The token travels as auth_token (spec §5.6): a redirect on the service's own host keeps it.
  const token = from.searchParams.get('auth_token');
  if (token && !to.searchParams.has('auth_token')) to.searchParams.set('auth_token', token);
  return to;
}

/** Sends `request` and resolves once the answer's head came (redirects followed); the body is read through the Exchange. */
export async function exchange(request: ExchangeRequest, limits: ExchangeLimits): Promise<Exchange> {
  const halt: Halt = { current: null, failure: null, bytes: 0, url: request.url };
  const stop = (failure: ExchangeFailure) => {
    if (halt.failure) return;
    halt.failure = failure;
    halt.current?.(failure);
  };
  const overall = limits.overallMs > 0
    ? setTimeout(() => stop(new ExchangeFailure('overall-timeout', { url: halt.url, limitMs: limits.overallMs, bytes: halt.bytes })), limits.overallMs).unref()
    : undefined;
  const onAbort = () => stop(new ExchangeFailure('cancelled', { url: halt.url }));
  const onStall = () => stop(new ExchangeFailure('stalled', { url: halt.url }));
  request.signal?.addEventListener('abort', onAbort, { once: true });
  request.stallSignal?.addEventListener('abort', onStall, { once: true });
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(overall);
    request.signal?.removeEventListener('abort', onAbort);
    request.stallSignal?.removeEventListener('abort', onStall);
  };
  if (request.signal?.aborted) onAbort();

  let response: IncomingMessage | undefined;
  let url = request.url;
  const chain: URL[] = [url];
  try {
    // Only GET and HEAD are redirected (below), so a request with a body is sent once.
    for (const { method, body } = request; ;) {
      halt.url = url;
      response = await hop(url, request, method, body, limits, halt);
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.statusCode ?? 0) || !location) break;
      response.resume(); // its body is not wanted
      let target: URL;
      try {
        target = new URL(location, url);
      } catch {
        break; // an unreadable Location: the 3xx is the answer
      }
      if (method !== 'GET' && method !== 'HEAD') throw new ExchangeFailure('redirect-write', { url, target });
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new ExchangeFailure('redirect-elsewhere', { url, target });
      const next = sameHostTarget(url, target, request.url) ?? (request.redirects === 'any' ? target : null);
      if (!next) throw new ExchangeFailure('redirect-elsewhere', { url, target });
      if (chain.some((seen) => seen.href === next.href) || chain.length > limits.maxRedirects) {
        throw new ExchangeFailure('redirect-loop', { url, chain: [...chain, next] });
      }
      chain.push(next);
      url = next;
    }
  } catch (error) {
    finish();
    if (error instanceof ExchangeFailure || error instanceof ProxyAddressError) throw error;
    throw new ExchangeFailure('network', { url, code: errorCode(error) }, error);
  }

  const answer = response!;
  // Whoever reads the body hears of its failures; until then (or without a reader) they must not go unhandled.
  answer.on('error', () => undefined);
  halt.current = (failure) => answer.destroy(failure);
  if (halt.failure) answer.destroy(halt.failure);
  const headers = headersOf(answer);
  const expectedBytes = contentLength(headers);
  let consumed = false;

  async function* body(): AsyncGenerator<Buffer> {
    if (consumed) throw new Error('The body of an answer can be read once.');
    consumed = true;
    const chunks = answer[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let idle: NodeJS.Timeout | undefined;
    try {
      for (;;) {
        if (limits.idleMs > 0) {
          idle = setTimeout(() => answer.destroy(new ExchangeFailure('idle-timeout', { url, limitMs: limits.idleMs, bytes: halt.bytes })), limits.idleMs).unref();
        }
        let step: IteratorResult<Buffer>;
        try {
          step = await chunks.next();
        } catch (error) {
          if (error instanceof ExchangeFailure) throw error;
          // The connection closed before the answer was whole (Content-Length or the last chunk never came).
          throw new ExchangeFailure('truncated', { url, bytes: halt.bytes, expectedBytes, code: errorCode(error) }, error);
        } finally {
          clearTimeout(idle);
        }
        if (step.done) break;
        halt.bytes += step.value.length;
        yield step.value;
      }
      if (!answer.complete) throw new ExchangeFailure('truncated', { url, bytes: halt.bytes, expectedBytes });
    } finally {
      clearTimeout(idle);
      finish();
      if (!answer.readableEnded) answer.destroy();
    }
  }

  const close = () => {
    finish();
    if (!answer.readableEnded) answer.destroy();
  };
  return {
    status: answer.statusCode ?? 0,
    headers,
    url,
    ...(halt.proxy ? { proxy: halt.proxy, fromProxy: halt.fromProxy === true } : {}),
    body,
    async read(maxBytes, over) {
      if (over === 'refuse' && expectedBytes !== null && expectedBytes > maxBytes) {
        close();
        throw new ExchangeFailure('too-large', { url, bytes: 0, expectedBytes, limitBytes: maxBytes });
      }
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of body()) {
        total += chunk.length;
        if (total > maxBytes) {
          if (over === 'refuse') throw new ExchangeFailure('too-large', { url, bytes: total, expectedBytes, limitBytes: maxBytes });
          chunks.push(chunk.subarray(0, chunk.length - (total - maxBytes)));
          break;
        }
        chunks.push(chunk);
      }
      return Buffer.concat(chunks);
    },
    close,
  };
}
