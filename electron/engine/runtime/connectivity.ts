import { EventEmitter } from 'node:events';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import type { ServiceProblem } from '../../../shared';
import { backoffDelay } from '../queue/backoff';
import type { ConnectivitySource } from '../queue/connectivity-source';
import type { ServiceClient } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import { engineLog } from '../log/engine-log';

export interface ConnectivityState {
  online: boolean;
  /** Since when (epoch ms). */
  since: number;
  /** Offline because of the proxy: its words (they name it), which the sync state says instead of "cannot be reached". */
  proxyProblem?: string;
  /** Its facts, which the front ends word in the person's language. */
  proxyProblemWords?: EngineWords;
}

/** The timers Connectivity uses: the real ones by default, a test's own clock otherwise. */
export interface ConnectivityClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export interface ConnectivityOptions {
  clock?: ConnectivityClock;
  random?: () => number;
  /** While a window watches and the service answered: probed this often, unless an answer came meanwhile (default 5 s). */
  watchIntervalMs?: number;
  /** While offline and a window watches: the probe's backoff is capped at this (default 8 s). */
  watchedOfflineMaxMs?: number;
  /** While offline and only the background follows (the tray, `sync --watch`): the backoff's cap (default 8 s). */
  offlineMaxMs?: number;
}

/**
 * A request to the service (the catalogue's first item): resolves or fails with the service's answer of any status
 * (online), fails with an 'offline' problem when none came; aborted when the signal fires.
 */
export type ConnectivityProbe = (signal: AbortSignal) => Promise<unknown>;

/** The probe's client: no retries and short timeouts (an answer of any status will do, and soon). */
export const PROBE_TRANSPORT = { retry: { retries: 0 }, timeouts: { connectMs: 3_000, firstByteMs: 4_000, idleMs: 4_000, overallMs: 5_000 } };

/** The probe: the catalogue's first item (its outcome is read by Connectivity itself: give it a client without its hooks). */
export function probeOf(client: Pick<ServiceClient, 'listDesigns'>): ConnectivityProbe {
  return (signal) => client.listDesigns({ limit: 1 }, signal);
}

const REAL_CLOCK: ConnectivityClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => {
    const timer = setTimeout(run, ms);
    timer.unref();
    return timer;
  },
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/**
 * Whether the service can be reached: the engine's one source of it (the queue waits on it, the status says it, the
 * window's banner shows it). Any answer of the service (any status) means online; a request that never got one means
 * offline. It probes only while someone needs it:
 * - offline, while the background runs, a window watches or the queue waits for the service: a cheap probe with
 *   backoff notices the way back within 10 s (capped at 8 s: the catalogue's first item, one small request, or a
 *   refused connection while the service is down, about 450 an hour however long it stays away; said in the engine
 *   log once per going offline);
 * - online, while a window watches: a probe every ~5 s unless the service answered meanwhile (4 s for its answer), so
 *   the window learns within 10 s that the service went away. Without a window, nothing is probed while online.
 */
export class Connectivity extends EventEmitter<{ change: [ConnectivityState] }> implements ConnectivitySource {
  private current: ConnectivityState;
  private probe: ConnectivityProbe | null = null;
  private timer: unknown = null;
  private probing: AbortController | null = null;
  private attempt = 0;
  private lastAnswerAt = 0;
  private followers = 0;
  private watchers = 0;
  private readonly waiters = new Set<() => void>();
  private readonly clock: ConnectivityClock;
  private readonly random: () => number;
  private readonly watchIntervalMs: number;
  private readonly watchedOfflineMaxMs: number;
  private readonly offlineMaxMs: number;

  constructor(options: ConnectivityOptions = {}) {
    super();
    this.clock = options.clock ?? REAL_CLOCK;
    this.random = options.random ?? Math.random;
    this.watchIntervalMs = options.watchIntervalMs ?? 5_000;
    this.watchedOfflineMaxMs = options.watchedOfflineMaxMs ?? 8_000;
    this.offlineMaxMs = options.offlineMaxMs ?? 8_000;
    this.current = { online: true, since: this.clock.now() };
  }

  get state(): ConnectivityState {
    return this.current;
  }

  isOnline(): boolean {
    return this.current.online;
  }

  /** The probe to use (null: none, e.g. no service chosen). Whoever made the client tells which. */
  setProbe(probe: ConnectivityProbe | null): void {
    this.probe = probe;
    this.probing?.abort();
    this.schedule();
  }

  /** The service answered (any status). */
  noticeAnswer(): void {
    this.lastAnswerAt = this.clock.now();
    if (this.current.online) return;
    this.attempt = 0;
    this.set({ online: true, since: this.lastAnswerAt });
    for (const waiter of [...this.waiters]) waiter();
    this.schedule();
  }

  /** A request got no answer: offline. The detail goes to the engine log, once per going offline. */
  noticeProblem(problem: ServiceProblem): void {
    if (problem.kind !== 'offline' || !this.current.online) return;
    engineLog.info('connectivity', `the service cannot be reached: ${problem.message}`);
    this.attempt = 0;
    this.set({ online: false, since: this.clock.now(), ...(problem.proxy ? { proxyProblem: problem.message, ...(problem.words ? { proxyProblemWords: problem.words } : {}) } : {}) });
    this.schedule();
  }

  /** The background work runs: while offline, the way back is probed. Returns the function that stops it. */
  follow(): () => void {
    return this.hold('followers');
  }

  /**
   * A window watches (a contract subscriber): while online the service is probed every ~6 s (unless it answered), so
   * that its going away is noticed within 10 s; while offline the backoff stays short. Returns the function that stops it.
   */
  watch(): () => void {
    return this.hold('watchers');
  }

  /** For the queue: `listener` is called once the service answers again; meanwhile it is probed. Returns the cancel. */
  awaitOnline(listener: () => void): () => void {
    const once = () => {
      this.waiters.delete(once);
      listener();
    };
    this.waiters.add(once);
    this.schedule();
    return () => {
      this.waiters.delete(once);
      this.schedule();
    };
  }

  /** Asks the service once now (e.g. `design-sync status`): resolves with whether it answered. */
  async checkNow(): Promise<boolean> {
    await this.runProbe();
    return this.current.online;
  }

  private hold(kind: 'followers' | 'watchers'): () => void {
    this[kind] += 1;
    this.schedule();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this[kind] -= 1;
      this.schedule();
    };
  }

  /** The next probe, if anyone needs one now; none otherwise. */
  private schedule(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    if (!this.probe || this.probing) return;
    const delay = this.nextDelay();
    if (delay === null) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      // Online and the service answered meanwhile: that answer was the probe.
      if (this.current.online && this.clock.now() - this.lastAnswerAt < this.watchIntervalMs - 50) return this.schedule();
      void this.runProbe().finally(() => this.schedule());
    }, delay);
  }

  private nextDelay(): number | null {
    if (this.current.online) {
      if (this.watchers === 0) return null;
      const sinceAnswer = this.clock.now() - this.lastAnswerAt;
      return Math.max(250, this.watchIntervalMs - Math.max(0, sinceAnswer));
    }
    if (this.followers + this.watchers + this.waiters.size === 0) return null;
    this.attempt += 1;
    const cap = this.watchers > 0 ? this.watchedOfflineMaxMs : this.offlineMaxMs;
    return Math.min(backoffDelay(this.attempt, this.random) + 1_000, cap);
  }

  /**
   * One probe. Any answer means online. No answer means offline only if nothing else was answered while it waited: a
   * busy machine may be slow to answer the probe while the service streams files to the engine.
   */
  private async runProbe(): Promise<void> {
    const probe = this.probe;
    if (!probe || this.probing) return;
    const controller = new AbortController();
    this.probing = controller;
    const startedAt = this.clock.now();
    try {
      await probe(controller.signal);
      this.noticeAnswer();
    } catch (error) {
      if (!isServiceError(error)) engineLog.warn('connectivity', 'the probe of the service failed', error);
      else if (error.problem.kind === 'offline') {
        if (this.lastAnswerAt < startedAt) this.noticeProblem(error.problem);
      } else if (error.problem.kind !== 'cancelled') this.noticeAnswer();
    } finally {
      if (this.probing === controller) this.probing = null;
    }
  }

  private set(state: ConnectivityState): void {
    this.current = state;
    this.emit('change', state);
  }
}
