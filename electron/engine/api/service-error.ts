import type { ServiceProblem } from '../../../shared';

/** A failed service request, carrying the problem the app acts on. The message never holds the token. */
export class ServiceError extends Error {
  constructor(
    readonly problem: ServiceProblem,
    readonly method: string,
    readonly path: string,
  ) {
    super(`${method} ${path}: ${problem.message}`);
    this.name = 'ServiceError';
  }
}

export function isServiceError(error: unknown, kind?: ServiceProblem['kind']): error is ServiceError {
  return error instanceof ServiceError && (kind === undefined || error.problem.kind === kind);
}
