import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openCacheDatabase } from '../../../electron/engine/cache/cache-database';
import { ExactCountThread, runningCountThreads } from '../../../electron/engine/cache/count-thread';
import { upsertDesigns } from '../../../electron/engine/cache/design-writes';
import { listFormDesign, tempDir } from './cache-fixtures';

const dir = tempDir('count-thread');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the exact-count thread', () => {
  it('fails every count, and says it failed, when it cannot read the cache (the library then counts on its own thread)', async () => {
    const before = runningCountThreads();
    const thread = new ExactCountThread(join(dir, 'no-such-cache.sqlite'));
    const first = thread.count('gear', [], new AbortController().signal);
    const second = thread.count('gear', ['cc0'], new AbortController().signal);
    await expect(first).rejects.toThrow();
    await expect(second).rejects.toThrow();
    expect(thread.failed).toBe(true);
    await expect(thread.count('gear', [], new AbortController().signal)).rejects.toThrow();
    await vi.waitFor(() => expect(runningCountThreads()).toBe(before));
  });

  it('reads the narrow index through in its turn, between counts, and answers how many designs it holds', async () => {
    const path = join(dir, 'read-through.sqlite');
    const db = openCacheDatabase(path);
    upsertDesigns(db, Array.from({ length: 30 }, (_, i) => listFormDesign({ id: i + 1, name: `Gear ${i + 1}`, license: i % 3 === 0 ? 'cc0' : 'ccby' })), 'list', 1);
    const thread = new ExactCountThread(path);
    const counted = thread.count('', ['cc0'], new AbortController().signal);
    const readThrough = thread.readIndexThrough();
    expect(await counted).toBe(10);
    expect(await readThrough).toBe(30);
    thread.close();
    db.close();
  });

  it('answers a count stopped while it waits at once, whatever the thread is doing', async () => {
    const thread = new ExactCountThread(join(dir, 'no-such-cache.sqlite'));
    const stop = new AbortController();
    const waiting = thread.count('gear', [], stop.signal);
    stop.abort(new Error('replaced'));
    await expect(waiting).rejects.toThrow('replaced');
    thread.close();
  });
});
