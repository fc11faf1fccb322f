import { existsSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { CACHE_REBUILT_NOTICE, openDesignCache } from '../../../electron/engine/cache/design-cache';
import { upsertDesigns } from '../../../electron/engine/cache/design-writes';
import { createContractEndpoint } from '../../../electron/engine/contract/create-contract-endpoint';
import { profilePaths } from '../../../electron/engine/profile/profile';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { runCliCapturing } from '../../support/cli';
import { startTestService } from '../../../harness/local-service';
import { listFormDesign, tempDir } from './cache-fixtures';
import { damagePages, namesStartingWith } from './damaged-storage-fixtures';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A profile whose cache holds `count` designs named "Gear n", and a downloaded file in its file cache. */
function profileWithCache(count = 400): string {
  const profile = tempDir('damaged-cache');
  dirs.push(profile);
  const paths = profilePaths(profile);
  const cache = openDesignCache(paths);
  upsertDesigns(cache.db, Array.from({ length: count }, (_, i) => listFormDesign({ name: `Gear ${i}`, excerpt: `A spur gear ${'with teeth '.repeat(20)}` })), 'list', Date.now());
  cache.close();
  mkdirSync(join(paths.fileCache, 'ab'), { recursive: true });
  writeFileSync(join(paths.fileCache, 'ab', 'cdef'), 'an image the old index knew');
  return profile;
}

const cacheFile = (profile: string) => profilePaths(profile).cacheDatabase;
const setAside = (profile: string) => namesStartingWith(profile, 'cache.sqlite.corrupt-').filter((name) => !/-(wal|shm)$/.test(name));

async function search(profile: string) {
  const run = await runCliCapturing(profile, ['search', 'gear', '--json']);
  return { ...run, items: run.code === 0 ? (JSON.parse(run.out) as { items: unknown[] }).items : null };
}

const DAMAGE: [string, (path: string) => void][] = [
  ['garbage over the whole file', (path) => writeFileSync(path, Buffer.alloc(statSync(path).size, 0x5a))],
  ['a text file in its place', (path) => writeFileSync(path, 'these are not the designs you are looking for\n')],
  ['truncated to half its size', (path) => truncateSync(path, Math.floor(statSync(path).size / 2))],
  ['truncated inside its first page', (path) => truncateSync(path, 100)],
  ['garbage over its first page (the header and schema)', (path) => {
    const bytes = readFileSync(path);
    bytes.fill(0xa7, 0, 4096);
    writeFileSync(path, bytes);
  }],
  ['a folder in its place', (path) => {
    rmSync(path);
    mkdirSync(path);
    writeFileSync(join(path, 'something'), 'x');
  }],
];

describe('a damaged cache database', () => {
  it.each(DAMAGE)('%s: set aside, rebuilt empty, said once on standard error; the downloaded files go with it', async (_name, damage) => {
    const profile = profileWithCache();
    expect((await search(profile)).items).toHaveLength(20);
    damage(cacheFile(profile));

    const first = await search(profile);
    expect(first.code).toBe(0);
    expect(first.err).toBe(CACHE_REBUILT_NOTICE);
    expect(first.items).toEqual([]);
    expect(setAside(profile)).toHaveLength(1);
    expect(setAside(profile)[0]).toMatch(/^cache\.sqlite\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z(-\d{4})?$/);
    // The index of the downloaded files went with the old cache: nothing would ever find or evict them.
    expect(existsSync(join(profilePaths(profile).fileCache, 'ab', 'cdef'))).toBe(false);
    expect(existsSync(join(profilePaths(profile).fileCache, 'tmp'))).toBe(true);

    const second = await search(profile);
    expect(second.code).toBe(0);
    expect(second.err).toBe('');
    expect(setAside(profile)).toHaveLength(1);
  });

  it('a zero-byte file is an empty cache: opened as a new one, nothing set aside, nothing said', async () => {
    const profile = profileWithCache(5);
    truncateSync(cacheFile(profile), 0);
    const run = await search(profile);
    expect(run).toMatchObject({ code: 0, err: '', items: [] });
    expect(setAside(profile)).toEqual([]);
  });

  it('damage met while in use (pages of its tables): the command says so and fails; the next start rebuilds it', async () => {
    const profile = profileWithCache();
    damagePages(cacheFile(profile), 'all-but-schema');

    const failed = await search(profile);
    expect(failed.code).toBe(1);
    expect(failed.err).toMatch(/^The offline cache is damaged \(database disk image is malformed( — .+)?\)\. It is rebuilt the next time design-sync starts/);
    expect(setAside(profile)).toEqual([]);

    const rebuilt = await search(profile);
    expect(rebuilt).toMatchObject({ code: 0, err: CACHE_REBUILT_NOTICE, items: [] });
    expect(setAside(profile)).toHaveLength(1);
    expect((await search(profile)).err).toBe('');
  });

  it('keeps at most the two newest damaged copies (even several within one second)', async () => {
    const profile = profileWithCache(5);
    for (let round = 0; round < 4; round++) {
      writeFileSync(cacheFile(profile), `damage ${round}`);
      expect((await search(profile)).err).toBe(CACHE_REBUILT_NOTICE);
    }
    const kept = setAside(profile);
    expect(kept.map((name) => readFileSync(join(profile, name), 'utf8'))).toEqual(['damage 2', 'damage 3']);
  });

  it('a folder in its place goes aside with the WAL and shared-memory files beside it', async () => {
    const profile = profileWithCache(5);
    rmSync(cacheFile(profile));
    mkdirSync(cacheFile(profile));
    writeFileSync(`${cacheFile(profile)}-wal`, 'a WAL that belongs to no database here');
    writeFileSync(`${cacheFile(profile)}-shm`, 'its index');
    expect((await search(profile)).err).toBe(CACHE_REBUILT_NOTICE);
    const [copy] = setAside(profile);
    expect(statSync(join(profile, copy!)).isDirectory()).toBe(true);
    expect(readFileSync(join(profile, `${copy}-wal`), 'utf8')).toBe('a WAL that belongs to no database here');
    expect(readFileSync(join(profile, `${copy}-shm`), 'utf8')).toBe('its index');
    expect(statSync(cacheFile(profile)).isFile()).toBe(true);
  });

  it('a cache from a newer design-sync is refused, naming the file, and left as it is', async () => {
    const profile = profileWithCache(5);
    const db = new Database(cacheFile(profile));
    db.pragma('user_version = 999');
    db.close();
    const before = readFileSync(cacheFile(profile));

    const run = await search(profile);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`${cacheFile(profile)} has cache schema version 999, newer than this version of design-sync knows`);
    expect(run.err).toMatch(/Use the newer design-sync with this profile, or move the file aside/);
    expect(readFileSync(cacheFile(profile)).equals(before)).toBe(true);
    expect(setAside(profile)).toEqual([]);
  });

  it('the window is told too: diagnostics.get carries the notice, and a request that meets the damage says what happens', async () => {
    const profile = profileWithCache();
    writeFileSync(cacheFile(profile), 'not a database');
    const engine = await openEngine({ profileDir: profile, tokenStore: () => new MemoryTokenStore(), userAgent: 'test' });
    const endpoint = createContractEndpoint(engine);
    try {
      expect(await endpoint.handle('diagnostics.get', {})).toMatchObject({ ok: true, value: { notices: [CACHE_REBUILT_NOTICE] } });
    } finally {
      endpoint.close();
      await engine.close();
    }

    const again = profileWithCache();
    damagePages(cacheFile(again), 'all-but-schema');
    const damaged = await openEngine({ profileDir: again, tokenStore: () => new MemoryTokenStore(), userAgent: 'test' });
    const window = createContractEndpoint(damaged);
    try {
      const outcome = await window.handle('library.page', { query: 'gear' });
      expect(outcome).toMatchObject({ ok: false, problem: { kind: 'internal', message: expect.stringMatching(/^The offline cache is damaged .* rebuilt the next time design-sync starts/) } });
    } finally {
      window.close();
      await damaged.close();
    }
    const reopened = await openEngine({ profileDir: again, tokenStore: () => new MemoryTokenStore(), userAgent: 'test' });
    expect(reopened.cache.rebuilt).toMatchObject({ notice: CACHE_REBUILT_NOTICE, reason: expect.stringMatching(/malformed/) });
    await reopened.close();
  });

  it('pull after a rebuild downloads the designs again from the service', async () => {
    const service = await startTestService();
    try {
      const { token } = service.addUser('maker');
      const api = new ServiceClient({ baseUrl: service.url, token: () => token, retry: { retries: 1, minDelayMs: 5, maxDelayMs: 10 } });
      for (const name of ['Gear', 'Gear rack']) await api.publishDesign((await api.createDesign({ name, excerpt: 'A gear', license: 'cc0' })).id);
      const profile = tempDir('damaged-cache-pull');
      dirs.push(profile);
      expect((await runCliCapturing(profile, ['--service', service.url, 'pull'])).code).toBe(0);
      expect((await search(profile)).items).toHaveLength(2);

      truncateSync(cacheFile(profile), 1000);
      const pulled = await runCliCapturing(profile, ['pull', '--json']);
      expect(pulled.code).toBe(0);
      expect(pulled.err).toBe(CACHE_REBUILT_NOTICE);
      expect(JSON.parse(pulled.out).designs).toMatchObject({ inserted: 2 });
      expect((await search(profile)).items).toHaveLength(2);
    } finally {
      await service.stop();
    }
  });
});
