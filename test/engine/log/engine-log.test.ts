import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, appendFileSync, mkdirSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../../electron/engine/contract/create-contract-endpoint';
import { engineLog, engineLogPath, FileLog } from '../../../electron/engine/log/engine-log';
import { DEFAULT_LOG_MAX_BYTES } from '../../../electron/engine/log/rotating-file';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { runCliCapturing } from '../../support/cli';
import { tempDir } from '../cache/cache-fixtures';

const TOKEN = 'dstok_4f9c2a7e1b8d6053aa71c0de';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

function newProfile(): string {
  const profile = tempDir('engine-log');
  dirs.push(profile);
  return profile;
}

async function signedInEngine(profile: string, openBrowser?: (url: string) => Promise<void>) {
  return openEngine({
    profileDir: profile, tokenStore: () => new MemoryTokenStore(TOKEN), userAgent: 'test', serviceUrl: 'http://127.0.0.1:9',
    ...(openBrowser ? { openBrowser } : {}),
  });
}

const logText = (profile: string) => readFileSync(engineLogPath(profile), 'utf8');

describe('the engine log', () => {
  it('keeps a caught error no one is shown: time, level, area, message, the error with its code and stack', async () => {
    const profile = newProfile();
    const engine = await signedInEngine(profile, async (url) => {
      throw Object.assign(new Error(`no browser could open ${url}`), { code: 'ENOBROWSER' });
    });
    const endpoint = createContractEndpoint(engine);
    try {
      const outcome = await endpoint.handle('design.openPage', { id: 5 });
      expect(outcome).toMatchObject({ ok: true, value: { opened: false } });
    } finally {
      endpoint.close();
      await engine.close();
    }
    const lines = logText(profile).split('\n');
    const entry = lines.findIndex((line) => line.includes('the browser could not be opened'));
    expect(lines[entry]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z WARN  contract: the browser could not be opened on http:\/\/127\.0\.0\.1:9\/\S+: Error: no browser could open \S+ \[code ENOBROWSER\]$/);
    expect(lines[entry + 1]).toMatch(/^ {6}at .*engine-log\.test\.ts/);
  });

  it('never holds the token: not in a message, a URL, an encoded URL, a cause, a JSON body or a header', async () => {
    const profile = newProfile();
    const engine = await signedInEngine(profile);
    try {
      engineLog.warn('api', `GET http://127.0.0.1:9/v1/designs?page=2&auth_token=${TOKEN} failed`);
      engineLog.warn('api', 'the request failed', new Error(`refused ${TOKEN}`, { cause: new Error(`because of /v1/user?auth_token=${encodeURIComponent(TOKEN)}&x=1`) }));
      engineLog.error('api', `body {"token": "${TOKEN}"} and Authorization: Bearer ${TOKEN}`);
      engineLog.info('api', `an auth_token of another session: auth_token=someone-elses-token-123`);
    } finally {
      await engine.close();
    }
    const text = logText(profile);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(encodeURIComponent(TOKEN));
    expect(text).not.toContain('someone-elses-token-123');
    expect(text).toContain('page=2&auth_token=[redacted] failed');
    expect(text).toContain('Error: refused [redacted]');
    expect(text).toContain('caused by Error: because of /v1/user?auth_token=[redacted]&x=1');
    expect(text).toContain('body {"token": "[redacted]"} and Authorization: Bearer [redacted]');
  });

  it('rotates at 1 MiB keeping three files: the size stays bounded and the newest entries are kept', () => {
    const dir = newProfile();
    const log = new FileLog(join(dir, 'logs', 'engine.log'));
    const filler = 'x'.repeat(1000);
    for (let i = 0; i < 4_500; i++) log.write('info', 'test', `entry ${String(i).padStart(5, '0')} ${filler}`);
    log.write('warn', 'test', `an entry bigger than a whole file ${'y'.repeat(2 * DEFAULT_LOG_MAX_BYTES)}`);
    log.write('info', 'test', 'the last entry');

    expect(readdirSync(join(dir, 'logs')).sort()).toEqual(['engine.log', 'engine.log.1', 'engine.log.2']);
    const sizes = log.paths().map((path) => statSync(path).size);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(DEFAULT_LOG_MAX_BYTES);
    expect(readFileSync(log.file, 'utf8')).toMatch(/the last entry\n$/);
    const all = log.paths().map((path) => readFileSync(path, 'utf8')).join('');
    expect(all).not.toContain('entry 00000 ');
    expect(all).toContain('entry 04499 ');
    expect(log.problem).toBeNull();
  });

  it('that cannot be written never stops the engine: said once on standard error, and shown to the window and in diagnostics', async () => {
    const profile = newProfile();
    mkdirSync(profile, { recursive: true });
    writeFileSync(join(profile, 'logs'), 'a file where the log folder should be');
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const engine = await signedInEngine(profile);
    const endpoint = createContractEndpoint(engine);
    try {
      engineLog.warn('test', 'one more entry');
      const outcome = await endpoint.handle('diagnostics.get', {});
      expect(outcome).toMatchObject({ ok: true, value: { logFile: engineLogPath(profile), logProblem: expect.stringMatching(/^The engine log cannot be written at .*engine\.log: /) } });
      const told = stderr.mock.calls.map(([text]) => String(text)).filter((text) => text.includes('engine log cannot be written'));
      expect(told).toHaveLength(1);
      expect(await endpoint.handle('settings.get', {})).toMatchObject({ ok: true });
    } finally {
      endpoint.close();
      await engine.close();
    }
    stderr.mockRestore();
    const diagnostics = await runCliCapturing(profile, ['status', '--diagnostics']);
    expect(diagnostics.code).toBe(0);
    expect(diagnostics.out).toContain(`The engine log cannot be written: ${join(profile, 'logs')} is not a folder.`);
  });

  it.skipIf(process.getuid?.() === 0)('in a folder it may not write to: the same (checked where permissions hold)', async () => {
    const profile = newProfile();
    mkdirSync(join(profile, 'logs'), { recursive: true });
    chmodSync(join(profile, 'logs'), 0o500);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const engine = await signedInEngine(profile);
    try {
      expect(engineLog.problem).toMatch(/EACCES/);
    } finally {
      await engine.close();
      stderr.mockRestore();
      chmodSync(join(profile, 'logs'), 0o700);
    }
  });
});

describe('design-sync status --diagnostics', () => {
  it('prints the log\'s path, the profile\'s files, the versions and the log\'s last 20 lines, without the token', async () => {
    const profile = newProfile();
    await (await signedInEngine(profile)).close();
    writeFileSync(join(profile, 'token'), `${TOKEN}\n`, { mode: 0o600 });
    const log = new FileLog(engineLogPath(profile));
    for (let i = 0; i < 30; i++) log.write('info', 'test', `entry ${i}`);
    // A line that somehow holds the token (written by an older version, by hand…) is still not printed with it.
    appendFileSync(engineLogPath(profile), `2026-01-01T00:00:00.000Z WARN  old: the token was ${TOKEN}\n`);

    const { code, out, err } = await runCliCapturing(profile, ['status', '--diagnostics']);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toContain(`Engine log: ${engineLogPath(profile)}\n`);
    expect(out).toContain(`Profile: ${profile}\n`);
    expect(out).toContain(`  token file: ${join(profile, 'token')} (present)`);
    expect(out).toMatch(new RegExp(`  cache database: ${join(profile, 'cache.sqlite')} \\([\\d.,]+ (B|KB|MB), schema version \\d+\\)`));
    expect(out).toMatch(new RegExp(`  sync database: ${join(profile, 'sync.sqlite')} \\([\\d.,]+ (B|KB|MB), schema version \\d+\\)`));
    expect(out).toMatch(/^Versions: design-sync \d+\.\d+\.\d+, Node \d+\.\d+\.\d+, SQLite 3\.\d+\.\d+, \w+ \w+$/m);
    const tail = out.slice(out.indexOf('Last 20 lines of the engine log:')).split('\n').slice(1);
    expect(tail).toHaveLength(20);
    expect(tail[0]).toMatch(/INFO  test: entry 11$/);
    expect(tail[18]).toMatch(/INFO  test: entry 29$/);
    expect(tail[19]).toBe('  2026-01-01T00:00:00.000Z WARN  old: the token was [redacted]');
    expect(out).not.toContain(TOKEN);
  });

  it('works on a profile whose databases cannot be opened, and opens none of them', async () => {
    const profile = newProfile();
    await (await signedInEngine(profile)).close();
    writeFileSync(join(profile, 'sync.sqlite'), 'garbage');
    const before = readdirSync(profile).sort();
    const { code, out } = await runCliCapturing(profile, ['status', '--diagnostics']);
    expect(code).toBe(0);
    expect(out).toContain(`  sync database: ${join(profile, 'sync.sqlite')} (7 B; not a SQLite database)`);
    expect(readdirSync(profile).sort()).toEqual(before);
    expect(existsSync(join(profile, 'sync.sqlite-wal'))).toBe(false);
  });
});

describe('the log\'s place among the engine\'s layers', () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const problems = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
  };

  it.each(['sqlite', 'api', 'profile', 'settings', 'authorization', 'cache', 'sync-state', 'queue', 'sync', 'runtime', 'contract'])('engine/%s may report to it', async (layer) => {
    expect(await problems(`electron/engine/${layer}/x.ts`, "import { engineLog } from '../log/engine-log';\nexport const x = engineLog;")).toEqual([]);
  });

  it('it imports no other layer of the engine', async () => {
    expect((await problems('electron/engine/log/x.ts', "import { openSqlite } from '../sqlite/open-sqlite';\nexport const x = openSqlite;")).join('\n'))
      .toMatch(/import-x\/no-restricted-paths.*inner layers/);
  });
});
