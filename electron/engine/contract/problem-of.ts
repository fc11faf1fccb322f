import type { ContractProblem } from '../../../shared';
import { isServiceError } from '../api/service-error';
import { isSignInError } from '../authorization/sign-in-error';
import { systemErrorWords } from '../log/error-words';
import { engineLog } from '../log/engine-log';
import { isQueueRefusal } from '../queue/queue-refusal';
import { isEngineError } from '../runtime/engine-error';

/**
 * Any failure as a typed problem that survives a process boundary: the service's problems and the engine's as they
 * are (their messages are words, without the network's codes); a system error (a disk that is full) in words, its
 * code to the engine log; anything else (a bug) as 'internal' with its message, never a stack trace.
 */
export function problemOf(error: unknown): ContractProblem {
  if (isServiceError(error)) return error.problem;
  if (isEngineError(error)) return error.problem;
  if (isQueueRefusal(error)) return error.problem;
  if (isSignInError(error)) return { kind: 'internal', message: error.message };
  const words = systemErrorWords(error);
  if (words !== null) {
    engineLog.warn('contract', 'a request failed on a system error', error);
    return { kind: 'internal', message: `It could not be done: ${words}.` };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'internal', message: message || 'Something went wrong in the engine.' };
}
