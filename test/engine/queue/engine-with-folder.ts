import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../../electron/engine/contract/create-contract-endpoint';
import type { ContractEndpoint } from '../../../electron/engine/contract/contract-endpoint';
import type { Engine } from '../../../electron/engine/runtime/engine';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../../electron/engine/settings/settings-store';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { startTestService, type TestService } from '../../../harness/local-service';
import { until } from '../../../harness/until';
import { tempDir } from '../cache/cache-fixtures';

export interface EngineWithFolder {
  engine: Engine;
  /** The contract's endpoint, as the window speaks to the engine. */
  window: ContractEndpoint;
  /** The design's folder as the queue names it: its path in the sync folder. */
  folder: string;
  /** The design's folder on disk. */
  folderPath: string;
  designId: number;
}

/**
 * For a test file: a local service with one user, and production engines of profiles that sync a folder for a
 * design of theirs; each test's engines, windows and folders are closed and removed after it (and, with
 * faultInjection, the service's faults cleared).
 */
export function useEngineWithFolder(userName: string, options: { faultInjection?: boolean } = {}) {
  let service: TestService | undefined;
  let token = '';
  let api: ServiceClient | undefined;
  const cleanups: (() => Promise<void> | void)[] = [];
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the test service starts in beforeAll');
    return value;
  };
  beforeAll(async () => {
    service = await startTestService({ faultInjection: options.faultInjection ?? false });
    token = service.addUser(userName).token;
    api = new ServiceClient({ baseUrl: service.url, token: () => token });
  });
  afterAll(() => service?.stop());
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    if (options.faultInjection) await service?.request('DELETE', '/__admin/faults');
  });

  return {
    get service(): TestService {
      return started(service);
    },
    get token(): string {
      return token;
    },
    /** The service as the user's own client. */
    get api(): ServiceClient {
      return started(api);
    },
    /** Closed or removed after the test, the last added first. */
    afterTest: (cleanup: () => Promise<void> | void): void => void cleanups.push(cleanup),

    /** The production engine of a new profile with a sync folder, the content policy accepted, the design's folder made. */
    async engineWithFolder(designName: string): Promise<EngineWithFolder> {
      const design = await started(api).createDesign({ name: designName, excerpt: 'x' });
      const profile = tempDir('engine-profile');
      const root = join(tempDir('engine-root'), 'Designs');
      cleanups.push(() => rmSync(profile, { recursive: true, force: true }), () => rmSync(join(root, '..'), { recursive: true, force: true }));
      const engine = await openEngine({
        profileDir: profile, serviceUrl: started(service).url, userAgent: 'design-sync-test', settleMs: 50,
        tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore(), trash: 'folder',
      });
      cleanups.push(() => engine.close());
      const window = createContractEndpoint(engine);
      cleanups.push(() => window.close());
      await engine.sync.chooseFolder(root);
      engine.sync.acceptContentPolicy();
      await engine.sync.syncParts().sync.syncOnce();
      const linked = await until('the design folder', () => engine.sync.syncParts().sync.folders.ofDesign(design.id));
      return { engine, window, folder: linked.folder, folderPath: join(root, linked.folder), designId: design.id };
    },
  };
}

/** Sends what waits, then stops the runner: the test sees the queue as the next scan leaves it. */
export async function sendAll(engine: Engine): Promise<void> {
  const { runner } = engine.sync.syncParts();
  runner.start();
  await runner.waitForIdle({ timeoutMs: 15_000 });
  await runner.stop();
}
