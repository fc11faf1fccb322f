import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../../electron/engine/runtime/engine';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../../electron/engine/settings/settings-store';
import { runCliCapturing } from '../../support/cli';
import { startTestService, type TestService } from '../../../harness/local-service';
import { tempDir } from '../cache/cache-fixtures';

const HOUR = 60 * 60_000;

let service: TestService;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;

beforeAll(async () => {
  service = await startTestService();
  const { token } = service.addUser('pauser');
  engine = await openEngine({
    profileDir: tempDir('pause-for-profile'), serviceUrl: service.url, userAgent: 'design-sync-test', trash: 'folder',
    tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore(),
  });
  await engine.sync.chooseFolder(tempDir('pause-for-root'));
  endpoint = createContractEndpoint(engine);
});
afterAll(async () => {
  await endpoint?.close();
  await engine?.close();
  await service?.stop();
});

describe('pausing uploads for a while, through the contract', () => {
  it('"for an hour" pauses all uploads until an hour from now, and the sync view says until when', async () => {
    const before = Date.now();
    expect(await endpoint.handle('queue.pause', { target: 'all', for: 'hour' })).toMatchObject({ ok: true });
    const sync = await endpoint.handle('sync.status', {});
    if (!sync.ok) throw new Error(sync.problem.message);
    const view = sync.value as { state: string; queuePaused: boolean; queuePausedUntil: string; reason: string; until: string };
    expect(view).toMatchObject({ state: 'paused', reasonCode: 'uploads-paused', queuePaused: true });
    const ends = Date.parse(view.queuePausedUntil);
    expect(ends).toBeGreaterThanOrEqual(before + HOUR);
    expect(ends).toBeLessThanOrEqual(Date.now() + HOUR);
    expect(view.until).toBe(view.queuePausedUntil);
    expect(view.reason).toMatch(/^Paused until (tomorrow )?\d\d:\d\d, then uploads resume by themselves\.$/);
    expect(await endpoint.handle('queue.resume', { target: 'all' })).toMatchObject({ ok: true });
    expect(engine.queue.status()).toMatchObject({ queuePaused: false, queuePausedUntil: null });
  });

  it('"until tomorrow" ends at the next 08:00', async () => {
    expect(await endpoint.handle('queue.pause', { target: 'all', for: 'tomorrow' })).toMatchObject({ ok: true });
    const ends = new Date(engine.queue.status().queuePausedUntil!);
    expect([ends.getHours(), ends.getMinutes()]).toEqual([8, 0]);
    expect(ends.getTime() - Date.now()).toBeLessThanOrEqual(24 * HOUR);
    engine.queue.setQueuePaused(false);
  });

  it('refuses a length for one item, or a length it does not know, naming the field', async () => {
    const one = await endpoint.handle('queue.pause', { target: 1, for: 'hour' });
    expect(one).toMatchObject({ ok: false, problem: { kind: 'validation' } });
    expect(JSON.stringify(one)).toMatch(/only a pause of all uploads can end by itself/);
    const week = await endpoint.handle('queue.pause', { target: 'all', for: 'week' });
    expect(week).toMatchObject({ ok: false, problem: { kind: 'validation' } });
    expect(engine.queue.status().queuePaused).toBe(false);
  });
});

describe('pausing uploads for a while, on the command line', () => {
  it('queue pause --for 1h says until when; status says it too; a length it does not know is refused', async () => {
    const profile = tempDir('pause-for-cli');
    const paused = await runCliCapturing(profile, ['--service', service.url, 'queue', 'pause', '--for', '1h']);
    expect(paused.err).toBe('');
    expect(paused.out).toMatch(/^Uploads paused until (tomorrow )?\d\d:\d\d; they resume by themselves then\.$/);
    const status = await runCliCapturing(profile, ['queue', 'list']);
    expect(status.out).toMatch(/^Uploads are paused until (tomorrow )?\d\d:\d\d, then they resume by themselves \(design-sync queue resume: now\)\./);
    const refused = await runCliCapturing(profile, ['queue', 'pause', '--for', '2 days']);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe('--for: expected "1h" or "tomorrow" (the next 08:00), got "2 days".');
    const item = await runCliCapturing(profile, ['queue', 'pause', '3', '--for', '1h']);
    expect(item.err).toBe('--for pauses all uploads: leave out the item number.');
  });
});
