/**
 * Where the queue takes its time from: what time it is, and timers (the next item due, Retry-After, the offline
 * probe's backoff). The system's by default; a test gives its own so that a backoff of minutes passes at once.
 */
export interface QueueClock {
  now(): number;
  /** Calls `run` after `ms`; never keeps the process alive by itself. */
  setTimer(run: () => void, ms: number): QueueTimer;
  clearTimer(timer: QueueTimer | undefined): void;
}

/** A timer of a QueueClock (opaque to its users). */
export interface QueueTimer {
  readonly at: number;
}

/** Node timers take at most this many ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface SystemTimer extends QueueTimer {
  handle: NodeJS.Timeout;
}

export const systemClock: QueueClock = {
  now: () => Date.now(),
  setTimer(run, ms) {
    const handle = setTimeout(run, Math.min(Math.max(0, ms), MAX_TIMER_MS));
    handle.unref();
    return { at: Date.now() + ms, handle } satisfies SystemTimer;
  },
  clearTimer(timer) {
    if (timer) clearTimeout((timer as SystemTimer).handle);
  },
};
