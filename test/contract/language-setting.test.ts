import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContractProblem, RequestName, SettingsView } from '../../shared';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { PSEUDO_LOCALE_FLAG } from '../../electron/engine/settings/language';
import { memorySettingsStore, type SettingsStore } from '../../electron/engine/settings/settings-store';
import { tempDir } from '../engine/cache/cache-fixtures';

/** The language setting through the contract (settings.get / settings.update), as Settings in the window uses it. */
let profile: string;
let settings: SettingsStore;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
const flagBefore = process.env[PSEUDO_LOCALE_FLAG];

async function ok(name: RequestName, input: unknown): Promise<SettingsView> {
  const outcome = await endpoint.handle(name, input);
  if (!outcome.ok) throw new Error(`${name}: ${JSON.stringify(outcome.problem)}`);
  return outcome.value as SettingsView;
}

/** The refusal, which must be a validation problem naming its fields. */
async function problem(name: RequestName, input: unknown): Promise<Extract<ContractProblem, { kind: 'validation' }>> {
  const outcome = await endpoint.handle(name, input);
  if (outcome.ok) throw new Error(`${name}: expected a problem`);
  if (outcome.problem.kind !== 'validation') throw new Error(`${name}: expected a validation problem, got ${JSON.stringify(outcome.problem)}`);
  return outcome.problem;
}

beforeEach(async () => {
  delete process.env[PSEUDO_LOCALE_FLAG];
  profile = tempDir('language-profile');
  settings = memorySettingsStore();
  engine = await openEngine({ profileDir: profile, userAgent: 'design-sync-test', tokenStore: () => new MemoryTokenStore(null), settingsStore: () => settings });
  endpoint = createContractEndpoint(engine);
});

afterEach(async () => {
  if (flagBefore === undefined) delete process.env[PSEUDO_LOCALE_FLAG];
  else process.env[PSEUDO_LOCALE_FLAG] = flagBefore;
  await endpoint.close();
  await engine.close();
  rmSync(profile, { recursive: true, force: true });
});

describe('the language setting', () => {
  it('is the system\'s until one is chosen; a choice is kept in the profile\'s settings, and "system" goes back', async () => {
    expect(await ok('settings.get', {})).toMatchObject({ language: 'system', pseudoLocaleOffered: false });
    expect((await ok('settings.update', { language: 'nl' })).language).toBe('nl');
    expect(settings.read().language).toBe('nl');
    expect((await ok('settings.get', {})).language).toBe('nl');
    expect((await ok('settings.update', { language: 'system' })).language).toBe('system');
    expect(settings.read().language).toBe('system');
  });

  it('refuses a language design-sync does not speak, naming the field, and keeps the one chosen', async () => {
    await ok('settings.update', { language: 'de' });
    const refused = await problem('settings.update', { language: 'fr' });
    expect(Object.keys(refused.fieldErrors)).toContain('language');
    expect(settings.read().language).toBe('de');
  });

  it('takes the pseudo-locale only where developers asked for it (DESIGN_SYNC_PSEUDO_LOCALE=1)', async () => {
    const refused = await problem('settings.update', { language: 'en-XA' });
    expect(refused.fieldErrors.language?.[0]).toMatch(/DESIGN_SYNC_PSEUDO_LOCALE=1/);
    expect(settings.read().language).toBeUndefined();

    process.env[PSEUDO_LOCALE_FLAG] = '1';
    expect(await ok('settings.update', { language: 'en-XA' })).toMatchObject({ language: 'en-XA', pseudoLocaleOffered: true });
  });
});
