import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../../electron/engine/contract/create-contract-endpoint';
import type { EventMessage } from '../../../electron/engine/contract/contract-endpoint';
import type { Engine } from '../../../electron/engine/runtime/engine';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../../electron/engine/settings/settings-store';
import { startService, type RunningService } from '../../../service/server/start-service';
import { startTestService, type TestService } from '../../../harness/local-service';
import { until } from '../../../harness/until';
import { tempDir } from '../cache/cache-fixtures';

/**
 * The service going away and coming back, as a person sees it while the app runs: its loss and its return are each
 * noticed within 10 s, whether a window watches or only the background (the tray, `design-sync sync --watch`) runs;
 * a window that connects while the service is away is told so at once.
 */
let first: TestService | null = null;
let again: RunningService | null = null;
let engine: Engine | null = null;
let profile = '';

afterEach(async () => {
  await engine?.close();
  await again?.close().catch(() => {});
  await first?.close().catch(() => {});
  rmSync(profile, { recursive: true, force: true });
  engine = null;
  again = null;
  first = null;
});

async function running(): Promise<{ service: TestService; engine: Engine }> {
  first = await startTestService();
  const { token } = first.addUser('returner');
  profile = tempDir('service-returns');
  engine = await openEngine({
    profileDir: profile, serviceUrl: first.url, userAgent: 'design-sync-test',
    tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore(),
  });
  return { service: first, engine };
}

const online = (app: Engine) => app.connection.connectivity.state.online;

describe('the service going away and coming back', () => {
  it('with only the background running (no window): its return is noticed within 10 s (hours away: connectivity.test.ts)', async () => {
    const { service, engine: app } = await running();
    await app.startBackground();
    await service.close();
    // Something asks and finds it away (the queue, a pull): the background then watches for its return.
    await app.connection.checkConnectivity();
    expect(online(app)).toBe(false);
    again = await startService({ dataDir: service.dataDir, port: service.port });
    const back = Date.now();
    await until('the engine to notice the service is back', () => online(app), 10_000);
    expect(Date.now() - back).toBeLessThanOrEqual(10_000);
  }, 40_000);

  it('a window that connects while the service is away is told at once that it is offline', async () => {
    const { service, engine: app } = await running();
    await app.startBackground();
    await service.close();
    await app.connection.checkConnectivity();
    const endpoint = createContractEndpoint(app);
    const events: EventMessage[] = [];
    const unsubscribe = endpoint.subscribe((event) => events.push(event));
    try {
      const told = await until('the connectivity event', () => events.find((event) => event.name === 'connectivity') ?? null, 2_000);
      expect(told.payload).toMatchObject({ online: false });
      // A second window, later, hears it too.
      const second: EventMessage[] = [];
      const off = endpoint.subscribe((event) => second.push(event));
      const heard = await until('the second window\'s connectivity event', () => second.find((event) => event.name === 'connectivity') ?? null, 2_000);
      expect(heard.payload).toMatchObject({ online: false });
      off();
    } finally {
      unsubscribe();
      await endpoint.close();
    }
  }, 30_000);
});
