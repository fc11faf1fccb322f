import { describe, expect, it } from 'vitest';
import { TokenBucket, throttled, type BandwidthClock } from '../../../electron/engine/api/bandwidth';

/** A clock moved by hand: timers fire, in order, only when the test moves it past them. */
class HandClock implements BandwidthClock {
  private time = 0;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 1;

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, callback, id });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  /** Moves the time forward by `ms`, firing each timer due on the way at its own time; lets promises settle. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.time = next.at;
      next.callback();
      await settle();
    }
    this.time = end;
    await settle();
  }
}

/** Lets every promise that can settle now settle (the microtasks run out before setImmediate's turn). */
async function settle(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
}

const KB = 1024;

/** Starts `count` takes of `bytes` each (in a row, one after the other), recording how many bytes were granted. */
function taker(bucket: TokenBucket, bytes: number, count: number, signal?: AbortSignal) {
  const state = { granted: 0, failed: null as unknown };
  void (async () => {
    for (let i = 0; i < count; i++) {
      await bucket.take(bytes, signal);
      state.granted += bytes;
    }
  })().catch((error: unknown) => {
    state.failed = error;
  });
  return state;
}

describe('the bandwidth token bucket', () => {
  it('grants what the rate allows each second, beyond a first burst of an eighth of a second', async () => {
    const clock = new HandClock();
    const bucket = new TokenBucket(64 * KB, clock);
    expect(bucket.capacity).toBe(8 * KB);
    const one = taker(bucket, 4 * KB, 1000);
    await settle();
    expect(one.granted).toBe(8 * KB); // the full bucket
    await clock.advance(1000);
    expect(one.granted).toBe(72 * KB);
    await clock.advance(3000);
    expect(one.granted).toBe(264 * KB);
  });

  it('shares the rate between transfers taking at once, in turn', async () => {
    const clock = new HandClock();
    const bucket = new TokenBucket(64 * KB, clock);
    const first = taker(bucket, 4 * KB, 1000);
    const second = taker(bucket, 4 * KB, 1000);
    await settle();
    await clock.advance(2000);
    // Together: the bucket's 8 KB, then 64 KB a second; each gets half, give or take a slice.
    expect(first.granted + second.granted).toBe(136 * KB);
    expect(Math.abs(first.granted - second.granted)).toBeLessThanOrEqual(4 * KB);
  });

  it('applies a new limit to those already waiting, and lets everything through without one', async () => {
    const clock = new HandClock();
    const bucket = new TokenBucket(8 * KB, clock);
    const one = taker(bucket, KB, 1000);
    await settle();
    await clock.advance(1000);
    const atEight = one.granted;
    expect(atEight).toBe(9 * KB); // 1 KB bucket + 8 KB
    bucket.setRate(32 * KB);
    await clock.advance(1000);
    expect(one.granted - atEight).toBe(32 * KB);
    bucket.setRate(0);
    await settle();
    expect(one.granted).toBe(1000 * KB);
    expect(bucket.unlimited).toBe(true);
  });

  it('starts full when a limit is set where there was none, so a transfer is not held for what went before', async () => {
    const clock = new HandClock();
    const bucket = new TokenBucket(0, clock);
    await clock.advance(10_000);
    bucket.setRate(16 * KB);
    const one = taker(bucket, KB, 100);
    await settle();
    expect(one.granted).toBe(2 * KB);
  });

  it('lets a take larger than the bucket go once it is full, and holds the next ones for the debt', async () => {
    const clock = new HandClock();
    const bucket = new TokenBucket(8 * KB, clock); // 1 KB bucket
    const big = taker(bucket, 8 * KB, 1);
    await settle();
    expect(big.granted).toBe(8 * KB);
    const next = taker(bucket, KB, 1);
    await clock.advance(900);
    expect(next.granted).toBe(0); // 7 KB of debt, then 1 KB: a second at 8 KB/s
    await clock.advance(100);
    expect(next.granted).toBe(KB);
  });

  it('refuses a take whose signal aborts, and serves the next one in its place', async () => {
    const clock = new HandClock();
    const bucket = new TokenBucket(8 * KB, clock);
    await bucket.take(KB); // empties the bucket
    const controller = new AbortController();
    const cancelled = taker(bucket, KB, 1, controller.signal);
    const after = taker(bucket, KB, 1);
    await settle();
    controller.abort(new Error('stopped'));
    await settle();
    expect(cancelled.failed).toEqual(new Error('stopped'));
    await clock.advance(125);
    expect(after.granted).toBe(KB);
    expect(cancelled.granted).toBe(0);
  });

  it('refuses a limit below zero or not a number, naming it', () => {
    expect(() => new TokenBucket(-1)).toThrow(/0 or more bytes per second, got -1/);
    expect(() => new TokenBucket(Number.NaN)).toThrow(/got NaN/);
  });

  it('cuts chunks into the bucket\'s slices under a limit, and passes them whole without one', async () => {
    const clock = new HandClock();
    const limited = new TokenBucket(64 * KB, clock);
    async function* chunks() {
      yield new Uint8Array(20 * KB).fill(1);
      yield new Uint8Array(3 * KB).fill(2);
    }
    const sizes: number[] = [];
    const reading = (async () => {
      for await (const slice of throttled(chunks(), limited)) sizes.push(slice.byteLength);
    })();
    await clock.advance(1000);
    await reading;
    expect(sizes).toEqual([8 * KB, 8 * KB, 4 * KB, 3 * KB]);

    const free: number[] = [];
    for await (const chunk of throttled(chunks(), new TokenBucket(0, clock))) free.push(chunk.byteLength);
    expect(free).toEqual([20 * KB, 3 * KB]);
  });
});
