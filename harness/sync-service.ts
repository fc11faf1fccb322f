import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ServiceClient } from '../electron/engine/api/service-client';
import { startTestService, type TestService } from './local-service';
import { clientFor, makeComputer, syncedFolder, type Computer, type ComputerOptions } from './sync-computers';

/**
 * The local service of a sync test file and the computers its tests sync on: the service started before the file's
 * first test and stopped after its last, each test's computers disposed of after it (so no test sees what another
 * left behind). Users get names of their own (`<prefix><n>`), so tests never share an account by accident.
 */
export interface SyncService {
  /** The local service (there once the file's tests run). */
  readonly service: TestService;
  /** The computers made in the running test (the harness disposes of them after it). */
  readonly computers: Computer[];
  /** A new user with a token, and the tests' own client for it (quick retries). */
  user(prefix?: string): { screenName: string; token: string; api: ServiceClient };
  /**
   * A computer signed in with `token` (its own profile and sync folder), disposed of after the test; `url` reaches the
   * service another way (a proxy in front of it).
   */
  computer(token: string, options?: ComputerOptions & { url?: string }): Promise<Computer>;
  /** A new user with one own design (a draft named `designName`), and `count` computers signed in as that user. */
  account(count: number, designName?: string): Promise<{ token: string; api: ServiceClient; design: Awaited<ReturnType<ServiceClient['createDesign']>>; computers: Computer[] }>;
  /** A new user whose design "Bracket" is synced on a new computer with `files` files part-<i>.stl, all sent. */
  syncedFolder(files: number, options?: ComputerOptions): ReturnType<typeof syncedFolder>;
}

/** Registers the file's hooks (vitest) for a local service and its computers; call once, at the top of a test file. */
export function useSyncService(options: { faultInjection?: boolean; userPrefix?: string } = {}): SyncService {
  let service: TestService | undefined;
  const computers: Computer[] = [];
  let users = 0;
  const prefix = options.userPrefix ?? 'maker';
  beforeAll(async () => {
    service = await startTestService(options.faultInjection ? { faultInjection: true } : {});
  });
  afterAll(async () => {
    await service?.stop();
  });
  afterEach(async () => {
    for (const computer of computers.splice(0)) await computer.dispose();
  });
  const running = () => {
    if (!service) throw new Error('the local service is started before the test file\'s first test: use it in a test or a hook');
    return service;
  };
  const bed: SyncService = {
    get service() {
      return running();
    },
    computers,
    user(userPrefix = prefix) {
      const screenName = `${userPrefix}${++users}`;
      const { token } = running().addUser(screenName);
      return { screenName, token, api: clientFor(running().url, token) };
    },
    async computer(token, { url, ...computerOptions } = {}) {
      const computer = await makeComputer(url ?? running().url, token, computerOptions);
      computers.push(computer);
      return computer;
    },
    async account(count, designName = 'Spur gear') {
      const { token, api } = bed.user();
      const design = await api.createDesign({ name: designName, excerpt: 'A gear', license: 'cc0' });
      const list: Computer[] = [];
      for (let i = 0; i < count; i++) list.push(await bed.computer(token));
      return { token, api, design, computers: list };
    },
    syncedFolder(files, computerOptions = {}) {
      return syncedFolder(running(), `${prefix}${++users}`, files, computers, computerOptions);
    },
  };
  return bed;
}
