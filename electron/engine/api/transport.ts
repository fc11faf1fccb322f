import { parseErrorBody, readJsonAnswer, UnreadableAnswer, isWebPage, type BodyContext } from './answer-body';
import { classifyResponse } from './classify-response';
import { exchange, ExchangeFailure, type Exchange, type ExchangeLimits } from './http-exchange';
import { exchangeProblem, networkProblem, proxyAnswerProblem } from './network-problem';
import { ProxyAddressError } from './proxy-agents';
import { DEFAULT_RETRY_POLICY, withRetries, type RetryPolicy } from './retry-policy';
import { ServiceError, type ServiceErrorDetail } from './service-error';
import type { BandwidthLimits } from './bandwidth';
import {
  DEFAULT_MAX_ANSWER_BYTES, DEFAULT_MAX_REDIRECTS, DEFAULT_TIMEOUTS, ERROR_BODY_BYTES, limitsFromEnvironment, type Timeouts,
} from './transport-limits';
import type { ServiceProblem } from '../../../shared';

export type QueryValue = string | number | boolean | undefined;

export interface TransportOptions {
  /** The service's base address, e.g. http://127.0.0.1:4010 (paths start with /v1). */
  baseUrl: string;
  /** The token, read for each request so that a new sign-in takes effect at once. */
  token: () => string | null;
  retry?: Partial<RetryPolicy>;
  /** The first-byte timeout (an older name kept for callers that set only that); `timeouts` sets each. */
  timeoutMs?: number;
  /** Connect, first-byte, idle and overall timeouts (transport-limits.ts DEFAULT_TIMEOUTS); 0 turns one off. */
  timeouts?: Partial<Timeouts>;
  /** A JSON answer larger than this is refused while it is read (default 32 MiB). */
  maxAnswerBytes?: number;
  /** Redirects followed for one request (default 5). */
  maxRedirects?: number;
  userAgent?: string;
  /** Told of each problem before any retry, with the token the request carried (to notice a rejected one at once). */
  onProblem?: (problem: ServiceProblem, sent: { token: string | null }) => void;
  /** Told when the service answered at all (any status): it is reachable. */
  onAnswer?: () => void;
  /**
   * Never ask the service's own addresses without the token: refused before sending, as 'token-rejected'. For sync,
   * whose reads decide what is gone: an anonymous answer (public designs only, no drafts) would look like deletions.
   */
  signedInOnly?: boolean;
  /** The profile's upload and download limits, shared by every client of the engine (applied by ServiceClient). */
  bandwidth?: BandwidthLimits;
}

export interface RequestSpec {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue>;
  /**
   * An address on another origin (a file the service points to): asked as it is, without the token, redirects to
   * any host followed. `path` then only names it in messages.
   */
  url?: URL;
  json?: unknown;
  /** A streamed body (uploads), made anew for each attempt; sent through node:http with backpressure. */
  stream?: () => Promise<{ chunks: AsyncIterable<Uint8Array>; headers: Record<string, string> }>;
  headers?: Record<string, string>;
  /** Safe to send again after a lost answer. GET, HEAD, PUT and DELETE are; POST and PATCH are not. */
  idempotent?: boolean;
  /** Statuses that are an answer, not a problem (e.g. 304). */
  accept?: number[];
  signal?: AbortSignal;
  /** Aborts like a timeout rather than a cancellation (an upload the service stopped taking). */
  timeoutSignal?: AbortSignal;
  /** This request's own timeouts, over the transport's. */
  timeouts?: Partial<Timeouts>;
  /**
   * Told of an accepted answer's head before its body is read (each attempt's): a walk of pages asks for the next
   * page the head names while this one's body is read and checked.
   */
  onHead?: (headers: Headers) => void;
}

/** A JSON answer, read whole (within the size limit) and parsed; body is undefined when it had none. */
export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  /** The text `body` was read from (absent when there was none). */
  text?: string;
}

/** An answer whose body is read as it comes (downloads): watched by the idle timeout only, any size. */
export interface StreamedAnswer {
  status: number;
  headers: Headers;
  response: Response;
}

/**
 * The same answer with its body as the connection's own chunks (Node buffers, no web stream between; null when the
 * answer has no body): a failure reaches the reader as a ServiceError; ending the iteration early (`return`, a
 * `break`) closes the answer.
 */
export interface ChunkedAnswer {
  status: number;
  headers: Headers;
  chunks: AsyncGenerator<Buffer> | null;
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

export class Transport {
  readonly policy: RetryPolicy;
  readonly timeouts: Timeouts;
  readonly maxAnswerBytes: number;
  readonly maxRedirects: number;

  constructor(readonly options: TransportOptions) {
    // DESIGN_SYNC_HTTP wins over what the code chose (transport-limits.ts).
    const environment = limitsFromEnvironment();
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry, ...(environment.retries !== undefined ? { retries: environment.retries } : {}) };
    this.timeouts = {
      ...DEFAULT_TIMEOUTS,
      ...(options.timeoutMs !== undefined ? { firstByteMs: options.timeoutMs } : {}),
      ...options.timeouts,
      ...environment.timeouts,
    };
    this.maxAnswerBytes = environment.maxAnswerBytes ?? options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    this.maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  }

  url(path: string, query: Record<string, QueryValue> = {}, withToken = true): URL {
    const url = new URL(path, this.options.baseUrl);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    // A path that names another host ("//host/x", an absolute address) never takes the token there.
    const ownOrigin = url.origin === new URL(this.options.baseUrl).origin;
    const token = withToken && ownOrigin ? this.options.token() : null;
    // Spec §5.6: the token travels as the auth_token query parameter.
    if (token) url.searchParams.set('auth_token', token);
    return url;
  }

  /**
   * Sends with retries as the request's idempotency allows, and reads the answer's JSON within each attempt (so an
   * answer cut short or stalled is asked for again like a lost one). Resolves with an answer of an accepted status.
   */
  send(spec: RequestSpec): Promise<Answer> {
    return this.withRetries(spec, async (ctx) => {
      const answer = await this.exchange(spec, ctx, false);
      if (NULL_BODY_STATUSES.has(answer.status) || spec.method === 'HEAD') {
        // Nothing to read: reading that nothing to its end lets the connection be used again.
        await answer.read(0, 'cut').catch(() => undefined);
        return { status: answer.status, headers: answer.headers, body: undefined };
      }
      spec.onHead?.(answer.headers);
      let bytes: Buffer;
      try {
        bytes = await answer.read(this.maxAnswerBytes, 'refuse');
      } catch (error) {
        throw this.failure(error, spec, ctx);
      }
      try {
        const { value, text } = readJsonAnswer(bytes, answer.headers.get('content-type'), ctx.context);
        return { status: answer.status, headers: answer.headers, body: value, text };
      } catch (error) {
        if (!(error instanceof UnreadableAnswer)) throw error;
        throw this.fail({ kind: 'server-error', status: answer.status, message: error.message }, spec, ctx, { repeatable: false });
      }
    });
  }

  /** Sends with retries and resolves once the answer's head came; its body is a stream (downloads). */
  async open(spec: RequestSpec): Promise<StreamedAnswer> {
    const answer = await this.openChunks(spec);
    const stream = answer.chunks === null ? null : chunkStream(answer.chunks);
    return { status: answer.status, headers: answer.headers, response: new Response(stream, { status: answer.status, headers: answer.headers }) };
  }

  /**
   * As `open`, with the body as the connection's chunks (null for an answer without a body): what a
   * download into a file reads, one chunk at a time, without a web stream's work for each.
   */
  openChunks(spec: RequestSpec): Promise<ChunkedAnswer> {
    return this.withRetries(spec, async (ctx) => {
      const answer = await this.exchange(spec, ctx, true);
      if (NULL_BODY_STATUSES.has(answer.status) || spec.method === 'HEAD') {
        await answer.read(0, 'cut').catch(() => undefined);
        return { status: answer.status, headers: answer.headers, chunks: null };
      }
      return { status: answer.status, headers: answer.headers, chunks: failingAs(answer.body(), (error) => this.failure(error, spec, ctx)) };
    });
  }

  private async withRetries<T>(spec: RequestSpec, attempt: (ctx: AttemptContext) => Promise<T>): Promise<T> {
    const idempotent = spec.idempotent ?? ['GET', 'HEAD', 'PUT', 'DELETE'].includes(spec.method);
    try {
      return await withRetries(() => attempt(this.context(spec)), { idempotent, policy: this.policy, signal: spec.signal });
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      if (spec.signal?.aborted) throw new ServiceError({ kind: 'cancelled', message: 'Cancelled.' }, spec.method, spec.path);
      throw error;
    }
  }

  private context(spec: RequestSpec): AttemptContext {
    const url = spec.url ?? this.url(spec.path, spec.query);
    if (this.options.signedInOnly && !spec.url && !url.searchParams.has('auth_token')) {
      throw new ServiceError({ kind: 'token-rejected', message: 'Not signed in: the service is not asked without your sign-in. Sign in again.' }, spec.method, spec.path, { repeatable: false });
    }
    return {
      url,
      sent: { token: spec.url ? null : url.searchParams.get('auth_token') },
      isWrite: spec.method !== 'GET' && spec.method !== 'HEAD',
      context: { host: url.host, origin: url.origin, request: `${spec.method} ${spec.path}` },
    };
  }

  /** One exchange; an answer of a status that is not accepted becomes its problem (its body read for the message). */
  private async exchange(spec: RequestSpec, ctx: AttemptContext, streamed: boolean): Promise<Exchange> {
    const headers: Record<string, string> = { accept: 'application/json', ...spec.headers };
    if (this.options.userAgent) headers['user-agent'] = this.options.userAgent;
    let body: string | AsyncIterable<Uint8Array> | undefined;
    if (spec.stream) {
      const made = await spec.stream();
      body = made.chunks;
      Object.assign(headers, made.headers);
    } else if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const timeouts = { ...this.timeouts, ...spec.timeouts };
    const limits: ExchangeLimits = { ...timeouts, overallMs: streamed ? 0 : timeouts.overallMs, maxRedirects: this.maxRedirects };

    let answer: Exchange;
    try {
      answer = await exchange({
        // A file may be served by a storage host the service redirects to; data comes from the service's own host.
        url: ctx.url, method: spec.method, headers, body, redirects: streamed || spec.url ? 'any' : 'same-host', signal: spec.signal, stallSignal: spec.timeoutSignal,
      }, limits);
    } catch (error) {
      throw this.failure(error, spec, ctx);
    }
    if (answer.proxy && (answer.status === 407 || answer.fromProxy)) {
      // The proxy answered in the service's place: the service was not reached.
      answer.close();
      throw this.fail(proxyAnswerProblem(answer.proxy, answer.status, ctx.context.host), spec, ctx, { repeatable: false });
    }
    if (!spec.url) this.options.onAnswer?.();
    if ((answer.status >= 200 && answer.status < 300) || spec.accept?.includes(answer.status)) return answer;

    let bytes: Buffer = Buffer.alloc(0);
    try {
      bytes = await answer.read(ERROR_BODY_BYTES, 'cut');
    } catch {
      // An error answer whose body does not come still has its status.
    }
    const webPage = isWebPage(answer.headers.get('content-type'), bytes.subarray(0, 512).toString('utf8'));
    const problem = classifyResponse(answer.status, answer.headers, parseErrorBody(bytes), { ...ctx.context, webPage });
    throw this.fail(problem, spec, ctx);
  }

  /** Any failure of an attempt as a ServiceError (the ones already made pass through). */
  private failure(error: unknown, spec: RequestSpec, ctx: AttemptContext): ServiceError {
    if (error instanceof ServiceError) return error;
    if (error instanceof ProxyAddressError) return this.fail({ kind: 'bad-request', status: 0, message: error.message }, spec, ctx, { repeatable: false }, error);
    if (error instanceof ExchangeFailure) {
      const { problem, detail } = exchangeProblem(error, ctx.context.request, ctx.isWrite);
      return this.fail(problem, spec, ctx, detail, error);
    }
    return this.fail(networkProblem(error, ctx.isWrite, spec.signal?.aborted ? 'cancelled' : null), spec, ctx, {}, error);
  }

  private fail(problem: ServiceProblem, spec: RequestSpec, ctx: AttemptContext, detail: ServiceErrorDetail = {}, cause?: unknown): ServiceError {
    // Another origin's problems (a file host's) say nothing about the service or the sign-in.
    if (!spec.url) this.options.onProblem?.(problem, ctx.sent);
    return new ServiceError(problem, spec.method, spec.path, detail, cause);
  }
}

/** The answer's chunks as they come; a failure reaches the reader as the ServiceError `fail` makes of it. */
async function* failingAs(chunks: AsyncGenerator<Buffer>, fail: (error: unknown) => ServiceError): AsyncGenerator<Buffer> {
  try {
    yield* chunks;
  } catch (error) {
    throw fail(error);
  }
}

/**
 * The answer's chunks as the body of a Response, each passed on as it came (one chunk read ahead). Cancelling the
 * stream closes the answer.
 */
function chunkStream(chunks: AsyncGenerator<Buffer>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const step = await chunks.next();
      if (step.done) controller.close();
      else controller.enqueue(step.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

interface AttemptContext {
  url: URL;
  sent: { token: string | null };
  isWrite: boolean;
  context: BodyContext;
}
