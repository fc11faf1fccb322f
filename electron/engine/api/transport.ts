import { classifyResponse } from './classify-response';
import { networkProblem } from './network-problem';
import { DEFAULT_RETRY_POLICY, withRetries, type RetryPolicy } from './retry-policy';
import { ServiceError } from './service-error';
import { sendStreamed } from './streamed-request';
import type { ServiceProblem } from '../../../shared';

export type QueryValue = string | number | boolean | undefined;

export interface TransportOptions {
  /** The service's base address, e.g. http://127.0.0.1:4010 (paths start with /v1). */
  baseUrl: string;
  /** The token, read for each request so that a new sign-in takes effect at once. */
  token: () => string | null;
  retry?: Partial<RetryPolicy>;
  /** For each attempt of a request with a body that fits in memory. Uploads use a stall timer instead. */
  timeoutMs?: number;
  userAgent?: string;
  /** Told of each problem before any retry, with the token the request carried (to notice a rejected one at once). */
  onProblem?: (problem: ServiceProblem, sent: { token: string | null }) => void;
  /** Told when the service answered at all (any status): it is reachable. */
  onAnswer?: () => void;
}

export interface RequestSpec {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue>;
  json?: unknown;
  /** A streamed body (uploads), made anew for each attempt; sent through node:http with backpressure. */
  stream?: () => Promise<{ chunks: AsyncIterable<Uint8Array>; headers: Record<string, string> }>;
  headers?: Record<string, string>;
  /** Safe to send again after a lost answer. GET, HEAD, PUT and DELETE are; POST and PATCH are not. */
  idempotent?: boolean;
  /** Statuses that are an answer, not a problem (e.g. 304). */
  accept?: number[];
  signal?: AbortSignal;
  /** Aborts like a timeout rather than a cancellation (e.g. an upload the service stopped taking). */
  timeoutSignal?: AbortSignal;
  /** Overrides the per-attempt timeout; 0 disables it. */
  timeoutMs?: number;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  response: Response;
}

const DEFAULT_TIMEOUT_MS = 30_000;

export class Transport {
  readonly policy: RetryPolicy;

  constructor(readonly options: TransportOptions) {
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  }

  url(path: string, query: Record<string, QueryValue> = {}, withToken = true): URL {
    const url = new URL(path, this.options.baseUrl);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    const token = withToken ? this.options.token() : null;
    // Spec §5.6: the token travels as the auth_token query parameter.
    if (token) url.searchParams.set('auth_token', token);
    return url;
  }

  /** Sends with retries as the request's idempotency allows. Resolves with the response of an accepted status. */
  async send(spec: RequestSpec): Promise<RawResponse> {
    const idempotent = spec.idempotent ?? ['GET', 'HEAD', 'PUT', 'DELETE'].includes(spec.method);
    try {
      return await withRetries(() => this.attempt(spec), { idempotent, policy: this.policy, signal: spec.signal });
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      if (spec.signal?.aborted) throw new ServiceError({ kind: 'cancelled', message: 'Cancelled.' }, spec.method, spec.path);
      throw error;
    }
  }

  private async attempt(spec: RequestSpec): Promise<RawResponse> {
    const timeoutMs = spec.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
    const signals = [spec.signal, timeout, spec.timeoutSignal].filter((s): s is AbortSignal => s !== undefined);
    const headers: Record<string, string> = { accept: 'application/json', ...spec.headers };
    if (this.options.userAgent) headers['user-agent'] = this.options.userAgent;
    const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
    const isWrite = spec.method !== 'GET' && spec.method !== 'HEAD';
    const url = this.url(spec.path, spec.query);
    const sent = { token: url.searchParams.get('auth_token') };

    let response: Response;
    try {
      if (spec.stream) {
        const made = await spec.stream();
        const answer = await sendStreamed(url, spec.method, { ...headers, ...made.headers }, made.chunks, signal);
        const empty = answer.status === 204 || answer.status === 304 || answer.text === '';
        response = new Response(empty ? null : answer.text, { status: answer.status, headers: answer.headers });
      } else {
        let body: string | undefined;
        if (spec.json !== undefined) {
          body = JSON.stringify(spec.json);
          headers['content-type'] = 'application/json';
        }
        response = await fetch(url, { method: spec.method, headers, body, redirect: 'follow', signal });
      }
    } catch (error) {
      const reason = spec.signal?.aborted ? 'cancelled' : timeout?.aborted || spec.timeoutSignal?.aborted ? 'timeout' : null;
      throw this.fail(networkProblem(error, isWrite, reason), spec, sent);
    }
    this.options.onAnswer?.();

    if ((response.status >= 200 && response.status < 300) || spec.accept?.includes(response.status)) {
      return { status: response.status, headers: response.headers, response };
    }
    let parsed: unknown = undefined;
    try {
      const text = await response.text();
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // An unreadable error body still has its status.
    }
    throw this.fail(classifyResponse(response.status, response.headers, parsed), spec, sent);
  }

  private fail(problem: ServiceProblem, spec: RequestSpec, sent: { token: string | null }): ServiceError {
    this.options.onProblem?.(problem, sent);
    return new ServiceError(problem, spec.method, spec.path);
  }
}

/** Reads a JSON body; an empty or non-JSON body where JSON was due is the service's fault. */
export async function readJson(raw: RawResponse, method: string, path: string): Promise<unknown> {
  const text = await raw.response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError({ kind: 'server-error', status: raw.status, message: 'The service answered with something that is not JSON.' }, method, path);
  }
}
