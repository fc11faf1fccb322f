import type { ServiceProblem } from '../../../shared';
import type { ServiceClient } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import type { Session } from '../authorization/session';
import { backoffDelay } from './backoff';
import type { QueueBlock } from './problem-outcome';
import type { QueueStore } from './queue-store';

/** What the runner needs of the session: whether it may write now, and to hear when that changes. */
export type WriteAccess = Pick<Session, 'canWrite' | 'subscribe' | 'state'>;

/** What the queue says while it waits for the content policy to be accepted (rule 5). */
export const CONTENT_POLICY_REASON =
  'Waiting for you: confirm that you upload only designs and files you have the right to publish, under the service\'s content policy. Nothing is sent until you do.';

type Block =
  | { kind: 'offline'; message: string; attempt: number; reason: string }
  | { kind: 'rate-limited'; untilMs: number; reason: string }
  | { kind: 'sign-in'; reason: string }
  | { kind: 'content-policy'; reason: string };

export interface QueueBlocksOptions {
  store: QueueStore;
  session: WriteAccess;
  /** For the probe: a cheap request that needs the token (the runner's client). */
  client: ServiceClient;
  random: () => number;
  contentPolicyAccepted: () => boolean;
  /** Whether the runner is running (a block is never entered while it is not). */
  running: () => boolean;
  /** Told of every change: entered, its reason updated, or cleared (then the runner sends again). */
  changed: (cleared: boolean) => void;
}

/**
 * Why the whole queue waits, as a small state machine: offline (probing with backoff until the service answers),
 * rate-limited (until Retry-After passes), waiting for a sign-in (probing only when the client is not tied to the
 * session), waiting for the content policy (only the person can end it). Resumes by itself wherever it can.
 */
export class QueueBlocks {
  private block: Block | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: QueueBlocksOptions) {}

  get active(): boolean {
    return this.block !== null;
  }

  get reason(): string | null {
    return this.block?.reason ?? null;
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
      this.block = { kind: 'offline', message: block.message, attempt: 0, reason: `Cannot reach the service (${block.message}).` };
      store.log('warning', `Cannot reach the service (${block.message}): uploads wait and resume by themselves.`);
      this.scheduleProbe();
    } else if (block.kind === 'rate-limited') {
      if (current?.kind === 'sign-in' || current?.kind === 'content-policy' || (current?.kind === 'rate-limited' && current.untilMs >= block.untilMs)) return;
      clearTimeout(this.timer);
      this.block = { kind: 'rate-limited', untilMs: block.untilMs, reason: `The service asked to slow down: uploads resume at ${clock(block.untilMs)}.` };
      store.log('warning', `The service asked to slow down: uploads resume in ${Math.ceil((block.untilMs - Date.now()) / 1000)} s.`);
      this.timer = setTimeout(() => this.clear(), Math.max(0, block.untilMs - Date.now()));
      this.timer.unref();
    } else if (block.kind === 'content-policy') {
      if (current?.kind === 'content-policy') return;
      clearTimeout(this.timer);
      this.block = { kind: 'content-policy', reason: CONTENT_POLICY_REASON };
      store.log('warning', CONTENT_POLICY_REASON);
    } else {
      if (current?.kind === 'sign-in' || current?.kind === 'content-policy') return;
      clearTimeout(this.timer);
      this.block = { kind: 'sign-in', reason: this.signInReason() };
      store.log('warning', `${this.signInReason()} Uploads wait until then.`);
      // A client not tied to the session would never see it change: then probe whether the token works again.
      if (this.options.session.canWrite()) this.scheduleProbe();
    }
    this.options.changed(false);
  }

  /** Ends a block that resumes by itself (offline, rate-limited, sign-in); the content policy is the person's to end. */
  clear(): void {
    const was = this.block;
    if (!was || was.kind === 'content-policy') return;
    clearTimeout(this.timer);
    this.block = null;
    if (!this.options.running()) return;
    if (was.kind === 'offline') this.options.store.log('info', 'The service is reachable again: uploads resume.');
    else if (was.kind === 'sign-in') this.options.store.log('info', 'Signed in: uploads resume.');
    this.options.changed(true);
  }

  /** The person accepted the content policy (rule 5): the queue may go on, once signed in. */
  contentPolicyChanged(): void {
    if (!this.options.running() || this.block?.kind !== 'content-policy' || !this.options.contentPolicyAccepted()) return;
    this.options.store.log('info', 'Content policy accepted: uploads may start.');
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
    clearTimeout(this.timer);
    this.block = null;
  }

  private scheduleProbe(): void {
    const block = this.block;
    if (!block || block.kind === 'rate-limited' || block.kind === 'content-policy') return;
    let delay: number;
    if (block.kind === 'offline') {
      block.attempt += 1;
      delay = backoffDelay(block.attempt, this.options.random);
      block.reason = `Cannot reach the service (${block.message}): trying again by itself at ${clock(Date.now() + delay)}.`;
      this.options.changed(false);
    } else {
      delay = 5_000;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.probe(), delay);
    this.timer.unref();
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
        this.enter({ kind: 'rate-limited', untilMs: Date.now() + problem.retryAfterMs });
      } else if (this.block.kind !== 'sign-in' || this.options.session.canWrite()) {
        this.scheduleProbe();
      }
    }
  }

  private signInReason(): string {
    return this.options.session.state.status === 'signed-out'
      ? 'Sign in to send your changes to the service.'
      : 'Sign in again: the service no longer accepts this sign-in.';
  }
}

/** HH:MM:SS, local time. */
function clock(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}
