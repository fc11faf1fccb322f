import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { QueueStore } from '../../../electron/engine/queue/queue-store';
import { openSyncDatabase } from '../../../electron/engine/sync-state/sync-database';
import { readContents } from '../../../electron/engine/sync/local-files';
import { mapInSlices } from '../../../electron/engine/sync/time-slices';
import { tempDir } from '../cache/cache-fixtures';

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

describe('reading a large sync folder', () => {
  const dirs: string[] = [];
  const scratch = () => {
    const dir = tempDir('scan-scale');
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('gives the SHA-1 and first bytes of every file, small or large, empty, or grown since its size was taken', async () => {
    const root = scratch();
    const files = {
      empty: Buffer.alloc(0),
      small: Buffer.from('solid part\nendsolid\n'),
      executable: Buffer.concat([Buffer.from('MZ'), randomBytes(6000)]),
      large: randomBytes(3 * 1024 * 1024 + 17),
    };
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(root, name), bytes);
    const grown = Buffer.from('it was short when listed');
    writeFileSync(join(root, 'grown'), grown);
    const listed = [...Object.entries(files).map(([name, bytes]) => ({ path: join(root, name), size: bytes.length })), { path: join(root, 'grown'), size: 5 }];
    appendFileSync(join(root, 'grown'), ' and longer when read');
    const contents = await readContents(listed);
    const expected = [...Object.values(files), Buffer.concat([grown, Buffer.from(' and longer when read')])];
    expect(contents.map((c) => c.sha1)).toEqual(expected.map(sha1));
    expect(contents.map((c) => Buffer.from(c.head).toString('hex'))).toEqual(expected.map((bytes) => bytes.subarray(0, 4096).toString('hex')));
  });

  it('a missing file is an error, never a hash of nothing', async () => {
    await expect(readContents([{ path: join(scratch(), 'gone.stl'), size: 10 }])).rejects.toThrow(/ENOENT/);
  });

  it('leaves the event loop free between slices of synchronous work', async () => {
    let turns = 0;
    const timer = setInterval(() => turns++, 1);
    const busy = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    const results = await mapInSlices(Array.from({ length: 60 }, (_, i) => i), (i) => (busy(1), i * 2), 5);
    clearInterval(timer);
    expect(results).toEqual(Array.from({ length: 60 }, (_, i) => i * 2));
    expect(turns).toBeGreaterThan(3);
  });

  it("reads one design folder's synced files and one path's queue items through an index, not the whole table", () => {
    const db = openSyncDatabase(join(scratch(), 'sync.sqlite'));
    try {
      const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('x') as { detail: string }[]).map((row) => row.detail).join('; ');
      expect(plan('SELECT * FROM base_files WHERE folder = ? ORDER BY path')).toMatch(/USING INDEX base_files_by_folder/);
      expect(plan('SELECT * FROM queue_items WHERE path = ? ORDER BY id DESC LIMIT 1')).toMatch(/USING INDEX queue_items_by_path/);
    } finally {
      db.close();
    }
  });

  it('queues a newer change of a file not yet sent into its waiting item, and gives back each item as the queue holds it', () => {
    const db = openSyncDatabase(join(scratch(), 'sync.sqlite'));
    try {
      const queue = new QueueStore(db);
      const seen: number[] = [];
      queue.on('change', (event) => event.type === 'item' && seen.push(event.item.id));
      const first = queue.enqueue({ kind: 'upload', path: 'Gear/a.stl', folder: 'Gear', designId: 1, fileKind: 'document', payload: { name: 'a.stl' }, file: { size: 1, mtimeMs: 1, sha1: 'aa' } });
      expect(queue.get(first.id)).toStrictEqual(first);
      queue.setPaused(first.id, true);
      const second = queue.enqueue({ kind: 'upload', path: 'Gear/a.stl', folder: 'Gear', designId: 1, fileKind: 'document', payload: { name: 'a.stl' }, file: { size: 2, mtimeMs: 2, sha1: 'bb' } });
      expect(second).toMatchObject({ id: first.id, paused: true, fileSize: 2, fileSha1: 'bb', createdAt: first.createdAt });
      expect(queue.get(first.id)).toEqual(second);
      const other = queue.enqueue({ kind: 'create-design', folder: 'New', payload: { name: 'New' } });
      expect(other.id).not.toBe(first.id);
      expect(queue.get(other.id)).toStrictEqual(other);
      const refused = db.transaction(() => queue.enqueue({
        kind: 'upload', path: 'Gear/run.exe', folder: 'Gear', designId: 1, fileKind: 'document', file: { size: 3, mtimeMs: 3 },
        attention: { kind: 'refused', reason: 'a program' },
      }))();
      expect(queue.get(refused.id)).toStrictEqual(refused);
      expect(seen).toEqual([first.id, first.id, first.id, other.id, refused.id]);
    } finally {
      db.close();
    }
  });
});
