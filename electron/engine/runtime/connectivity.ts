import { EventEmitter } from 'node:events';
import type { ServiceProblem } from '../../../shared';
import { backoffDelay } from '../queue/backoff';
import { isServiceError } from '../api/service-error';
import { engineLog } from '../log/engine-log';

export interface ConnectivityState {
  online: boolean;
  reason: string | null;
  since: number;
}

/**
 * Whether the service can be reached, as the engine's own requests show it: an answer of any status means online, a
 * request that never got one means offline. While offline and following, a cheap probe with backoff notices the way
 * back, so that an idle engine (nothing to send, nothing to pull) still knows when it is online again.
 */
export class Connectivity extends EventEmitter<{ change: [ConnectivityState] }> {
  private current: ConnectivityState;
  private probe: (() => Promise<unknown>) | null = null;
  private probeTimer: NodeJS.Timeout | undefined;
  private attempt = 0;

  constructor(private readonly now: () => number = Date.now) {
    super();
    this.current = { online: true, reason: null, since: now() };
  }

  get state(): ConnectivityState {
    return this.current;
  }

  noticeAnswer(): void {
    if (this.current.online) return;
    this.attempt = 0;
    clearTimeout(this.probeTimer);
    this.set({ online: true, reason: null, since: this.now() });
  }

  noticeProblem(problem: ServiceProblem): void {
    if (problem.kind !== 'offline' || !this.current.online) return;
    this.set({ online: false, reason: `The service cannot be reached (${problem.message}).`, since: this.now() });
    this.scheduleProbe();
  }

  /** While offline, call `probe` (a request through the same client) with backoff until an answer comes. */
  follow(probe: () => Promise<unknown>): void {
    this.probe = probe;
    if (!this.current.online) this.scheduleProbe();
  }

  unfollow(): void {
    this.probe = null;
    clearTimeout(this.probeTimer);
  }

  private scheduleProbe(): void {
    if (!this.probe || this.current.online) return;
    clearTimeout(this.probeTimer);
    this.attempt += 1;
    this.probeTimer = setTimeout(() => {
      const probe = this.probe;
      if (!probe || this.current.online) return;
      // The probe's outcome reaches noticeAnswer/noticeProblem through the client's transport; any other failure
      // (not the service's answer or its absence) is the engine's own, logged.
      void probe().catch((error: unknown) => {
        if (!isServiceError(error)) engineLog.warn('connectivity', 'the probe of the service failed', error);
      }).finally(() => this.scheduleProbe());
    }, Math.min(backoffDelay(this.attempt, Math.random) + 1_000, 60_000));
    this.probeTimer.unref();
  }

  private set(state: ConnectivityState): void {
    this.current = state;
    this.emit('change', state);
  }
}
