import type { ContractProblem } from '../../../shared';

/**
 * The queue turns down what a person asked (no such item, an item in another state, a new design's fields that do not
 * pass), in words that name the item and why: the contract answers with its problem, the CLI prints its message.
 */
export class QueueRefusal extends Error {
  constructor(readonly problem: ContractProblem) {
    super(problem.message);
    this.name = 'QueueRefusal';
  }
}

export function isQueueRefusal(error: unknown, kind?: ContractProblem['kind']): error is QueueRefusal {
  return error instanceof QueueRefusal && (kind === undefined || error.problem.kind === kind);
}
