/** How fast bytes go, smoothed so that one slow or quick moment does not make the time left jump about. */
export interface RateMeterOptions {
  /** An exponentially weighted average: what happened this long ago weighs half as much as what happens now. */
  halfLifeMs?: number;
  /** No rate is told before bytes have been seen for this long (the first moments of an upload say little). */
  warmupMs?: number;
}

/**
 * A smoothed rate in bytes per second, fed with the bytes sent as they are reported (an upload's progress callbacks)
 * and read at any time; while nothing arrives it decays towards zero, so a stalled upload's time left grows. The time
 * comes from `now`, so that a test moves it on without sleeping.
 */
export class RateMeter {
  private readonly halfLifeMs: number;
  private readonly warmupMs: number;
  private startedAt: number | null = null;
  private warmupBytes = 0;
  private rate: number | null = null;
  private lastAt = 0;
  /** Bytes told at the same millisecond as the last sample: added to the next one. */
  private heldBytes = 0;

  constructor(private readonly now: () => number, options: RateMeterOptions = {}) {
    this.halfLifeMs = options.halfLifeMs ?? 3_000;
    this.warmupMs = options.warmupMs ?? 2_000;
  }

  /** Starts measuring now, if not started yet (nothing sent so far). */
  begin(): void {
    if (this.startedAt === null) this.startedAt = this.now();
  }

  /** `bytes` more were sent since the last call. */
  add(bytes: number): void {
    const at = this.now();
    if (this.startedAt === null) this.startedAt = at;
    if (this.rate === null) {
      this.warmupBytes += Math.max(0, bytes);
      if (at - this.startedAt >= this.warmupMs) {
        this.rate = (this.warmupBytes * 1000) / (at - this.startedAt);
        this.lastAt = at;
      }
      return;
    }
    this.rate = this.rateAt(at, Math.max(0, bytes));
    if (at > this.lastAt) {
      this.lastAt = at;
      this.heldBytes = 0;
    }
  }

  /** Bytes per second now, or null while it is not known yet (the first few seconds). */
  bytesPerSecond(): number | null {
    const at = this.now();
    if (this.rate === null) {
      if (this.startedAt === null || at - this.startedAt < this.warmupMs) return null;
      return (this.warmupBytes * 1000) / (at - this.startedAt);
    }
    return this.rateAt(at, 0);
  }

  /** Forgets everything: the next bytes start a new measure. */
  reset(): void {
    this.startedAt = null;
    this.warmupBytes = 0;
    this.rate = null;
    this.lastAt = 0;
    this.heldBytes = 0;
  }

  /** The moment of the last sample, or null before any. */
  get lastSampleAt(): number | null {
    return this.startedAt === null ? null : Math.max(this.lastAt, this.startedAt);
  }

  private rateAt(at: number, bytes: number): number {
    const rate = this.rate ?? 0;
    const elapsed = at - this.lastAt;
    if (elapsed <= 0) {
      this.heldBytes += bytes;
      return rate;
    }
    const instant = ((bytes + this.heldBytes) * 1000) / elapsed;
    const weight = 1 - 0.5 ** (elapsed / this.halfLifeMs);
    return rate + weight * (instant - rate);
  }
}
