import type { ContractProblem } from '../../../shared';
import { isServiceError } from '../api/service-error';
import { isSignInError } from '../authorization/sign-in-error';
import { isEngineError } from '../runtime/engine-error';

/**
 * Any failure as a typed problem that survives a process boundary: the service's problems and the engine's as they
 * are; anything else (a bug, a disk error) as 'internal' with its message, never a stack trace.
 */
export function problemOf(error: unknown): ContractProblem {
  if (isServiceError(error)) return error.problem;
  if (isEngineError(error)) return error.problem;
  if (isSignInError(error)) return { kind: 'internal', message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'internal', message: message || 'Something went wrong in the engine.' };
}
