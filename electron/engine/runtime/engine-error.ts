import type { ContractProblem, ContractProblemKind } from '../../../shared';
import type { EngineWordValue, EngineWords } from '../../../shared/i18n/engine-words';
import type { MessageId } from '../../../shared/i18n/messages';
import { englishOf } from '../../../shared/i18n/worded-error';

/** The kinds of problem that carry nothing but their words. */
export type PlainProblemKind = Exclude<ContractProblemKind, 'offline' | 'validation' | 'rate-limited' | 'server-error' | 'bad-request'>;

/** A problem the engine answers with (its own, or a refused input), carried as is to whoever asked. */
export class EngineError extends Error {
  constructor(readonly problem: ContractProblem) {
    super(problem.message);
    this.name = 'EngineError';
  }

  /**
   * A refusal of the engine's own, as the catalogs' message `id` with its `values` (names, paths, counts: text not
   * ours): its facts go to whoever asked, who says them in the person's language; its message is the English.
   */
  static of(kind: PlainProblemKind, id: MessageId, values?: Record<string, EngineWordValue>): EngineError {
    const words = wordsOf(id, values);
    return new EngineError({ kind, message: englishOf(words), words } as ContractProblem);
  }
}

/** The facts of the catalogs' message `id` with `values`. */
export function wordsOf(id: MessageId, values?: Record<string, EngineWordValue>): EngineWords {
  return values === undefined ? { id } : { id, values };
}

export function isEngineError(error: unknown, kind?: ContractProblem['kind']): error is EngineError {
  return error instanceof EngineError && (kind === undefined || error.problem.kind === kind);
}
