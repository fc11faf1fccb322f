import type { FieldErrors } from '../validation/field-errors';
import type { ServiceProblem } from '../problems/service-problem';
import type { EngineWords } from '../i18n/engine-words';

/** What the engine itself may answer, beyond the service's problems: each says what to do next. */
export type EngineProblem =
  /** Nobody is signed in (or the sign-in was refused): sign in first. */
  | { kind: 'not-signed-in'; message: string }
  /** No sync folder is chosen yet, or the chosen one cannot be used (another profile's, a file…). */
  | { kind: 'sync-folder'; message: string }
  /** The thing asked for is not in the cache and the service cannot be asked now. */
  | { kind: 'not-cached'; message: string }
  /** The request cannot be done in the item's or the design's current state (nothing to confirm, not yours…). */
  | { kind: 'conflict'; message: string }
  /** No such request in the contract. */
  | { kind: 'unknown-request'; message: string }
  /** A fault of the engine itself; the message says what failed, never a stack trace. */
  | { kind: 'internal'; message: string };

/**
 * Every failure that crosses the boundary: the service's problems (offline, token-rejected, validation…) and the
 * engine's. Input the contract refuses is a 'validation' problem naming each field.
 */
export type ContractProblem = (ServiceProblem | EngineProblem) & ProblemWords;

/**
 * A refusal of the engine's own, as facts (a message id of the catalogs and its values): the window and the command
 * line say it in the person's language, `message` being its English (for the log, `--json` and older front ends).
 * Absent from the service's problems, whose words are the service's own.
 */
export interface ProblemWords {
  words?: EngineWords;
}
export type ContractProblemKind = ContractProblem['kind'];

export function validationProblem(fieldErrors: FieldErrors, message = 'Some fields are not right.'): ContractProblem {
  return { kind: 'validation', message, fieldErrors };
}
