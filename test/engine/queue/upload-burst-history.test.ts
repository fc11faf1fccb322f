import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { currentUploadBurst } from '../../../electron/engine/queue/upload-burst';
import { openSyncDatabase, type SyncDatabase } from '../../../electron/engine/sync-state/sync-database';

/**
 * The queue keeps every item it ever finished; the upload progress is read several times a second while uploading, so
 * what it asks of that history must go through an index (never the whole history), whatever its size.
 */
let dir: string;
let db: SyncDatabase;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'upload-burst-history-'));
  db = openSyncDatabase(join(dir, 'sync.sqlite'));
  const insert = db.prepare(`INSERT INTO queue_items (kind, state, path, file_size, bytes_sent, bytes_total, created_at, updated_at, finished_at, attempts, next_attempt_at, paused)
    VALUES ('upload', ?, ?, 1000, ?, 1000, ?, ?, ?, 0, 0, 0)`);
  db.transaction(() => {
    for (let i = 0; i < 2_000; i++) insert.run('done', `old/f${i}.stl`, 1000, 1_000 + i, 1_000 + i, 1_005 + i);
    insert.run('done', 'now/first.stl', 1000, 50_000, 50_000, 50_010);
    insert.run('running', 'now/second.stl', 400, 50_001, 50_001, null);
    insert.run('waiting', 'now/third.stl', 0, 50_020, 50_020, null);
  })();
  db.exec('ANALYZE');
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the current burst of uploads, with a long history in the queue', () => {
  it('counts only the burst: the file done while the others waited, the one being sent and the one waiting', () => {
    expect(currentUploadBurst(db)).toEqual({ filesDone: 1, filesSending: 1, filesWaiting: 1, bytesSent: 1_400, bytesTotal: 3_000 });
  });

  it('reads finished items through their index, never the whole history', () => {
    const index = db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get('queue_items_by_finished') as { sql: string } | undefined;
    expect(index?.sql).toMatch(/WHERE finished_at IS NOT NULL/);
    const explain = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(50_000, 50_000) as { detail: string }[]).map((row) => row.detail).join('\n');
    const earlier = explain('SELECT min(created_at) FROM queue_items INDEXED BY queue_items_by_finished WHERE finished_at IS NOT NULL AND finished_at >= ? AND created_at < ?');
    expect(earlier).toContain('USING INDEX queue_items_by_finished');
    expect(earlier).not.toMatch(/SCAN queue_items(?! USING)/);
  });
});
