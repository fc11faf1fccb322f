import type { ServiceProblem } from '../../../shared';

/** Which of the request's timeouts fired (transport-limits.ts), when one did. */
export type TimeoutName = 'connect' | 'first-byte' | 'idle' | 'overall' | 'stall';

/** What the retry policy needs to know beyond the problem itself. */
export interface ServiceErrorDetail {
  /** Which timeout fired: a timed-out request is sent again at most once (it already waited its whole timeout). */
  timeout?: TimeoutName;
  /** False when sending the same request again cannot help (an answer that is too large, or not understood). */
  repeatable?: boolean;
}

/** A failed service request: the problem, and which request it was. The message never holds the token. */
export class ServiceError extends Error {
  constructor(
    readonly problem: ServiceProblem,
    readonly method: string,
    readonly path: string,
    readonly detail: ServiceErrorDetail = {},
    /** What the network or the HTTP client threw (its code: ECONNREFUSED…), kept for the engine log, never shown. */
    cause?: unknown,
  ) {
    super(`${method} ${path}: ${problem.message}`, cause === undefined ? undefined : { cause });
    this.name = 'ServiceError';
  }
}

export function isServiceError(error: unknown, kind?: ServiceProblem['kind']): error is ServiceError {
  return error instanceof ServiceError && (kind === undefined || error.problem.kind === kind);
}
