import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { runCliCapturing } from '../support/cli';
import { startTestService, type TestService } from '../../harness/local-service';
import { startThrottledLink, type ThrottledLink } from '../../harness/throttled-link';
import { until } from '../../harness/until';
import { tempDir } from './cache/cache-fixtures';

/**
 * The limits measured where the bytes go: through the throttled link (here a plain pipe that notes when each piece
 * passed), between the engine and the real local service. Each transfer is 256 KB at 64 KB/s, about four seconds.
 */
const KB = 1024;
const LIMIT_KBPS = 64;

let service: TestService;
let link: ThrottledLink;
let engine: Engine;
let token: string;
let designId: number;
const files = tempDir('bandwidth-files');

/** Bytes per second of what went one way through the link from `since` on, from its first piece to its last. */
function measuredRate(direction: 'up' | 'down', since: number): { bytes: number; rate: number } {
  const pieces = link.traffic.filter((piece) => piece.direction === direction && piece.at >= since);
  const bytes = pieces.reduce((sum, piece) => sum + piece.bytes, 0);
  // The first piece's bytes went at its start: the rate is what followed it, over the time it took.
  const seconds = (pieces.at(-1)!.at - pieces[0]!.at) / 1000;
  return { bytes, rate: (bytes - pieces[0]!.bytes) / seconds };
}

function fileOf(name: string, bytes: number): string {
  const path = join(files, name);
  writeFileSync(path, randomBytes(bytes));
  return path;
}

beforeAll(async () => {
  service = await startTestService();
  token = service.addUser('designer').token;
  link = await startThrottledLink(new URL(service.url));
  engine = await openEngine({
    profileDir: tempDir('bandwidth-profile'), serviceUrl: link.url, userAgent: 'design-sync-test', trash: 'folder',
    tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore(),
  });
  designId = (await engine.connection.client().createDesign({ name: 'Bracket', excerpt: 'A shelf bracket', license: 'cc0' })).id;
});
afterAll(async () => {
  await engine?.close();
  await link?.close();
  await service?.stop();
});
afterEach(() => {
  engine.appSettings.setBandwidthLimits({ maxUploadKBps: 0, maxDownloadKBps: 0 });
});

describe('bandwidth limits, measured through the link', () => {
  it('holds an upload within 10% of the upload limit', async () => {
    engine.appSettings.setBandwidthLimits({ maxUploadKBps: LIMIT_KBPS });
    const since = performance.now();
    await engine.connection.client().uploadDocument(designId, { path: fileOf('bracket.stl', 256 * KB) });
    const { bytes, rate } = measuredRate('up', since);
    expect(bytes).toBeGreaterThan(256 * KB);
    console.info(`upload at ${LIMIT_KBPS} KB/s: measured ${(rate / KB).toFixed(1)} KB/s`);
    expect(rate / KB).toBeGreaterThan(LIMIT_KBPS * 0.9);
    expect(rate / KB).toBeLessThan(LIMIT_KBPS * 1.1);
  }, 30_000);

  it('holds two uploads at once, by two of the engine\'s clients, within 10% of the one limit together', async () => {
    engine.appSettings.setBandwidthLimits({ maxUploadKBps: LIMIT_KBPS });
    const since = performance.now();
    await Promise.all([
      engine.connection.client().uploadDocument(designId, { path: fileOf('left.stl', 128 * KB) }),
      engine.connection.interactiveClient().uploadDocument(designId, { path: fileOf('right.stl', 128 * KB) }),
    ]);
    const { bytes, rate } = measuredRate('up', since);
    expect(bytes).toBeGreaterThan(256 * KB);
    console.info(`two uploads sharing ${LIMIT_KBPS} KB/s: measured ${(rate / KB).toFixed(1)} KB/s together`);
    expect(rate / KB).toBeGreaterThan(LIMIT_KBPS * 0.9);
    expect(rate / KB).toBeLessThan(LIMIT_KBPS * 1.1);
  }, 30_000);

  it('holds a download within 10% of the download limit', async () => {
    const created = await engine.connection.client().uploadDocument(designId, { path: fileOf('hinge.stl', 256 * KB) });
    const url = ((await engine.connection.client().getDocument(designId, created.id)).file as { url: string }).url;
    engine.appSettings.setBandwidthLimits({ maxDownloadKBps: LIMIT_KBPS });
    const since = performance.now();
    const response = await engine.connection.client().download(url);
    let received = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) received += chunk.byteLength;
    // Measured as the engine took the bytes: the system's socket buffers may take a small file from the link at once.
    const seconds = (performance.now() - since) / 1000;
    expect(received).toBe(256 * KB);
    const rate = received / seconds;
    console.info(`download at ${LIMIT_KBPS} KB/s: measured ${(rate / KB).toFixed(1)} KB/s`);
    expect(rate / KB).toBeGreaterThan(LIMIT_KBPS * 0.9);
    expect(rate / KB).toBeLessThan(LIMIT_KBPS * 1.1);
    expect(measuredRate('down', since).bytes).toBeGreaterThanOrEqual(256 * KB);
  }, 30_000);

  it('holds a download read as the connection\'s chunks (as kept designs are brought) within 10% of the download limit', async () => {
    const created = await engine.connection.client().uploadDocument(designId, { path: fileOf('latch.stl', 256 * KB) });
    const url = ((await engine.connection.client().getDocument(designId, created.id)).file as { url: string }).url;
    engine.appSettings.setBandwidthLimits({ maxDownloadKBps: LIMIT_KBPS });
    const since = performance.now();
    const answer = await engine.connection.client().downloadChunks(url);
    let received = 0;
    for await (const chunk of answer.chunks!) received += chunk.byteLength;
    const seconds = (performance.now() - since) / 1000;
    expect(received).toBe(256 * KB);
    const rate = received / seconds;
    console.info(`download as chunks at ${LIMIT_KBPS} KB/s: measured ${(rate / KB).toFixed(1)} KB/s`);
    expect(rate / KB).toBeGreaterThan(LIMIT_KBPS * 0.9);
    expect(rate / KB).toBeLessThan(LIMIT_KBPS * 1.1);
  }, 30_000);

  it('applies a new limit to an upload under way: lifted, the rest goes at full speed', async () => {
    engine.appSettings.setBandwidthLimits({ maxUploadKBps: 16 });
    const since = performance.now();
    const sent = () => link.traffic.filter((piece) => piece.direction === 'up' && piece.at >= since).reduce((sum, piece) => sum + piece.bytes, 0);
    const upload = engine.connection.client().uploadDocument(designId, { path: fileOf('slow.stl', 256 * KB) });
    upload.catch(() => undefined);
    await until('the upload under way at 16 KB/s', () => sent() >= 24 * KB, 10_000);
    const lifted = performance.now();
    // At 16 KB/s what is left would take another 14 s.
    engine.appSettings.setBandwidthLimits({ maxUploadKBps: 0 });
    await upload;
    const seconds = (performance.now() - lifted) / 1000;
    console.info(`upload limit lifted mid-way: the last ${((256 * KB - 24 * KB) / KB).toFixed(0)} KB or so took ${seconds.toFixed(2)} s`);
    expect(seconds).toBeLessThan(3);
  }, 30_000);

  it('sends at full speed without a limit (the measure can tell)', async () => {
    const since = performance.now();
    await engine.connection.client().uploadDocument(designId, { path: fileOf('free.stl', 256 * KB) });
    expect(measuredRate('up', since).rate / KB).toBeGreaterThan(LIMIT_KBPS * 4);
  }, 30_000);
});

describe('bandwidth limits as settings', () => {
  it('are read and changed through the contract, applied at once, and refused below 0 with the field named', async () => {
    const endpoint = createContractEndpoint(engine);
    try {
      const before = await endpoint.handle('settings.get', {});
      expect(before).toMatchObject({ ok: true, value: { maxUploadKBps: 0, maxDownloadKBps: 0 } });
      const after = await endpoint.handle('settings.update', { maxUploadKBps: 200, maxDownloadKBps: 1500 });
      expect(after).toMatchObject({ ok: true, value: { maxUploadKBps: 200, maxDownloadKBps: 1500 } });
      expect(engine.connection.bandwidth.upload.rate).toBe(200 * KB);
      expect(engine.connection.bandwidth.download.rate).toBe(1500 * KB);
      // The sync's own client (downloads into the folder) takes the same buckets.
      expect(engine.sync.syncParts().client.transport.options.bandwidth).toBe(engine.connection.bandwidth);
      expect(engine.appSettings.store.read()).toMatchObject({ maxUploadKBps: 200, maxDownloadKBps: 1500 });
      const refused = await endpoint.handle('settings.update', { maxUploadKBps: -5 });
      expect(refused).toMatchObject({ ok: false, problem: { kind: 'validation' } });
      expect(JSON.stringify(refused)).toMatch(/maxUploadKBps/);
      expect(engine.connection.bandwidth.upload.rate).toBe(200 * KB);
      await endpoint.handle('settings.update', { maxUploadKBps: 0 });
      expect(engine.connection.bandwidth.upload.unlimited).toBe(true);
    } finally {
      await endpoint.close();
    }
  });
});

describe('bandwidth limits on the command line', () => {
  it('--max-upload-rate and --max-download-rate are remembered by the profile and shown by status --diagnostics', async () => {
    const profile = tempDir('bandwidth-cli-profile');
    const set = await runCliCapturing(profile, ['--max-upload-rate', '64', '--max-download-rate', '1500', 'status', '--diagnostics']);
    expect(set.err).toBe('');
    expect(set.code).toBe(0);
    expect(set.out).toContain('Bandwidth limits: uploads 64 KB/s, downloads 1,500 KB/s');
    expect(JSON.parse(readFileSync(join(profile, 'settings.json'), 'utf8'))).toMatchObject({ maxUploadKBps: 64, maxDownloadKBps: 1500 });
    const cleared = await runCliCapturing(profile, ['--max-upload-rate', '0', 'status', '--diagnostics']);
    expect(cleared.out).toContain('Bandwidth limits: uploads no limit, downloads 1,500 KB/s');
  });

  it('refuses a rate that is not a whole number of KB/s, naming the flag, and changes nothing', async () => {
    const profile = tempDir('bandwidth-cli-refused');
    for (const bad of ['-1', 'fast', '1.5', '99999999999']) {
      const run = await runCliCapturing(profile, ['--max-upload-rate', bad, 'status', '--diagnostics']);
      expect(run.code).toBe(1);
      expect(run.err).toContain(`--max-upload-rate: expected a rate in KB/s, a whole number from 0 (no limit) to 10,000,000, got "${bad}".`);
    }
    expect(existsSync(join(profile, 'settings.json'))).toBe(false);
  });
});
