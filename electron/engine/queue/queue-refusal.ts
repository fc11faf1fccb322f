import type { ContractProblem, FieldErrors } from '../../../shared';
import type { MessageId } from '../../../shared/i18n/messages';
import { said, type SaidValue } from './said';

/** The kinds of refusal the queue makes. */
export type QueueRefusalKind = 'not-found' | 'conflict' | 'validation';

/**
 * The queue turns down what a person asked (no such item, an item in another state, a new design's fields that do not
 * pass), in words that name the item and why: the contract answers with its problem, whose `words` the front ends say
 * in the person's language; its message is the English (the log, `--json`).
 */
export class QueueRefusal extends Error {
  constructor(readonly problem: ContractProblem) {
    super(problem.message);
    this.name = 'QueueRefusal';
  }

  /** A refusal as the catalogs' message `id` with its `values` (an item's subject may be a sentence of its own). */
  static of(kind: QueueRefusalKind, id: MessageId, values?: Record<string, SaidValue>, fieldErrors?: FieldErrors): QueueRefusal {
    const { text, words } = said(id, values);
    const problem = kind === 'validation'
      ? { kind, message: text, words, fieldErrors: fieldErrors ?? {} }
      : { kind, message: text, words };
    return new QueueRefusal(problem as ContractProblem);
  }
}

export function isQueueRefusal(error: unknown, kind?: ContractProblem['kind']): error is QueueRefusal {
  return error instanceof QueueRefusal && (kind === undefined || error.problem.kind === kind);
}
