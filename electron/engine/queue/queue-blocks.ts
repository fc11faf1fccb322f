import type { ServiceProblem } from '../../../shared';
import type { ServiceClient } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import type { Session } from '../authorization/session';
import { engineLog } from '../log/engine-log';
import { backoffDelay } from './backoff';
import type { ConnectivitySource } from './connectivity-source';
import type { QueueClock, QueueTimer } from './clock';
import type { QueueBlock } from './problem-outcome';
import type { QueueStore } from './queue-store';
import { said, type Said } from './said';

/** What the runner needs of the session: whether it may write now, and to hear when that changes. */
export type WriteAccess = Pick<Session, 'canWrite' | 'subscribe' | 'state'>;

/** What the queue's activity says while it waits for the content policy to be accepted (rule 5). */
export const contentPolicyReason = (): Said => said('activity.queue.contentPolicyWaits');

type Block =
  | { kind: 'offline'; message: string; attempt: number }
  | { kind: 'rate-limited'; untilMs: number }
  | { kind: 'sign-in' }
  | { kind: 'content-policy' };

export interface QueueBlocksOptions {
  store: Pick<QueueStore, 'log'>;
  session: WriteAccess;
  /** For the probe: a cheap request that needs the token (the runner's client). */
  client: ServiceClient;
  /**
   * The engine's one source of connectivity: while offline the queue waits on it, so the queue and the status never
   * disagree. Without one (the queue alone, in tests and benchmarks) the queue probes the service itself.
   */
  connectivity?: ConnectivitySource;
  random: () => number;
  /** Time and timers (Retry-After, the probe's backoff). */
  clock: QueueClock;
  contentPolicyAccepted: () => boolean;
  /** Whether the runner is running (a block is never entered while it is not). */
  running: () => boolean;
  /** Told of every change: entered or cleared (then the runner sends again). */
  changed: (cleared: boolean) => void;
}

/**
 * Why the whole queue waits, as a small state machine: offline (until the connectivity source says the service answers
 * again; without one, probing with backoff),
 * rate-limited (until Retry-After passes), waiting for a sign-in (probing only when the client is not tied to the
 * session), waiting for the content policy (only the person can end it). Resumes by itself wherever it can.
 */
export class QueueBlocks {
  private block: Block | null = null;
  private timer: QueueTimer | undefined;
  private stopAwaiting: (() => void) | null = null;

  constructor(private readonly options: QueueBlocksOptions) {}

  get active(): boolean {
    return this.block !== null;
  }

  get blockedBy(): QueueBlock | null {
    const block = this.block;
    if (!block) return null;
    if (block.kind === 'offline') return { kind: 'offline', message: block.message };
    if (block.kind === 'rate-limited') return { kind: 'rate-limited', untilMs: block.untilMs };
    return { kind: block.kind };
  }

  /** At start: the content policy first (the person), then the sign-in. */
  startChecks(): void {
    if (!this.options.contentPolicyAccepted()) this.enter({ kind: 'content-policy' });
    else if (!this.options.session.canWrite()) this.enter({ kind: 'sign-in' });
  }

  enter(block: QueueBlock): void {
    if (!this.options.running()) return;
    const { store } = this.options;
    const current = this.block;
    if (block.kind === 'offline') {
      if (current) return;
      const { connectivity } = this.options;
      // The service answered again meanwhile (another request did): nothing to wait for.
      if (connectivity?.isOnline()) return;
      this.block = { kind: 'offline', message: block.message, attempt: 0 };
      engineLog.info('queue', `uploads wait for the service: ${block.message}`);
      store.log('warning', said('activity.queue.offline'));
      if (connectivity) this.stopAwaiting = connectivity.awaitOnline(() => this.clear());
      else this.scheduleProbe();
    } else if (block.kind === 'rate-limited') {
      if (current?.kind === 'sign-in' || current?.kind === 'content-policy' || (current?.kind === 'rate-limited' && current.untilMs >= block.untilMs)) return;
      this.stopTimer();
      this.block = { kind: 'rate-limited', untilMs: block.untilMs };
      store.log('warning', said('activity.queue.rateLimited', { seconds: Math.ceil((block.untilMs - this.options.clock.now()) / 1000) }));
      this.timer = this.options.clock.setTimer(() => this.clear(), Math.max(0, block.untilMs - this.options.clock.now()));
    } else if (block.kind === 'content-policy') {
      if (current?.kind === 'content-policy') return;
      this.stopTimer();
      this.block = { kind: 'content-policy' };
      store.log('warning', contentPolicyReason());
    } else {
      if (current?.kind === 'sign-in' || current?.kind === 'content-policy') return;
      this.stopTimer();
      this.block = { kind: 'sign-in' };
      store.log('warning', said('activity.queue.signInWait', { status: this.options.session.state.status === 'signed-out' ? 'signedOut' : 'refused' }));
      // A client not tied to the session would never see it change: then probe whether the token works again.
      if (this.options.session.canWrite()) this.scheduleProbe();
    }
    this.options.changed(false);
  }

  /** Ends a block that resumes by itself (offline, rate-limited, sign-in); the content policy is the person's to end. */
  clear(): void {
    const was = this.block;
    if (!was || was.kind === 'content-policy') return;
    this.stopTimer();
    this.block = null;
    if (!this.options.running()) return;
    if (was.kind === 'offline') this.options.store.log('info', said('activity.queue.online'));
    else if (was.kind === 'sign-in') this.options.store.log('info', said('activity.queue.signedIn'));
    this.options.changed(true);
  }

  /** The person accepted the content policy (rule 5): the queue may go on, once signed in. */
  contentPolicyChanged(): void {
    if (!this.options.running() || this.block?.kind !== 'content-policy' || !this.options.contentPolicyAccepted()) return;
    this.options.store.log('info', said('activity.queue.contentPolicyAccepted'));
    this.block = null;
    if (!this.options.session.canWrite()) this.enter({ kind: 'sign-in' });
    else this.options.changed(true);
  }

  /** The session changed: a sign-in ends the sign-in wait; a lost one starts it. */
  sessionChanged(): void {
    if (!this.options.running() || this.block?.kind === 'content-policy') return;
    if (this.options.session.canWrite()) {
      if (this.block?.kind === 'sign-in') this.clear();
    } else if (this.block?.kind !== 'sign-in') {
      this.enter({ kind: 'sign-in' });
    }
  }

  /** The runner stops: no timer left, no block kept. */
  reset(): void {
    this.stopTimer();
    this.block = null;
  }

  /** The probe of a queue without a connectivity source (offline), or of a client not tied to the session (sign-in). */
  private scheduleProbe(): void {
    const block = this.block;
    if (!block || block.kind === 'rate-limited' || block.kind === 'content-policy') return;
    let delay: number;
    if (block.kind === 'offline') {
      block.attempt += 1;
      delay = backoffDelay(block.attempt, this.options.random);
    } else {
      delay = 5_000;
    }
    this.stopTimer();
    this.timer = this.options.clock.setTimer(() => void this.probe(), delay);
  }

  /** A cheap request that needs the token: the service is there, and it still accepts us. */
  private async probe(): Promise<void> {
    if (!this.options.running() || !this.block) return;
    try {
      await this.options.client.whoami();
      this.clear();
    } catch (error) {
      if (!this.options.running() || !this.block) return;
      const problem: ServiceProblem = isServiceError(error) ? error.problem : { kind: 'offline', message: String(error), maybeApplied: false };
      if (problem.kind === 'token-rejected' && this.block.kind !== 'sign-in') {
        this.block = null;
        this.enter({ kind: 'sign-in' });
      } else if (problem.kind === 'rate-limited') {
        this.block = null;
        this.enter({ kind: 'rate-limited', untilMs: this.options.clock.now() + problem.retryAfterMs });
      } else if (this.block.kind !== 'sign-in' || this.options.session.canWrite()) {
        this.scheduleProbe();
      }
    }
  }

  /** No timer left, and no wait on the connectivity source. */
  private stopTimer(): void {
    this.options.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.stopAwaiting?.();
    this.stopAwaiting = null;
  }

}
