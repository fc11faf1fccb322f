import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { QueueStore } from '../../../electron/engine/queue/queue-store';
import { pauseEndsAt, pauseUploads } from '../../../electron/engine/runtime/queue-actions';
import { openSyncDatabase } from '../../../electron/engine/sync-state/sync-database';
import { pauseEndWords, syncReasonWords } from '../../../shared/sync/sync-state-words';
import { startTestService, type TestService } from '../../../harness/local-service';
import { until } from '../../../harness/until';
import { ManualClock } from './manual-clock';
import { queueWorld, type QueueWorld } from './queue-fixtures';

const HOUR = 60 * 60_000;

let service: TestService;
let token: string;
let world: QueueWorld | undefined;

beforeAll(async () => {
  service = await startTestService();
  token = service.addUser('pauser').token;
});
afterAll(() => service.stop());
afterEach(async () => {
  await world?.dispose();
  world = undefined;
});

describe('a pause of the uploads that ends by itself', () => {
  it('"for 1 hour" holds the uploads an hour, then they go by themselves', async () => {
    const clock = new ManualClock();
    world = await queueWorld(service.url, token, { clock });
    const designId = (await world.api.createDesign({ name: 'Clamp', excerpt: 'x' })).id;
    world.folders.link('Clamp', designId);
    const started = clock.now();
    const ends = pauseUploads(world.store, 'hour', started);
    expect(ends).toBe(started + HOUR);
    expect(world.store.status()).toMatchObject({ queuePaused: true, queuePausedUntil: started + HOUR });

    world.write('Clamp/jaw.stl', 'solid jaw\nendsolid jaw\n');
    const item = world.enqueueUpload('Clamp/jaw.stl', 'document', designId);
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 5_000 });
    clock.advance(HOUR - 60_000);
    await world.runner.waitForIdle({ timeoutMs: 5_000 });
    expect(world.store.get(item)!.state).toBe('waiting');
    expect(world.store.status().queuePaused).toBe(true);

    const told: boolean[] = [];
    world.store.on('change', (event) => { if (event.type === 'status') told.push(event.status.queuePaused); });
    clock.advance(60_000);
    expect(told).toContain(false);
    expect(world.store.status()).toMatchObject({ queuePaused: false, queuePausedUntil: null });
    await until('the upload sent after the pause', () => world!.store.get(item)!.state === 'done', 15_000);
    expect((await world.api.listDocuments(designId)).map((document) => document.name)).toEqual(['jaw.stl']);
  });

  it('is kept across a restart, and ends at its time even when nothing ran meanwhile', async () => {
    const clock = new ManualClock();
    world = await queueWorld(service.url, token, { clock });
    const path = world.db.name;
    pauseUploads(world.store, 'hour', clock.now());
    const until1 = world.store.status().queuePausedUntil!;

    // Another process opening the same profile later: the pause and its end are read back.
    const reopened = new QueueStore(openSyncDatabase(path), () => clock.now(), clock);
    try {
      expect(reopened.status()).toMatchObject({ queuePaused: true, queuePausedUntil: until1 });
      clock.advance(2 * HOUR);
      expect(reopened.status()).toMatchObject({ queuePaused: false, queuePausedUntil: null });
      const row = () => reopened.db.prepare('SELECT queue_paused, queue_paused_until FROM sync_status WHERE id = 1').get();
      await until('the end of the pause written', () => (row() as { queue_paused: number }).queue_paused === 0, 5_000);
      expect(row()).toEqual({ queue_paused: 0, queue_paused_until: null });
    } finally {
      reopened.db.close();
    }
  });

  it('a pause until resumed has no end, and resuming ends a timed one at once', async () => {
    const clock = new ManualClock();
    world = await queueWorld(service.url, token, { clock });
    pauseUploads(world.store, null);
    expect(world.store.status()).toMatchObject({ queuePaused: true, queuePausedUntil: null });
    clock.advance(30 * 24 * HOUR);
    expect(world.store.status().queuePaused).toBe(true);
    pauseUploads(world.store, 'tomorrow', clock.now());
    world.store.setQueuePaused(false);
    expect(world.store.status()).toMatchObject({ queuePaused: false, queuePausedUntil: null });
    expect(() => world!.store.setQueuePaused(true, clock.now() - 1)).toThrow(/must end later than now/);
  });
});

describe('when a timed pause ends, in words', () => {
  it('"until tomorrow" is the next 08:00, local time: the next day in the afternoon, the same morning after midnight', () => {
    const afternoon = new Date(2026, 10, 29, 14, 30).getTime();
    expect(new Date(pauseEndsAt('tomorrow', afternoon))).toEqual(new Date(2026, 10, 30, 8, 0));
    const night = new Date(2026, 10, 30, 1, 15).getTime();
    expect(new Date(pauseEndsAt('tomorrow', night))).toEqual(new Date(2026, 10, 30, 8, 0));
    expect(pauseEndsAt('hour', afternoon)).toBe(afternoon + HOUR);
  });

  it('says the time today, "tomorrow" and the time, or the day further on', () => {
    const now = new Date(2026, 10, 29, 13, 30);
    expect(pauseEndWords(new Date(2026, 10, 29, 14, 30).toISOString(), now)).toBe('14:30');
    expect(pauseEndWords(new Date(2026, 10, 30, 8, 0).toISOString(), now)).toBe('tomorrow 08:00');
    expect(pauseEndWords(new Date(2026, 11, 3, 8, 0).toISOString(), now)).toBe('Thu 3 Dec 08:00');
  });

  it('the status says "Paused until …" and that uploads resume by themselves', () => {
    const counts = { waiting: 2, running: 0, attention: 0, failed: 0, done: 0, cancelled: 0 };
    const soon = new Date(Date.now() + 5 * 60_000);
    const time = `${String(soon.getHours()).padStart(2, '0')}:${String(soon.getMinutes()).padStart(2, '0')}`;
    const words = syncReasonWords({ reasonCode: 'uploads-paused', counts, folder: '/x', serviceUrl: null, until: soon.toISOString(), detail: null });
    expect(words).toMatch(new RegExp(`^Paused until (tomorrow )?${time}, then uploads resume by themselves\\.$`));
    expect(syncReasonWords({ reasonCode: 'uploads-paused', counts, folder: '/x', serviceUrl: null, until: null, detail: null })).toBe('Uploads are paused: resume to send your changes.');
  });
});
