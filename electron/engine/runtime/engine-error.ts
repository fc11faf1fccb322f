import type { ContractProblem } from '../../../shared';

/** A problem the engine answers with (its own, or a refused input), carried as is to whoever asked. */
export class EngineError extends Error {
  constructor(readonly problem: ContractProblem) {
    super(problem.message);
    this.name = 'EngineError';
  }
}

export function isEngineError(error: unknown, kind?: ContractProblem['kind']): error is EngineError {
  return error instanceof EngineError && (kind === undefined || error.problem.kind === kind);
}
