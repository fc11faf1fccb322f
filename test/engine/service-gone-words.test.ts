import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { problemOf } from '../../electron/engine/contract/problem-of';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { runCliCapturing } from '../support/cli';
import { profileDir, RAW_OUTPUT, removeTree, runCli } from '../support/cli-child';
import { startTestService, type TestService } from '../../harness/local-service';
import { tempDir } from './cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';

/**
 * A service that stopped answering is said once, in words: never the network's codes (ECONNREFUSED…), never a
 * message wrapped in another that says the same ("… cannot be reached (The service cannot be reached (…))").
 * The codes stay in the engine log.
 */
// Not after "-": a temporary folder's random name ("design-sync-gone-root-ENDILQ") in a path is not a code.
const NETWORK_CODE = /(?<!-)\bE[A-Z]{3,}\b|UND_ERR|HPE_/;
const NESTED = /\([^()]*\(/;
const sayOnce = (text: string) => {
  expect(text).not.toMatch(NETWORK_CODE);
  expect(text).not.toMatch(NESTED);
  expect(text).not.toMatch(RAW_OUTPUT);
  expect(text.match(/cannot be reached/g)?.length ?? 0).toBeLessThanOrEqual(1);
};

let service: TestService;
const dirs: string[] = [];

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop().catch(() => {});
  for (const dir of dirs) removeTree(dir);
});

describe('a service that stopped, in words', () => {
  it('the queue item\'s reason, the CLI\'s sync and pull, and the catalogue pull\'s problem say it without codes', async () => {
    const { token } = service.addUser('gone');
    const api = clientFor(service.url, token);
    await api.createDesign({ name: 'Latch', excerpt: 'A latch', license: 'cc0' });
    const profile = profileDir('gone-profile');
    const parent = tempDir('gone-root');
    dirs.push(profile, parent);
    const root = join(parent, 'Designs');
    expect((await runCliCapturing(profile, ['--service', service.url, 'login', '--with-token'], token)).code).toBe(0);
    const first = await runCli(profile, ['sync', root, '--accept-content-policy', '--settle-ms', '100']);
    expect(first.code, first.err).toBe(0);

    writeFileSync(join(root, 'latch', 'part.stl'), 'solid part\nendsolid part\n');
    await service.stop();

    const offline = await runCli(profile, ['sync', root, '--accept-content-policy', '--settle-ms', '100']);
    expect(offline.code).toBe(1);
    expect(offline.err).toMatch(/Not everything was sent \(the service cannot be reached now; run `design-sync sync` again once it is back\)\./);
    for (const line of `${offline.out}\n${offline.err}`.split('\n')) sayOnce(line);

    const listed = await runCli(profile, ['queue', 'list', '--json']);
    const items = JSON.parse(listed.out) as { path: string | null; reason: string | null }[];
    const waiting = items.find((item) => item.path === 'latch/part.stl');
    expect(waiting?.reason).toBe('Waiting for the service, which cannot be reached now: this is sent when it is back.');

    const pulled = await runCli(profile, ['pull']);
    expect(pulled.code).toBe(1);
    expect(pulled.err).toMatch(/cannot be reached/);
    for (const line of `${pulled.out}\n${pulled.err}`.split('\n')) sayOnce(line);

    // The window is told of a pull that stopped through problemOf (pull.finished, catalogue.pull's answer).
    const windowProfile = tempDir('gone-window-profile');
    dirs.push(windowProfile);
    const engine = await openEngine({
      profileDir: windowProfile, serviceUrl: service.url, userAgent: 'design-sync-test',
      tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore(),
    });
    try {
      const finished = new Promise<unknown>((resolve) => engine.catalogue.once('finished', ({ error }) => resolve(error)));
      const failure = await engine.catalogue.pullNow().then(() => null, (error: unknown) => error);
      expect(failure).not.toBeNull();
      const problem = problemOf(await finished);
      expect(problem).toMatchObject({ kind: 'offline', message: expect.stringMatching(/^The service at 127\.0\.0\.1:\d+ cannot be reached; /) });
      sayOnce(problem.message);
    } finally {
      await engine.close();
    }
  }, 60_000);
});
