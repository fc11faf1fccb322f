import { describe, expect, it, vi } from 'vitest';
import { parseShellArguments } from '../../electron/shell/main/shell-arguments';
import { RestartPolicy } from '../../electron/shell/main/restart-policy';
import { keyValueSettingsStore, settingsJsonSchema } from '../../electron/shell/settings/settings-schema';

// These modules need only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded by the shell\'s decisions');
});

describe('the settings kept by electron-store', () => {
  it('have a JSON schema per engine setting, derived from the engine\'s own', () => {
    const schema = settingsJsonSchema();
    expect(Object.keys(schema).sort()).toEqual(['cacheLimitBytes', 'catalogueRefreshMinutes', 'contentPolicyAcceptedAt', 'language', 'maxDownloadKBps', 'maxUploadKBps', 'openModelWith', 'proxy', 'reviewBeforePublishing', 'sampleService', 'serviceUrl', 'startAtLogin', 'startAtLoginAsked', 'tokenServiceUrl', 'webUrl']);
    expect(schema.serviceUrl).toMatchObject({ type: 'string' });
    expect(schema.cacheLimitBytes).toMatchObject({ type: 'integer' });
    expect(schema.reviewBeforePublishing).toMatchObject({ type: 'boolean' });
    expect(schema.maxUploadKBps).toMatchObject({ type: 'integer', minimum: 0 });
    expect(schema.openModelWith).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } });
  });

  it('merge the engine\'s changes into what is stored, and refuse a wrong type', () => {
    const backing = { store: { serviceUrl: 'http://127.0.0.1:4010' } as Record<string, unknown>, set(values: Record<string, unknown>) { this.store = { ...this.store, ...values }; } };
    const settings = keyValueSettingsStore(backing);
    settings.update({ cacheLimitBytes: 1024 });
    expect(backing.store).toEqual({ serviceUrl: 'http://127.0.0.1:4010', cacheLimitBytes: 1024 });
    expect(() => settings.update({ cacheLimitBytes: -5 })).toThrow();
    expect(backing.store.cacheLimitBytes).toBe(1024);
  });
});

describe('the app\'s command line', () => {
  it('reads --profile and --service in both forms and ignores Chromium\'s switches', () => {
    expect(parseShellArguments(['.', '--no-sandbox', '--profile', '/tmp/p', '--service=http://127.0.0.1:4010'])).toEqual({ profile: '/tmp/p', service: 'http://127.0.0.1:4010', hidden: false });
    expect(parseShellArguments(['--profile', '--inspect'])).toEqual({ profile: null, service: null, hidden: false });
  });
});

describe('restarting the engine process', () => {
  it('restarts it a few times with a growing delay, then gives up within the window', () => {
    const policy = new RestartPolicy(3, 60_000);
    expect([policy.next(0), policy.next(1_000), policy.next(2_000)]).toEqual([500, 1_000, 2_000]);
    expect(policy.next(3_000)).toBeNull();
    expect(policy.next(70_000)).toBe(500);
  });
});
