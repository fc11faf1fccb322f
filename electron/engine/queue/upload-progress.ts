import type { UploadProgressView } from '../../../shared';
import type { QueueEvent } from './queue-item';
import type { QueueStore } from './queue-store';
import { RateMeter, type RateMeterOptions } from './rate-meter';
import { currentUploadBurst } from './upload-burst';

/** A rate not fed for this long belongs to an earlier burst: the next bytes start a new measure. */
const STALE_RATE_MS = 30_000;

const isFileUpload = (kind: string) => kind === 'upload' || kind === 'replace';

/**
 * The one owner of upload progress: the files and bytes of the current burst (read from the durable queue) and how
 * fast they go (a smoothed rate, per file and overall, fed by the progress each upload reports: the queue store's
 * item changes, which job-context.ts already throttles). Another process that only reads the profile (`design-sync
 * status --follow`) hears no progress events: there the rate is measured from the burst's bytes each time it is asked.
 */
export class UploadProgress {
  private readonly overall: RateMeter;
  private readonly perFile = new Map<number, { sent: number; meter: RateMeter }>();
  private progressHeard = false;
  private lastBurstSent: number | null = null;
  /** When the queue was last seen idle here (no burst), or null before it was. */
  private idleAt: number | null = null;
  private readonly onChange = (event: QueueEvent) => {
    if (event.type === 'item') this.itemChanged(event.item);
  };

  constructor(private readonly store: QueueStore, private readonly now: () => number = Date.now, private readonly meterOptions: RateMeterOptions = {}) {
    this.overall = new RateMeter(now, meterOptions);
    store.on('change', this.onChange);
  }

  close(): void {
    this.store.off('change', this.onChange);
  }

  /** An item as the store tells it changed: a running upload's bytes feed the rates. */
  itemChanged(item: { id: number; kind: string; state: string; bytesSent: number }): void {
    if (!isFileUpload(item.kind)) return;
    const seen = this.perFile.get(item.id);
    if (item.state !== 'running') {
      this.perFile.delete(item.id);
      return;
    }
    if (!seen) {
      // Its first report here: a baseline (what it sent before is not known to have been sent at this pace).
      const meter = new RateMeter(this.now, this.meterOptions);
      meter.begin();
      this.perFile.set(item.id, { sent: item.bytesSent, meter });
      this.freshOverall();
      this.overall.begin();
      return;
    }
    const delta = item.bytesSent - seen.sent;
    seen.sent = item.bytesSent;
    if (delta <= 0) return;
    this.progressHeard = true;
    seen.meter.add(delta);
    this.freshOverall();
    this.overall.add(delta);
  }

  /** The smoothed rate of a file being sent, in bytes per second, or null while not known. */
  fileRate(itemId: number): number | null {
    const rate = this.perFile.get(itemId)?.meter.bytesPerSecond() ?? null;
    return rate === null ? null : Math.round(rate);
  }

  /** The current burst's files, bytes, rate and time left; null when the queue is idle. */
  facts(): UploadProgressView | null {
    const burst = currentUploadBurst(this.store.db, this.idleAt);
    if (burst === 'idle' || burst === null) {
      this.overall.reset();
      this.lastBurstSent = null;
      if (burst === 'idle') this.idleAt = this.now();
      return null;
    }
    if (!this.progressHeard) this.measureFromBurst(burst.bytesSent);
    const rate = this.overall.bytesPerSecond();
    const left = Math.max(0, burst.bytesTotal - burst.bytesSent);
    return {
      filesDone: burst.filesDone,
      filesSending: burst.filesSending,
      filesTotal: burst.filesDone + burst.filesSending + burst.filesWaiting,
      bytesSent: burst.bytesSent,
      bytesTotal: burst.bytesTotal,
      bytesPerSecond: rate === null ? null : Math.round(rate),
      secondsLeft: rate !== null && rate > 0 ? Math.ceil(left / rate) : null,
    };
  }

  private measureFromBurst(sent: number): void {
    if (this.lastBurstSent === null || sent < this.lastBurstSent) this.overall.begin();
    else if (sent > this.lastBurstSent) this.overall.add(sent - this.lastBurstSent);
    this.lastBurstSent = sent;
  }

  private freshOverall(): void {
    const last = this.overall.lastSampleAt;
    if (last !== null && this.now() - last > STALE_RATE_MS) this.overall.reset();
  }
}

const trackers = new WeakMap<QueueStore, UploadProgress>();

/** The upload progress of a queue store (one per store, following it from the first time it is asked). */
export function uploadProgressOf(store: QueueStore): UploadProgress {
  let tracker = trackers.get(store);
  if (!tracker) {
    tracker = new UploadProgress(store);
    trackers.set(store, tracker);
  }
  return tracker;
}
