import type { QueueClock, QueueTimer } from '../../../electron/engine/queue/clock';

interface ManualTimer extends QueueTimer {
  run: () => void;
  real: NodeJS.Timeout;
}

/**
 * The queue's clock for tests: time runs as usual, and `advance(ms)` moves it on at once, running the timers that
 * fall due (a backoff, a Retry-After, the offline probe) in order, so a test never sleeps through them.
 */
export class ManualClock implements QueueClock {
  private offset = 0;
  private readonly timers = new Set<ManualTimer>();
  /** How many timers were set so far (a probe that failed sets the next one). */
  timersSet = 0;

  now = (): number => Date.now() + this.offset;

  setTimer(run: () => void, ms: number): QueueTimer {
    const timer: ManualTimer = { at: this.now() + Math.max(0, ms), run, real: setTimeout(() => this.fire(timer), Math.min(Math.max(0, ms), 2 ** 31 - 1)) };
    timer.real.unref();
    this.timers.add(timer);
    this.timersSet++;
    return timer;
  }

  clearTimer(timer: QueueTimer | undefined): void {
    if (!timer) return;
    clearTimeout((timer as ManualTimer).real);
    this.timers.delete(timer as ManualTimer);
  }

  /** The soonest timer's time, or null. */
  nextAt(): number | null {
    const ats = [...this.timers].map((timer) => timer.at);
    return ats.length > 0 ? Math.min(...ats) : null;
  }

  /** Moves time on by `ms`, running every timer that falls due, soonest first. */
  advance(ms: number): void {
    this.offset += ms;
    for (const timer of [...this.timers].sort((a, b) => a.at - b.at)) if (timer.at <= this.now()) this.fire(timer);
  }

  /** Moves time on to the soonest timer and runs it; false when there is none. */
  advanceToNext(): boolean {
    const at = this.nextAt();
    if (at === null) return false;
    this.advance(Math.max(0, at - this.now()));
    return true;
  }

  private fire(timer: ManualTimer): void {
    if (!this.timers.delete(timer)) return;
    clearTimeout(timer.real);
    timer.run();
  }
}
