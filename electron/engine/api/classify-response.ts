import type { FieldErrors, ServiceProblem } from '../../../shared';

const DEFAULT_RETRY_AFTER_MS = 5_000;

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function messageOf(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const { error, message } = body as Record<string, unknown>;
    if (typeof error === 'string' && error) return error;
    if (typeof message === 'string' && message) return message;
  }
  if (typeof body === 'string' && body.trim() && body.length < 300 && !body.trimStart().startsWith('<')) return body.trim();
  return undefined;
}

/** Rails answers 422 as { errors: { field: [..] } }; some APIs use an array or a single error. Accept them all. */
export function fieldErrorsOf(body: unknown): FieldErrors {
  if (!body || typeof body !== 'object') return {};
  const { errors, error } = body as Record<string, unknown>;
  if (errors && typeof errors === 'object' && !Array.isArray(errors)) {
    const result: FieldErrors = {};
    for (const [field, messages] of Object.entries(errors)) {
      result[field] = (Array.isArray(messages) ? messages : [messages]).map(String);
    }
    return result;
  }
  if (Array.isArray(errors)) return { base: errors.map(String) };
  if (typeof error === 'string') return { base: [error] };
  return {};
}

function describeFieldErrors(errors: FieldErrors): string {
  const parts = Object.entries(errors).flatMap(([field, messages]) => messages.map((m) => (field === 'base' ? m : `${field} ${m}`)));
  return parts.length > 0 ? parts.join('; ') : 'The service refused the input';
}

/** Where an answer came from, for the messages of answers whose body says nothing usable. */
export interface AnswerContext {
  /** The service's host (127.0.0.1:4010). */
  host: string;
  /** The address the service was asked at (http://127.0.0.1:4010). */
  origin: string;
  /** The request, without its query ("GET /v1/designs"). */
  request: string;
  /** The answer is a web page (text/html) rather than data: often a proxy, or not the service's API address. */
  webPage: boolean;
}

function fallback(status: number, context: AnswerContext | undefined, plain: string): string {
  if (!context) return plain;
  const page = context.webPage ? ', a web page instead of data' : '';
  if (status === 502 || status === 503 || status === 504) return `The service at ${context.host} is unavailable (HTTP ${status}${page}); try again later.`;
  if (status >= 500) return `The service at ${context.host} failed while answering ${context.request} (HTTP ${status}${page}); try again later.`;
  if (status === 404 && context.webPage) return `${context.request} was not found at ${context.host} (HTTP 404, a web page instead of data): is ${context.origin} the service's API address?`;
  return plain;
}

export function classifyResponse(status: number, headers: Headers, body: unknown, context?: AnswerContext): ServiceProblem {
  const message = messageOf(body);
  const retryAfterMs = parseRetryAfter(headers.get('retry-after'));
  if (status === 401) return { kind: 'token-rejected', message: message ?? 'The service no longer accepts this sign-in. Sign in again.' };
  if (status === 403) return { kind: 'forbidden', message: message ?? 'You are not allowed to do this.' };
  if (status === 404 || status === 410) return { kind: 'not-found', message: message ?? fallback(status, context, 'Not found on the service.') };
  if (status === 422) {
    const fieldErrors = fieldErrorsOf(body);
    return { kind: 'validation', message: describeFieldErrors(fieldErrors), fieldErrors };
  }
  if (status === 429) {
    const wait = retryAfterMs ?? DEFAULT_RETRY_AFTER_MS;
    return { kind: 'rate-limited', message: message ?? `The service asks to wait ${Math.ceil(wait / 1000)} s before trying again.`, retryAfterMs: wait };
  }
  if (status >= 500) {
    const text = message ?? fallback(status, context, `The service failed (HTTP ${status}).`);
    return { kind: 'server-error', status, message: text, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  }
  return { kind: 'bad-request', status, message: message ?? `The service refused the request (HTTP ${status}).` };
}
