import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type WritableDB } from '../../../electron/engine/cache/cache-database';
import { FileCache, pathForHash, type Fetcher } from '../../../electron/engine/cache/file-cache';
import { tempDir } from './cache-fixtures';

let dir: string;
let db: WritableDB;
let clock: number;
let fetched: string[];

const bytesFor = (url: string, size = 100) => Buffer.alloc(size, url);

/** Serves bytes derived from the url as a streamed Response, in small chunks. */
const fetcher: Fetcher = async (url) => {
  fetched.push(url);
  const bytes = bytesFor(url.replace(/\?.*/, ''));
  return new Response(new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 16) controller.enqueue(bytes.subarray(i, i + 16));
      controller.close();
    },
  }));
};

function cacheWith(maxBytes: number) {
  return new FileCache(db, join(dir, 'files'), { maxBytes, now: () => clock });
}

beforeEach(() => {
  dir = tempDir('file-cache');
  db = openCacheDatabase(join(dir, 'cache.sqlite'));
  clock = 1_000;
  fetched = [];
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('file cache', () => {
  it('stores a download under the sha256 of its bytes and answers later reads from disk', async () => {
    const files = cacheWith(10_000);
    const stored = await files.ensure('/uploads/a.jpg', fetcher);
    const expected = createHash('sha256').update(bytesFor('/uploads/a.jpg')).digest('hex');
    expect(stored).toMatchObject({ hash: expected, size: 100, downloaded: true });
    expect(stored.path).toBe(pathForHash(join(dir, 'files'), expected));
    expect(stored.path).toMatch(new RegExp(`files/${expected.slice(0, 2)}/${expected.slice(2)}$`));
    expect(readFileSync(stored.path)).toEqual(bytesFor('/uploads/a.jpg'));
    expect(readdirSync(join(dir, 'files', 'tmp'))).toEqual([]);
    expect((await files.ensure('/uploads/a.jpg', fetcher)).downloaded).toBe(false);
    expect(fetched).toEqual(['/uploads/a.jpg']);
    expect(files.localPath('/uploads/a.jpg')).toBe(stored.path);
    expect(files.localPath('/uploads/never.jpg')).toBeNull();
  });

  it('downloads again when the source changed version, and shares one file between urls with the same bytes', async () => {
    const files = cacheWith(10_000);
    await files.ensure('/uploads/a.jpg', fetcher, { version: 'v1' });
    await files.ensure('/uploads/a.jpg', fetcher, { version: 'v2' });
    expect(fetched).toHaveLength(2);
    const one = await files.ensure('/same?x=1', fetcher);
    const two = await files.ensure('/same?x=2', fetcher);
    expect(one.path).toBe(two.path);
    expect(files.totalBytes()).toBe(200);
  });

  it('never leaves a half file: a download that breaks off stores nothing', async () => {
    const files = cacheWith(10_000);
    const broken: Fetcher = async () => new Response(new ReadableStream({
      start(controller) {
        controller.enqueue(new Uint8Array(50));
        controller.error(new Error('connection reset'));
      },
    }));
    await expect(files.ensure('/uploads/broken.jpg', broken)).rejects.toThrow(/connection reset/);
    expect(files.localPath('/uploads/broken.jpg')).toBeNull();
    expect(readdirSync(join(dir, 'files', 'tmp'))).toEqual([]);
    expect(readdirSync(join(dir, 'files')).filter((name) => name !== 'tmp')).toEqual([]);
  });

  it('does not serve a file cut short on disk (as a crash can leave one) and downloads it again whole', async () => {
    const files = cacheWith(10_000);
    const stored = await files.ensure('/uploads/cut.stl', fetcher);
    truncateSync(stored.path, 40);
    expect(files.has('/uploads/cut.stl')).toBe(false);
    expect(files.localPath('/uploads/cut.stl')).toBeNull();
    const again = await files.ensure('/uploads/cut.stl', fetcher);
    expect(again).toMatchObject({ downloaded: true, size: 100, path: stored.path });
    expect(readFileSync(again.path)).toEqual(bytesFor('/uploads/cut.stl'));
    expect(fetched).toEqual(['/uploads/cut.stl', '/uploads/cut.stl']);
  });

  it('stores a body larger than its write buffers byte for byte, in chunks of any size', async () => {
    const files = cacheWith(10_000_000);
    const bytes = Buffer.from(Array.from({ length: 1_500_000 }, (_, i) => (i * 7919) % 251));
    const sizes = [1, 65_536, 3, 262_144, 262_143, 400_000, 17];
    const uneven: Fetcher = async () => new Response(new ReadableStream({
      start(controller) {
        for (let at = 0, i = 0; at < bytes.length; i++) {
          const size = sizes[i % sizes.length]!;
          controller.enqueue(bytes.subarray(at, at + size));
          at += size;
        }
        controller.close();
      },
    }));
    const stored = await files.ensure('/uploads/large.stl', uneven);
    expect(stored.size).toBe(bytes.length);
    expect(stored.hash).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(readFileSync(stored.path).equals(bytes)).toBe(true);
  });

  it('stops a download when its signal aborts, storing nothing and leaving no part behind', async () => {
    const files = cacheWith(10_000);
    const controller = new AbortController();
    const endless: Fetcher = async () => new Response(new ReadableStream({
      pull(stream) {
        stream.enqueue(new Uint8Array(1000));
        controller.abort(new Error('released'));
      },
    }));
    await expect(files.ensure('/uploads/endless.stl', endless, { signal: controller.signal })).rejects.toThrow(/released/);
    expect(files.localPath('/uploads/endless.stl')).toBeNull();
    expect(readdirSync(join(dir, 'files', 'tmp'))).toEqual([]);
  });

  it('stores the connection\'s chunks (a chunked answer, as kept designs download) byte for byte under their sha256', async () => {
    const files = cacheWith(10_000_000);
    const bytes = Buffer.from(Array.from({ length: 2_500_000 }, (_, i) => (i * 7919) % 251));
    const sizes = [1, 65_536, 3, 1_048_576, 1_048_575, 400_000, 17];
    const progress: number[] = [];
    const chunked: Fetcher = async () => ({
      status: 200, headers: new Headers({ 'content-type': 'model/stl' }),
      chunks: (async function* () {
        for (let at = 0, i = 0; at < bytes.length; i++) {
          const size = sizes[i % sizes.length]!;
          yield bytes.subarray(at, at + size);
          at += size;
        }
      })(),
    });
    const stored = await files.ensure('/uploads/chunked.stl', chunked, { onBytes: (count) => progress.push(count) });
    expect(stored).toMatchObject({ size: bytes.length, hash: createHash('sha256').update(bytes).digest('hex'), downloaded: true });
    expect(readFileSync(stored.path).equals(bytes)).toBe(true);
    expect(progress.reduce((sum, count) => sum + count, 0)).toBe(bytes.length);
    expect(readdirSync(join(dir, 'files', 'tmp'))).toEqual([]);
    expect(files.has('/uploads/chunked.stl')).toBe(true);
  });

  it('stores several large downloads at once, each under the sha256 of its own bytes', async () => {
    const files = cacheWith(100_000_000);
    const bodies = Array.from({ length: 6 }, (_, n) => Buffer.from(Array.from({ length: 1_200_000 + n * 99_991 }, (_, i) => (i * (n + 3)) % 253)));
    const chunked = (bytes: Buffer): Fetcher => async () => ({
      status: 200, headers: new Headers(),
      chunks: (async function* () {
        for (let at = 0; at < bytes.length; at += 65_536) {
          await new Promise((resolve) => setImmediate(resolve));
          yield bytes.subarray(at, at + 65_536);
        }
      })(),
    });
    const stored = await Promise.all(bodies.map((bytes, n) => files.ensure(`/uploads/part-${n}.stl`, chunked(bytes))));
    stored.forEach((file, n) => {
      expect(file.hash).toBe(createHash('sha256').update(bodies[n]!).digest('hex'));
      expect(readFileSync(file.path).equals(bodies[n]!)).toBe(true);
    });
  });

  it('never leaves a half file from chunks that break off, and closes an answer it stops reading', async () => {
    const files = cacheWith(10_000);
    const broken: Fetcher = async () => ({
      status: 200, headers: new Headers(),
      chunks: (async function* () {
        yield Buffer.alloc(50);
        throw new Error('connection reset');
      })(),
    });
    await expect(files.ensure('/uploads/broken.stl', broken)).rejects.toThrow(/connection reset/);
    expect(files.localPath('/uploads/broken.stl')).toBeNull();
    expect(readdirSync(join(dir, 'files', 'tmp'))).toEqual([]);

    const controller = new AbortController();
    let closed = false;
    const endless: Fetcher = async () => ({
      status: 200, headers: new Headers(),
      chunks: (async function* () {
        try {
          for (;;) {
            yield Buffer.alloc(1000);
            controller.abort(new Error('released'));
          }
        } finally {
          closed = true;
        }
      })(),
    });
    await expect(files.ensure('/uploads/endless.stl', endless, { signal: controller.signal })).rejects.toThrow(/released/);
    expect(closed).toBe(true);
    expect(files.localPath('/uploads/endless.stl')).toBeNull();
    expect(readdirSync(join(dir, 'files', 'tmp'))).toEqual([]);
    expect(readdirSync(join(dir, 'files')).filter((name) => name !== 'tmp')).toEqual([]);
  });

  it('keeps within its size bound by evicting the least recently used files', async () => {
    const files = cacheWith(250);
    const a = await files.ensure('/a', fetcher);
    clock++;
    const b = await files.ensure('/b', fetcher);
    clock++;
    files.localPath('/a'); // a is now used more recently than b
    clock++;
    const c = await files.ensure('/c', fetcher);
    expect(files.totalBytes()).toBeLessThanOrEqual(250);
    expect(files.localPath('/b')).toBeNull();
    expect(existsSync(b.path)).toBe(false);
    expect(files.localPath('/a')).toBe(a.path);
    expect(files.localPath('/c')).toBe(c.path);
    for (let i = 0; i < 10; i++) {
      clock++;
      await files.ensure(`/many/${i}`, fetcher);
      expect(files.totalBytes()).toBeLessThanOrEqual(250);
    }
    const onDisk = readdirSync(join(dir, 'files')).filter((name) => name !== 'tmp').flatMap((sub) => readdirSync(join(dir, 'files', sub)));
    expect(onDisk).toHaveLength(2);
  });
});
