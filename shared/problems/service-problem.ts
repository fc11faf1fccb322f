import type { EngineWords } from '../i18n/engine-words';
import type { FieldErrors } from '../validation/field-errors';

/**
 * What went wrong talking to the service, as the rest of the app acts on it.
 * Each kind has one thing to do next: wait and retry, sign in again, stop, fix the input.
 */
export type ServiceProblem =
  /** The service could not be reached (no network, refused, reset, timed out). `maybeApplied`: a write was sent and its answer lost. */
  | {
    kind: 'offline'; message: string; maybeApplied: boolean;
    /** It was the proxy that failed (refused, not found, asked for credentials): the message names it, not the service. */
    proxy?: true;
    /** The proxy's failure as facts, which a front end words in the person's language (the message is their English). */
    words?: EngineWords;
  }
  /** The token is missing, unknown or revoked: sign in again. */
  | { kind: 'token-rejected'; message: string }
  /** Signed in, but not allowed to do this (spec §7). */
  | { kind: 'forbidden'; message: string }
  | { kind: 'not-found'; message: string }
  /** The service refused the input; `fieldErrors` says which field and why. */
  | { kind: 'validation'; message: string; fieldErrors: FieldErrors }
  /** Too many requests: wait `retryAfterMs` before trying again. */
  | { kind: 'rate-limited'; message: string; retryAfterMs: number }
  /** The service failed (5xx) or answered something we cannot read. */
  | { kind: 'server-error'; message: string; status: number; retryAfterMs?: number }
  /** The request itself was wrong (400, 413, 415…): retrying will not help. */
  | { kind: 'bad-request'; message: string; status: number }
  /** The caller cancelled it. */
  | { kind: 'cancelled'; message: string };

export type ServiceProblemKind = ServiceProblem['kind'];

/** Whether trying the same request again later may succeed. */
export function isTransient(problem: ServiceProblem): boolean {
  return problem.kind === 'offline' || problem.kind === 'rate-limited' || problem.kind === 'server-error';
}
