/**
 * The person's bandwidth limits: one token bucket for what the profile sends (uploads' bodies) and one for what it
 * receives (downloads' bodies), each shared by every transfer of the profile at that moment, so two uploads together
 * stay within the upload limit. A limit is in bytes per second; 0 means no limit. A new limit applies at once, to the
 * transfers under way too.
 *
 * A bucket holds at most an eighth of a second's bytes (never less than 1 KiB): after a pause a transfer may go that
 * much ahead, no more, so a transfer of a few seconds already averages within a few percent of the limit. Transfers
 * take their bytes in turn (first asked, first served) in slices of at most 64 KiB, so no transfer starves another.
 */

/** Time and timers, the system's by default (tests give a clock they move by hand). */
export interface BandwidthClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemBandwidthClock: BandwidthClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

const MIN_CAPACITY_BYTES = 1024;
const MAX_SLICE_BYTES = 64 * 1024;
/** The bucket's size, in seconds of the rate. */
const BURST_SECONDS = 1 / 8;

interface Waiter {
  bytes: number;
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class TokenBucket {
  private bytesPerSecond = 0;
  private tokens = 0;
  private last: number;
  private readonly waiters: Waiter[] = [];
  private timer: unknown = null;

  constructor(bytesPerSecond = 0, private readonly clock: BandwidthClock = systemBandwidthClock) {
    this.last = clock.now();
    this.setRate(bytesPerSecond);
  }

  /** Bytes per second; 0 when there is no limit. */
  get rate(): number {
    return this.bytesPerSecond;
  }

  get unlimited(): boolean {
    return this.bytesPerSecond === 0;
  }

  /** The most the bucket holds: what may go at once after a pause. */
  get capacity(): number {
    return Math.max(MIN_CAPACITY_BYTES, Math.floor(this.bytesPerSecond * BURST_SECONDS));
  }

  /** How many bytes a transfer asks for at a time. */
  get sliceBytes(): number {
    return Math.min(this.capacity, MAX_SLICE_BYTES);
  }

  /** A new limit (0: none), applied at once: those waiting are served at the new rate (or at once, without a limit). */
  setRate(bytesPerSecond: number): void {
    if (!Number.isFinite(bytesPerSecond) || bytesPerSecond < 0) throw new RangeError(`A bandwidth limit must be 0 or more bytes per second, got ${bytesPerSecond}.`);
    this.refill();
    const wasUnlimited = this.bytesPerSecond === 0;
    this.bytesPerSecond = bytesPerSecond;
    // From no limit to one: start full (what went before is not held against what comes).
    this.tokens = wasUnlimited ? this.capacity : Math.min(this.tokens, this.capacity);
    this.pump();
  }

  /** Resolves once `bytes` may be sent (or received); rejects with the signal's reason when it aborts first. */
  take(bytes: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.unlimited || bytes <= 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        bytes, resolve, reject, signal,
        onAbort: () => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          reject(signal!.reason);
          this.pump();
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
      this.pump();
    });
  }

  private refill(): void {
    const now = this.clock.now();
    if (this.bytesPerSecond > 0) this.tokens = Math.min(this.capacity, this.tokens + (this.bytesPerSecond * (now - this.last)) / 1000);
    this.last = now;
  }

  /** Serves those waiting, in turn, as far as the tokens go; then waits (one timer) until the next one can be. */
  private pump(): void {
    if (this.timer !== null) {
      this.clock.clearTimeout(this.timer);
      this.timer = null;
    }
    this.refill();
    while (this.waiters.length > 0) {
      const head = this.waiters[0]!;
      // A slice larger than the bucket goes once it is full, leaving a debt the next ones wait for.
      const needed = Math.min(head.bytes, this.capacity);
      if (!this.unlimited && this.tokens < needed) break;
      this.waiters.shift();
      if (!this.unlimited) this.tokens -= head.bytes;
      head.signal?.removeEventListener('abort', head.onAbort);
      head.resolve();
    }
    if (this.waiters.length === 0) return;
    const needed = Math.min(this.waiters[0]!.bytes, this.capacity);
    const waitMs = Math.max(1, Math.ceil(((needed - this.tokens) * 1000) / this.bytesPerSecond));
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.pump();
    }, waitMs);
  }
}

/** The profile's two buckets (engine-wide: every client of the engine shares them). */
export class BandwidthLimits {
  readonly upload: TokenBucket;
  readonly download: TokenBucket;

  constructor(limits: { uploadBytesPerSecond?: number; downloadBytesPerSecond?: number } = {}, clock: BandwidthClock = systemBandwidthClock) {
    this.upload = new TokenBucket(limits.uploadBytesPerSecond ?? 0, clock);
    this.download = new TokenBucket(limits.downloadBytesPerSecond ?? 0, clock);
  }
}

/**
 * The chunks as they may go through the bucket: each cut into the bucket's slices, each slice given out once the
 * bucket allows it. Without a limit the chunks pass as they are. A chunk's memory is given out before the next chunk
 * is asked for, as the body it wraps expects (streamed-body.ts).
 */
export async function* throttled<T extends Uint8Array>(chunks: AsyncIterable<T>, bucket: TokenBucket, signal?: AbortSignal): AsyncGenerator<T> {
  for await (const chunk of chunks) {
    let at = 0;
    while (at < chunk.byteLength) {
      if (bucket.unlimited) {
        yield (at === 0 ? chunk : chunk.subarray(at)) as T;
        break;
      }
      const bytes = Math.min(bucket.sliceBytes, chunk.byteLength - at);
      await bucket.take(bytes, signal);
      yield chunk.subarray(at, at + bytes) as T;
      at += bytes;
    }
  }
}

/**
 * A download's body as it may be read through the bucket: each chunk cut into the bucket's slices, each given out once
 * the bucket allows it; without a limit a chunk passes as it came (the bucket is asked for each chunk, so a limit set
 * while the body is read applies to the rest of it at once). Nothing is read ahead of the reader.
 */
export function pacedBody(body: ReadableStream<Uint8Array>, bucket: TokenBucket, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      let at = 0;
      while (at < value.byteLength) {
        if (bucket.unlimited) {
          controller.enqueue(at === 0 ? value : value.subarray(at));
          return;
        }
        const bytes = Math.min(bucket.sliceBytes, value.byteLength - at);
        await bucket.take(bytes, signal);
        controller.enqueue(value.subarray(at, at + bytes));
        at += bytes;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

/** KB/s as the person sets it (1 KB = 1,024 bytes; 0 or none: no limit) in bytes per second. */
export function kilobytesPerSecond(kb: number | null | undefined): number {
  return kb && kb > 0 ? kb * 1024 : 0;
}
