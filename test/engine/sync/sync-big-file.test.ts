import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { BaseFile } from '../../../electron/engine/sync-state/base-files';
import { prepareUsers, startServiceProcess } from '../../../harness/service-process';
import { clientFor } from '../../../harness/sync-computers';

const run = promisify(execFile);
const REPO = join(import.meta.dirname, '../../..');
/** 1100 MiB: more than 1 GB (and 1 GiB). */
const SIZE = 1100 * 1024 * 1024;

interface ChildReport {
  before: number;
  peak: number;
  scannedMs: number;
  sentMs: number;
  folder: string;
  file: string;
  enqueued: number | null;
  items: { kind: string; path: string | null; state: string; reason: string | null; bytesSent: number }[];
  base: BaseFile | null;
  again: { enqueued: number | null; downloaded: number | null; conflicts: number | null };
}

async function sha1Of(path: string): Promise<string> {
  const hash = createHash('sha1');
  for await (const chunk of createReadStream(path, { highWaterMark: 4 * 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

describe('a file larger than 1 GB through the whole sync path', () => {
  it('is scanned, hashed and uploaded by the queue runner once, with flat memory in the syncing process', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'design-sync-big-sync-service-'));
    const work = mkdtempSync(join(tmpdir(), 'design-sync-big-sync-'));
    const token = prepareUsers(dataDir, ['bigsync']).bigsync!;
    const remote = await startServiceProcess({ dataDir });
    try {
      const api = clientFor(remote.url, token);
      const design = await api.createDesign({ name: 'Huge part', excerpt: 'A sparse gigabyte', license: 'cc0' });

      // The syncing side runs in its own process: its RSS is what is measured (sampled every 20 ms there).
      const { stdout } = await run(process.execPath, ['--expose-gc', 'electron/launcher/run-source.mjs', 'test/engine/sync/big-file-sync-child.ts', remote.url, token, work, String(SIZE)], {
        cwd: REPO, maxBuffer: 1024 * 1024, timeout: 120_000,
      });
      const report = JSON.parse(stdout.trim().split('\n').pop()!) as ChildReport;
      const growthMb = (report.peak - report.before) / 1024 / 1024;

      expect(report.enqueued).toBe(1);
      expect(report.items).toEqual([{ kind: 'upload', path: `${report.folder}/huge.bin`, state: 'done', reason: null, bytesSent: expect.any(Number) as number }]);
      expect(report.again).toEqual({ enqueued: 0, downloaded: 0, conflicts: 0 });
      expect(growthMb, `RSS grew by ${growthMb.toFixed(0)} MB (scan ${report.scannedMs} ms, upload ${report.sentMs} ms)`).toBeLessThan(150);

      // The service holds it once, with the SHA-1 of the sparse file (streamed once here) as its modelhash, and all its bytes.
      const expected = await sha1Of(report.file);
      const documents = await api.listDocuments(design.id);
      expect(documents.map((d) => [d.name, d.modelhash])).toEqual([['huge.bin', expected]]);
      expect(report.base).toMatchObject({ remoteId: documents[0]!.id, size: SIZE, sha1: expected });
      const fileUrl = new URL((documents[0]!.file as { url: string }).url, remote.url);
      fileUrl.searchParams.set('auth_token', token);
      const head = await fetch(fileUrl, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(SIZE));
    } finally {
      await remote.stop();
      rmSync(work, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
