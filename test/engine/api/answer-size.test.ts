import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { designs, endlessBody, sendJson, useMisbehavingServices } from '../../support/misbehaving-service';
import { problemOf } from '../../support/problems';
import { tempDir } from '../cache/cache-fixtures';

/**
 * An answer is bounded in size: a JSON answer over the limit (32 MiB unless set) is refused while it is read, as soon
 * as it passes the limit (or at once when it announces more), never buffered whole first; so the memory of a pull
 * stays flat whatever the service sends.
 */

const MiB = 1024 * 1024;
const service = useMisbehavingServices(afterEach);

function client(baseUrl: string, maxAnswerBytes?: number) {
  return new ServiceClient({ baseUrl, token: () => null, retry: { retries: 2, minDelayMs: 5, maxDelayMs: 10 }, ...(maxAnswerBytes ? { maxAnswerBytes } : {}) });
}

describe('answers larger than the limit', () => {
  it('an answer that announces 300 MB is refused before its body is read, saying the size and the limit', async () => {
    const huge = await service((_, response) => {
      response.setHeader('content-length', 300 * MiB);
      endlessBody(response);
    });
    const problem = await problemOf(client(huge.url).listDesigns());
    expect(problem).toEqual({
      kind: 'server-error', status: 200,
      message: "The service's answer to GET /v1/designs is too large: it announced 300 MiB, and answers over 32 MiB are refused; check the service address, or tell the service's maintainers.",
    });
    expect(huge.requests).toHaveLength(1); // asking again would not help
  });

  it('a body without end is refused as soon as it passes the limit, giving how much was read', async () => {
    const endless = await service((_, response) => endlessBody(response, { start: '[' }));
    const problem = await problemOf(client(endless.url, 2 * MiB).listDesigns());
    expect(problem).toMatchObject({ kind: 'server-error', status: 200 });
    expect(problem.message).toMatch(/^The service's answer to GET \/v1\/designs is too large: more than 2 MiB came \(2(\.\d)? MiB read when the client stopped\), and answers over 2 MiB are refused; check the service address, or tell the service's maintainers\.$/);
    // The client stopped reading at the limit: the server could hand its sockets little more than that.
    expect(endless.bytesWritten()).toBeLessThan(16 * MiB);
  });

  it('an answer within the limit is read whole', async () => {
    const big = await service((_, response) => sendJson(response, designs(2000)));
    const page = await client(big.url, 1 * MiB).listDesigns();
    expect(page.items).toHaveLength(2000);
  });

  it('a download is not bound by the JSON limit', async () => {
    const file = await service((_, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 3 * MiB });
      response.end(Buffer.alloc(3 * MiB, 7));
    });
    const response = await client(file.url, 1 * MiB).download('/uploads/document/1/model.stl');
    expect((await response.arrayBuffer()).byteLength).toBe(3 * MiB);
  });
});

describe('memory of design-sync pull', () => {
  it('stays flat when the listing is an answer of 300 MB without end: the pull refuses it, exits 1, and its memory grows by less than 100 MB', async () => {
    const endless = await service((_, response, seen) => {
      if (seen.path === '/v1/designs') endlessBody(response, { start: '[' });
      else sendJson(response, [], 200);
    });
    const profile = tempDir('pull-memory');
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [join(import.meta.dirname, '../../../electron/launcher/run-source.mjs'), join(import.meta.dirname, '../../support/pull-memory-probe.ts'), endless.url, profile], {
        cwd: join(import.meta.dirname, '../../..'), maxBuffer: 16 * MiB, timeout: 60_000,
      }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      const result = JSON.parse(stdout.trim().split('\n').pop()!) as { code: number; err: string; startRss: number; peakRss: number };
      expect(result.code).toBe(1);
      expect(result.err).toMatch(/The listing of designs was not read completely: The service's answer to GET \/v1\/designs is too large: more than 32 MiB came/);
      expect(result.peakRss - result.startRss).toBeLessThan(100 * MiB);
      expect(endless.bytesWritten()).toBeLessThan(64 * MiB);
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  }, 90_000);
});
