import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QueueStore } from '../../../electron/engine/queue/queue-store';
import { commitLightly, commitThenFlush } from '../../../electron/engine/sync-state/light-commit';
import { openSyncDatabase, type SyncDatabase } from '../../../electron/engine/sync-state/sync-database';

const FULL = 2;
const NORMAL = 1;

let dir: string;
let db: SyncDatabase;
let store: QueueStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'design-sync-light-'));
  db = openSyncDatabase(join(dir, 'sync.sqlite'));
  store = new QueueStore(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const synchronous = () => db.pragma('synchronous', { simple: true }) as number;

describe('light commits of the sync database', () => {
  it('are made with synchronous=NORMAL for that one commit, and every commit after is durable again', () => {
    const seen = commitLightly(db, () => synchronous());
    expect(seen).toBe(NORMAL);
    expect(synchronous()).toBe(FULL);
    expect(() => commitLightly(db, () => { throw new Error('a failed write'); })).toThrow('a failed write');
    expect(synchronous()).toBe(FULL);
  });

  it('made durable off the thread: written with synchronous=NORMAL, resolved once the WAL they are in was flushed, and seen by another connection', async () => {
    store.enqueue({ kind: 'upload', path: 'Gearbox/gear.stl', folder: 'Gearbox', designId: 1, fileKind: 'document', file: { size: 3, mtimeMs: 1 } });
    const flushes: string[] = [];
    const flushed = commitThenFlush(db, () => synchronous(), { onFlushed: (path) => flushes.push(path) });
    expect(synchronous()).toBe(FULL);
    expect(flushes).toEqual([]);
    expect(await flushed).toBe(NORMAL);
    expect(flushes).toEqual([`${join(dir, 'sync.sqlite')}-wal`]);
    expect(statSync(flushes[0]!).size).toBeGreaterThan(0);
  });

  it('join the transaction they are made in, which stays as durable as it was', () => {
    const seen = db.transaction(() => commitLightly(db, () => synchronous()))();
    expect(seen).toBe(FULL);
  });

  it('leave the queue durable after an upload is claimed, its attempt stored and its progress noted, and are seen by another connection', async () => {
    const id = store.enqueue({ kind: 'upload', path: 'Gearbox/gear.stl', folder: 'Gearbox', designId: 1, fileKind: 'document', file: { size: 3, mtimeMs: 1 } }).id;
    expect(store.claimNext()?.id).toBe(id);
    expect(store.markSending(id, { at: 1, name: 'gear.stl', sha1: null, size: 3, mtimeMs: 1, inode: '1:2' }, { untilLastBytes: true })).toBe(true);
    store.progress(id, 1, 3);
    expect(synchronous()).toBe(FULL);

    const other = new Database(join(dir, 'sync.sqlite'), { readonly: true });
    try {
      expect(other.prepare('SELECT state, sent_at, sent_sha1, bytes_sent FROM queue_items WHERE id = ?').get(id))
        .toEqual({ state: 'running', sent_at: 1, sent_sha1: null, bytes_sent: 1 });
      expect(await store.confirmSending(id, 'a9993e364706816aba3e25717850c26c9cd0d89d')).toBe(true);
      expect((other.prepare('SELECT sent_sha1 FROM queue_items WHERE id = ?').get(id) as { sent_sha1: string }).sent_sha1).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    } finally {
      other.close();
    }
  });

  it('record an item done lightly while another item runs (whose next durable commit flushes it), and durably when it is the last', () => {
    const enqueue = (name: string) => store.enqueue({ kind: 'upload', path: `Gearbox/${name}`, folder: 'Gearbox', designId: 1, fileKind: 'document', file: { size: 3, mtimeMs: 1 } }).id;
    const [first, second] = [enqueue('gear.stl'), enqueue('axle.stl')];
    expect([store.claimNext()?.id, store.claimNext()?.id]).toEqual([first, second]);
    let firstDoneAt: number | null = null;
    store.complete(first, () => (firstDoneAt = synchronous()));
    expect(firstDoneAt).toBe(NORMAL);
    let secondDoneAt: number | null = null;
    store.complete(second, () => (secondDoneAt = synchronous()));
    expect(secondDoneAt).toBe(FULL);
    expect(synchronous()).toBe(FULL);
    expect([store.get(first)!.state, store.get(second)!.state]).toEqual(['done', 'done']);
  });

  it('refuse to finish an attempt of an item a person cancelled meanwhile', async () => {
    const id = store.enqueue({ kind: 'upload', path: 'Gearbox/gear.stl', folder: 'Gearbox', designId: 1, fileKind: 'document', file: { size: 3, mtimeMs: 1 } }).id;
    store.claimNext();
    store.markSending(id, { at: 1, name: 'gear.stl', sha1: null, size: 3, mtimeMs: 1, inode: '1:2' }, { untilLastBytes: true });
    store.cancel(id);
    expect(await store.confirmSending(id, 'a9993e364706816aba3e25717850c26c9cd0d89d')).toBe(false);
    expect(store.get(id)!.sent?.sha1 ?? null).toBeNull();
  });
});
