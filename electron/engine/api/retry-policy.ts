import { setTimeout as sleep } from 'node:timers/promises';
import pRetry from 'p-retry';
import type { ServiceProblem } from '../../../shared';
import { isServiceError, type ServiceError } from './service-error';

export interface RetryPolicy {
  /** Further attempts after the first. */
  retries: number;
  minDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for here: the problem goes to the caller (the queue schedules it). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 4, minDelayMs: 200, maxDelayMs: 10_000, maxRetryAfterMs: 30_000 };

/**
 * Whether a failed request may be sent again as it is. Idempotent requests retry on every transient
 * problem; a write that is not idempotent only when it certainly was not applied: a 429, or a connection
 * that never reached the service. It is never blindly repeated after a lost answer or a 5xx.
 */
export function mayRepeat(problem: ServiceProblem, idempotent: boolean): boolean {
  switch (problem.kind) {
    case 'rate-limited':
      return true;
    case 'offline':
      return idempotent || !problem.maybeApplied;
    case 'server-error':
      return idempotent;
    default:
      return false;
  }
}

/**
 * Whether this failure of attempt number `attemptNumber` may be followed by another: as mayRepeat says, except that an
 * answer that cannot be understood is not asked for again, a request that timed out is sent again only once, and one
 * whose answer kept coming past the overall bound (a service dripping it) is not sent again: waiting that out twice
 * would double the longest wait a person has (two minutes) for the same answer.
 */
function repeatable(error: ServiceError, attemptNumber: number, idempotent: boolean): boolean {
  if (error.detail.repeatable === false) return false;
  if (error.detail.timeout === 'overall') return false;
  if (error.detail.timeout !== undefined && attemptNumber >= 2) return false;
  return mayRepeat(error.problem, idempotent);
}

/** Runs `attempt`, retrying with exponential backoff and jitter (p-retry), honouring Retry-After. */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  options: { idempotent: boolean; policy: RetryPolicy; signal?: AbortSignal; onRetry?: (problem: ServiceProblem, attempt: number) => void },
): Promise<T> {
  const { policy } = options;
  return pRetry(attempt, {
    retries: policy.retries,
    minTimeout: policy.minDelayMs,
    maxTimeout: policy.maxDelayMs,
    factor: 2,
    randomize: true,
    signal: options.signal,
    shouldRetry: ({ error, attemptNumber }) => {
      if (!isServiceError(error)) return false;
      const { problem } = error;
      const wait = problem.kind === 'rate-limited' ? problem.retryAfterMs : problem.kind === 'server-error' ? problem.retryAfterMs : undefined;
      if (wait !== undefined && wait > policy.maxRetryAfterMs) return false;
      return repeatable(error, attemptNumber, options.idempotent);
    },
    onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
      if (!isServiceError(error) || retriesLeft === 0) return;
      const { problem } = error;
      const wait = problem.kind === 'rate-limited' ? problem.retryAfterMs : problem.kind === 'server-error' ? problem.retryAfterMs : undefined;
      if (!repeatable(error, attemptNumber, options.idempotent) || (wait !== undefined && wait > policy.maxRetryAfterMs)) return;
      options.onRetry?.(problem, attemptNumber);
      // Retry-After is a floor: wait it out, then p-retry's own jittered backoff follows.
      if (wait) await sleep(wait, undefined, { signal: options.signal });
    },
  });
}
