import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RateMeter } from '../../../electron/engine/queue/rate-meter';
import { QueueStore } from '../../../electron/engine/queue/queue-store';
import { UploadProgress } from '../../../electron/engine/queue/upload-progress';
import { openSyncDatabase, type SyncDatabase } from '../../../electron/engine/sync-state/sync-database';
import {
  fileProgressWords, percentOf, sizeWords, syncUploadWords, timeLeftWords, uploadProgressWords,
} from '../../../shared/sync/upload-progress-words';
import type { UploadProgressView } from '../../../shared';
import { setSyncRoot } from './queue-fixtures';

const MB = 1024 * 1024;

/** Time that moves only when the test says so. */
function testClock(start = 1_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => { at += ms; } };
}

describe('the smoothed upload rate', () => {
  it('is unknown for the first seconds, then the average of what was sent', () => {
    const clock = testClock();
    const meter = new RateMeter(clock.now, { warmupMs: 2_000, halfLifeMs: 3_000 });
    meter.begin();
    expect(meter.bytesPerSecond()).toBeNull();
    for (let i = 0; i < 4; i++) {
      clock.advance(250);
      meter.add(250_000);
    }
    expect(meter.bytesPerSecond()).toBeNull();
    for (let i = 0; i < 4; i++) {
      clock.advance(250);
      meter.add(250_000);
    }
    expect(meter.bytesPerSecond()).toBeCloseTo(1_000_000, -3);
  });

  it('follows a change of pace smoothly, and decays while nothing is sent', () => {
    const clock = testClock();
    const meter = new RateMeter(clock.now, { warmupMs: 1_000, halfLifeMs: 2_000 });
    meter.begin();
    for (let i = 0; i < 8; i++) {
      clock.advance(250);
      meter.add(250_000); // 1 MB/s
    }
    const steady = meter.bytesPerSecond()!;
    expect(steady).toBeCloseTo(1_000_000, -3);
    // Twice as fast for one half-life: halfway between the two paces.
    for (let i = 0; i < 8; i++) {
      clock.advance(250);
      meter.add(500_000);
    }
    expect(meter.bytesPerSecond()!).toBeGreaterThan(1_400_000);
    expect(meter.bytesPerSecond()!).toBeLessThan(1_600_000);
    // Stalled for two half-lives: a quarter left.
    const before = meter.bytesPerSecond()!;
    clock.advance(4_000);
    expect(meter.bytesPerSecond()!).toBeCloseTo(before / 4, -3);
  });

  it('counts bytes told in the same millisecond once time moves on', () => {
    const clock = testClock();
    const meter = new RateMeter(clock.now, { warmupMs: 0, halfLifeMs: 1_000 });
    meter.begin();
    clock.advance(1_000);
    meter.add(1_000);
    meter.add(1_000); // same moment: held, not lost
    clock.advance(1_000);
    meter.add(0);
    // 1,000 B/s at first, then 1,000 B over the next second: still 1,000 B/s.
    expect(meter.bytesPerSecond()).toBeCloseTo(1_000, 0);
  });
});

describe('upload progress in words', () => {
  const uploads = (over: Partial<UploadProgressView> = {}): UploadProgressView => ({
    filesDone: 2, filesSending: 1, filesTotal: 7, bytesSent: 12 * MB, bytesTotal: 40 * MB, bytesPerSecond: 1.4 * MB, secondsLeft: 20, ...over,
  });

  it('says which file of how many, the bytes, and the time left once the rate is known', () => {
    expect(uploadProgressWords(uploads())).toBe('Uploading 3 of 7 · 12 MB of 40 MB · about 20 s left');
    expect(uploadProgressWords(uploads({ bytesPerSecond: null, secondsLeft: null }))).toBe('Uploading 3 of 7 · 12 MB of 40 MB');
    expect(uploadProgressWords(uploads({ filesDone: 0, filesSending: 0, filesTotal: 4, bytesSent: 0 }))).toBe('Uploading 1 of 4 · 0 B of 40 MB · about 20 s left');
    expect(uploadProgressWords(uploads({ filesDone: 5, filesSending: 2 }))).toBe('Uploading 7 of 7 · 12 MB of 40 MB · about 20 s left');
  });

  it('rounds the time left as a person would say it', () => {
    expect(timeLeftWords(4)).toBe('a few seconds left');
    expect(timeLeftWords(22)).toBe('about 20 s left');
    expect(timeLeftWords(58)).toBe('about 55 s left');
    expect(timeLeftWords(170)).toBe('about 3 min left');
    expect(timeLeftWords(3_600)).toBe('about 1 h left');
    expect(timeLeftWords(4_800)).toBe('about 1 h 20 min left');
    expect(timeLeftWords(12 * 3_600)).toBe('about 12 h left');
  });

  it('gives sizes in short words', () => {
    expect(sizeWords(512)).toBe('512 B');
    expect(sizeWords(12 * 1024)).toBe('12 KB');
    expect(sizeWords(1.24 * MB)).toBe('1.2 MB');
    expect(sizeWords(40 * MB)).toBe('40 MB');
    expect(sizeWords(3 * 1024 * MB)).toBe('3 GB');
  });

  it('never says 100% before the last byte', () => {
    expect(percentOf(999, 1_000)).toBe(99);
    expect(percentOf(1_000, 1_000)).toBe(100);
    expect(percentOf(0, 0)).toBeNull();
  });

  it('says a file\'s percentage, bytes and rate', () => {
    expect(fileProgressWords({ bytesSent: 1.2 * MB, bytesTotal: 3 * MB, bytesPerSecond: 400 * 1024 })).toBe('40% · 1.2 MB of 3 MB · 400 KB/s');
    expect(fileProgressWords({ bytesSent: 0, bytesTotal: 3 * MB, bytesPerSecond: null })).toBe('0% · 0 B of 3 MB');
    expect(fileProgressWords({ bytesSent: 0, bytesTotal: null, bytesPerSecond: null })).toBeNull();
    expect(fileProgressWords({ bytesSent: 3 * MB, bytesTotal: 3 * MB, bytesPerSecond: MB })).toBe('100% · 3 MB of 3 MB · waiting for the service to answer');
  });

  it('is said only while files are being sent', () => {
    expect(syncUploadWords({ state: 'syncing', uploads: uploads() })).toMatch(/^Uploading 3 of 7/);
    expect(syncUploadWords({ state: 'paused', uploads: uploads() })).toBeNull();
    expect(syncUploadWords({ state: 'syncing', uploads: null })).toBeNull();
  });
});

describe('the current burst of uploads', () => {
  let dir: string;
  let db: SyncDatabase;
  let store: QueueStore;
  let clock: ReturnType<typeof testClock>;
  let progress: UploadProgress;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'design-sync-upload-progress-'));
    db = openSyncDatabase(join(dir, 'sync.sqlite'));
    setSyncRoot(db, join(dir, 'Sync'));
    clock = testClock(Date.now());
    store = new QueueStore(db, clock.now);
    progress = new UploadProgress(store, clock.now, { warmupMs: 1_000, halfLifeMs: 2_000 });
  });
  afterEach(() => {
    progress.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const upload = (path: string, size: number) => store.enqueue({ kind: 'upload', path, folder: 'Gear', designId: 1, fileKind: 'document', file: { size, mtimeMs: 1 } }).id;
  /** What the runner does with one item: claim it, send it with progress every 250 ms at `bytesPerTick`, finish it. */
  function send(size: number, bytesPerTick: number, stopAt = size): number {
    const item = store.claimNext()!;
    let sent = 0;
    store.progress(item.id, 0, size);
    while (sent < stopAt) {
      clock.advance(250);
      sent = Math.min(stopAt, sent + bytesPerTick);
      store.progress(item.id, sent, size);
    }
    return item.id;
  }

  it('counts the files done, being sent and waiting since the queue was idle, with their bytes, rate and time left', () => {
    expect(progress.facts()).toBeNull();
    for (const name of ['a', 'b', 'c', 'd']) upload(`Gear/${name}.stl`, 4 * MB);
    expect(progress.facts()).toMatchObject({ filesDone: 0, filesSending: 0, filesTotal: 4, bytesSent: 0, bytesTotal: 16 * MB, bytesPerSecond: null, secondsLeft: null });

    store.done(send(4 * MB, MB / 4)); // 1 MB/s
    const half = send(4 * MB, MB / 4, 2 * MB);
    const facts = progress.facts()!;
    expect(facts).toMatchObject({ filesDone: 1, filesSending: 1, filesTotal: 4, bytesSent: 6 * MB, bytesTotal: 16 * MB });
    expect(facts.bytesPerSecond).toBeCloseTo(MB, -4);
    expect(facts.secondsLeft).toBe(10);
    expect(uploadProgressWords(facts)).toBe('Uploading 2 of 4 · 6 MB of 16 MB · about 10 s left');
    expect(progress.fileRate(half)).toBeCloseTo(MB, -4);

    store.done(half);
    store.done(send(4 * MB, MB));
    store.done(send(4 * MB, MB));
    // Idle: the burst is over; the next upload starts a new one.
    expect(progress.facts()).toBeNull();
    clock.advance(60_000);
    upload('Gear/e.stl', MB);
    expect(progress.facts()).toMatchObject({ filesDone: 0, filesTotal: 1, bytesSent: 0, bytesTotal: MB, bytesPerSecond: null });
  });

  it('keeps a file done earlier in the burst while another was still in the queue', () => {
    upload('Gear/a.stl', MB);
    store.done(send(MB, MB / 2));
    // a.stl was done and nothing waited when b.stl was queued: b.stl starts a new burst.
    clock.advance(1_000);
    upload('Gear/b.stl', MB);
    expect(progress.facts()).toMatchObject({ filesDone: 0, filesTotal: 1 });

    // c.stl queued while b.stl is pending: when b.stl is done, c.stl's burst still counts it.
    clock.advance(1_000);
    upload('Gear/c.stl', MB);
    store.done(send(MB, MB / 2));
    expect(progress.facts()).toMatchObject({ filesDone: 1, filesTotal: 2, bytesSent: MB, bytesTotal: 2 * MB });
  });

  it('starts a new burst with a failed upload tried again, not at the time it was first queued', () => {
    const failed = upload('Gear/a.stl', MB);
    store.claimNext();
    store.failed(failed, 'Gave up.');
    clock.advance(1_000);
    upload('Gear/b.stl', MB);
    store.done(send(MB, MB / 2));
    expect(progress.facts()).toBeNull();
    clock.advance(1_000);
    store.retry(failed);
    expect(progress.facts()).toMatchObject({ filesDone: 0, filesTotal: 1, bytesSent: 0 });
  });

  it('measures the rate from the burst\'s bytes in a process that only reads the queue (design-sync status --follow)', () => {
    const reader = new UploadProgress(new QueueStore(db, clock.now), clock.now, { warmupMs: 1_000, halfLifeMs: 2_000 });
    try {
      const id = upload('Gear/a.stl', 8 * MB);
      store.claimNext();
      expect(reader.facts()).toMatchObject({ filesSending: 1, bytesPerSecond: null });
      for (let sent = MB / 2; sent <= 4 * MB; sent += MB / 2) {
        clock.advance(500);
        store.progress(id, sent, 8 * MB);
        reader.facts();
      }
      // 1 MB a second, 4 MB left.
      expect(reader.facts()).toMatchObject({ bytesSent: 4 * MB, bytesPerSecond: MB, secondsLeft: 4 });
    } finally {
      reader.close();
    }
  });

  it('leaves out what is not a file upload, what failed and what is paused', () => {
    upload('Gear/a.stl', MB);
    const paused = upload('Gear/b.stl', MB);
    store.enqueue({ kind: 'rename', path: 'Gear/c.stl', folder: 'Gear', designId: 1, fileKind: 'document', remoteId: 3, payload: { fromPath: 'Gear/old.stl', newName: 'c.stl' } });
    db.prepare(`UPDATE queue_items SET paused = 1 WHERE id = ?`).run(paused);
    expect(progress.facts()).toMatchObject({ filesTotal: 1, bytesTotal: MB });
  });
});
