import type { AttentionKind, ServiceProblem } from '../../../shared';
import { backoffDelay } from './backoff';
import type { QueueItem, Settlement } from './queue-item';
import { refusalWords, sentence } from './refusal-words';
import { said, type Said, type SaidValue } from './said';

/** Why the whole queue holds back, not just one item. */
export type QueueBlock =
  /** The service cannot be reached: a cheap probe, with backoff, tells when it is back. */
  | { kind: 'offline'; message: string }
  /** The service asked to wait (429 Retry-After). */
  | { kind: 'rate-limited'; untilMs: number }
  /** The token was refused or there is none: wait for a new sign-in. */
  | { kind: 'sign-in' }
  /** Rule 5: nothing is sent before the person confirms they upload only what they have the right to publish. */
  | { kind: 'content-policy' };

/** Why the runner stopped an attempt itself. */
export type AbortReason = 'stop' | 'pause' | 'cancel';

export interface ProblemOutcome {
  settlement: Settlement;
  block?: QueueBlock;
}

export interface OutcomeOptions {
  now: number;
  maxAttempts: number;
  random: () => number;
  validationAttention: AttentionKind;
  /** Set when the runner aborted the attempt (stop, pause, cancel). */
  aborted: AbortReason | null;
}

export { sentence };

/** An item's reason while the service does not answer: it is sent by itself once the service is back. */
export const offlineReason = (): Said => said('queue.reason.offline');

/** A transient failure of the item's own: back in line after a backoff, until the attempts run out. */
export function retryLater(item: QueueItem, problem: SaidValue, options: OutcomeOptions, floorMs = 0): ProblemOutcome {
  if (item.attempts >= options.maxAttempts) {
    return { settlement: { state: 'failed', reason: said('queue.reason.gaveUp', { attempts: item.attempts, problem }) } };
  }
  const wait = Math.max(floorMs, backoffDelay(item.attempts, options.random));
  // A 5xx or an unknown failure may have come after the service applied the write: reconcile before sending again.
  return { settlement: { state: 'waiting', at: options.now + wait, reason: said('queue.reason.tryingAgain', { problem, seconds: Math.ceil(wait / 1000) }), countAttempt: true, sent: 'keep' } };
}

/** Each problem of the service, as what happens to the item and to the queue (docs: the "Problems → states" table). */
export function outcomeOfProblem(problem: ServiceProblem, item: QueueItem, options: OutcomeOptions): ProblemOutcome {
  const { now } = options;
  switch (problem.kind) {
    case 'offline':
      return {
        // Said once, in words: what the network said (which timeout, which code) is in the engine log (queue-blocks).
        settlement: { state: 'waiting', at: now, reason: offlineReason(), countAttempt: false, sent: problem.maybeApplied ? 'keep' : 'clear' },
        block: { kind: 'offline', message: problem.message },
      };
    case 'rate-limited':
      return {
        settlement: { state: 'waiting', at: now + problem.retryAfterMs, reason: problem.message, countAttempt: false, sent: 'clear' },
        block: { kind: 'rate-limited', untilMs: now + problem.retryAfterMs },
      };
    case 'token-rejected':
      return { settlement: { state: 'waiting', at: now, reason: said('queue.reason.signInAgain'), countAttempt: false, sent: 'clear' }, block: { kind: 'sign-in' } };
    case 'validation':
      return { settlement: { state: 'attention', attention: options.validationAttention, reason: refusalWords(problem, item) } };
    case 'forbidden':
      return { settlement: { state: 'failed', reason: refusalWords(problem, item) } };
    case 'not-found':
      return { settlement: { state: 'attention', attention: 'missing-design', reason: said('queue.reason.notFound', { message: problem.message }) } };
    case 'server-error':
      return retryLater(item, said('queue.reason.serviceFailed', { message: sentence(problem.message) }), options, problem.retryAfterMs ?? 0);
    case 'bad-request':
      return { settlement: { state: 'failed', reason: refusalWords(problem, item) } };
    case 'cancelled':
      return abortedOutcome(options.aborted ?? 'stop', now);
  }
}

/** An attempt the runner stopped: back in line (stop, pause) or cancelled; what was sent stays in doubt. */
export function abortedOutcome(reason: AbortReason, now: number): ProblemOutcome {
  if (reason === 'cancel') return { settlement: { state: 'cancelled', reason: said('queue.reason.cancelled') } };
  return { settlement: { state: 'waiting', at: now, reason: null, countAttempt: false, sent: 'keep' } };
}
