import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountView } from '../../shared';
import { FileTokenStore } from '../../electron/engine/authorization/file-token-store';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { startTestService, type TestService } from '../../harness/local-service';
import { until } from '../../harness/until';
import { tempDir } from '../engine/cache/cache-fixtures';

/**
 * Why the account needs a new sign-in arrives as a code beside the engine's English words, for the window to say in
 * the person's language: a sign-in the service no longer accepts, a sign-in kept here that cannot be used.
 */

let service: TestService;
const opened: { engine: Engine; profile: string }[] = [];

async function accountOf(engine: Engine): Promise<AccountView> {
  const outcome = await createContractEndpoint(engine).handle('account.get', {});
  if (!outcome.ok) throw new Error(`account.get: ${JSON.stringify(outcome.problem)}`);
  return outcome.value as AccountView;
}

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  for (const { engine, profile } of opened) {
    await engine.close();
    rmSync(profile, { recursive: true, force: true });
  }
  await service.stop();
});

describe('why a new sign-in is needed, as a code', () => {
  it('has no reason while signed in', async () => {
    const profile = tempDir('account-reason-ok');
    const engine = await openEngine({
      profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test',
      tokenStore: () => new MemoryTokenStore(service.addUser('kept').token), settingsStore: () => memorySettingsStore(),
    });
    opened.push({ engine, profile });
    expect(await accountOf(engine)).toMatchObject({ status: 'signed-in', reason: null, reasonCode: null });
  });

  it('says sign-in-refused when the service no longer accepts the token, the English words beside it', async () => {
    const profile = tempDir('account-reason-refused');
    const engine = await openEngine({
      profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test',
      tokenStore: () => new MemoryTokenStore('a-token-this-service-never-issued'), settingsStore: () => memorySettingsStore(),
    });
    opened.push({ engine, profile });
    // The engine asks the service who is signed in when it opens.
    await until('the service refused the sign-in', async () => (await accountOf(engine)).status === 'needs-sign-in');
    expect(await accountOf(engine)).toMatchObject({ reasonCode: 'sign-in-refused', reason: expect.stringMatching(/no longer accepts this sign-in/) });
  });

  it.skipIf(process.platform === 'win32')('says stored-sign-in-unusable for a token file others can read, its particulars in the words', async () => {
    const profile = tempDir('account-reason-unusable');
    const tokenFile = join(profile, 'token-for-test');
    mkdirSync(dirname(tokenFile), { recursive: true });
    writeFileSync(tokenFile, `${service.addUser('careless').token}\n`);
    chmodSync(tokenFile, 0o644);
    const engine = await openEngine({
      profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test',
      tokenStore: () => new FileTokenStore(tokenFile), settingsStore: () => memorySettingsStore(),
    });
    opened.push({ engine, profile });
    expect(await accountOf(engine)).toMatchObject({
      status: 'signed-out', reasonCode: 'stored-sign-in-unusable', reason: expect.stringMatching(/can be read or changed by other users/),
    });
  });
});
