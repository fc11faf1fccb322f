import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../electron/engine/api/service-client';
import { ATTRIBUTION_UNAVAILABLE } from '../../electron/engine/cache/attribution';
import { openDesignCache } from '../../electron/engine/cache/design-cache';
import { deleteDesigns, upsertDesigns } from '../../electron/engine/cache/design-writes';
import { pullDesigns } from '../../electron/engine/cache/pull';
import { profilePaths } from '../../electron/engine/profile/profile';
import { runCliCapturing, type CliRun } from '../support/cli';
import { startTestService, type TestService } from '../../harness/local-service';
import { listFormDesign, tempDir } from './cache/cache-fixtures';

const FIXTURES = join(import.meta.dirname, '../fixtures/images');

let service: TestService;
let profile: string;
let gearSlug: string;

async function cli(...argv: string[]): Promise<CliRun> {
  return runCliCapturing(profile, argv);
}

beforeAll(async () => {
  service = await startTestService();
  const { token } = service.addUser('maker');
  const api = new ServiceClient({ baseUrl: service.url, token: () => token, retry: { retries: 1, minDelayMs: 5, maxDelayMs: 10 } });
  const gear = await api.createDesign({ name: 'Gear', excerpt: 'A spur gear', license: 'ccbysa', description: '<p>Twenty <em>teeth</em></p>' });
  await api.uploadImage(gear.id, { path: join(FIXTURES, 'jpg-sample.jpg') });
  await api.uploadDocument(gear.id, { path: join(FIXTURES, 'png-sample.png'), fileName: 'gear.stl' });
  await api.publishDesign(gear.id);
  gearSlug = gear.slug;
  const free = await api.createDesign({ name: 'Gear rack', excerpt: 'Public domain', license: 'cc0' });
  await api.publishDesign(free.id);
  profile = tempDir('cli-browse');
});

afterAll(async () => {
  await service.stop().catch(() => {});
  rmSync(profile, { recursive: true, force: true });
});

describe('design-sync pull, search and show', () => {
  it('pull --json caches the listing without a sign-in and says own designs were skipped', async () => {
    const { code, out } = await cli('--service', service.url, 'pull', '--json');
    expect(code).toBe(0);
    const summary = JSON.parse(out);
    expect(summary.designs).toMatchObject({ inserted: 2, updated: 0, unchanged: 0, removed: 0 });
    expect(summary.ownDesigns).toBeNull();
    expect(summary.files.downloaded).toBe(2);
    expect(summary.warnings.join('\n')).toMatch(/Not signed in/);

    const again = await cli('pull');
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/published designs\s+0\s+0\s+2\s+0/);
    expect(again.out).toMatch(/files: 0 downloaded/);
  });

  it('search finds designs in the cache by prefix, offline by default', async () => {
    const { code, out } = await cli('search', 'gea', '--json');
    expect(code).toBe(0);
    const answer = JSON.parse(out);
    expect(answer.source).toBe('offline');
    expect(answer.items.map((d: { name: string }) => d.name)).toEqual(['Gear', 'Gear rack']);
    expect((await cli('search', 'teeth')).out).toMatch(/Gear — maker \(ccbysa\)/);
    expect((await cli('search', 'NEAR(', '"')).out).toBe('No designs found.');
  });

  it('show prints license, attribution, page link and age, and no link to 3D files', async () => {
    const human = await cli('show', gearSlug);
    expect(human.code).toBe(0);
    expect(human.out).toContain('“Gear” by maker, licensed Creative Commons Attribution-ShareAlike');
    expect(human.out).toContain(`page: ${service.url}/designs/${gearSlug}`);
    expect(human.out).toMatch(/cached just now/);
    expect(human.out).toMatch(/thumbnail: .*files/);
    expect(human.out).not.toMatch(/uploads\/document|documents_zip|\.stl/);

    const json = JSON.parse((await cli('show', gearSlug, '--json')).out);
    expect(json).toMatchObject({
      name: 'Gear', license: { code: 'ccbysa', attributionRequired: true }, age: 'just now',
      attribution: { required: true, unavailable: false, text: '“Gear” by maker, licensed Creative Commons Attribution-ShareAlike' },
    });
    expect(json.ageMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(json)).not.toMatch(/uploads\/document|documents_zip/);

    const free = await cli('show', 'gear-rack');
    expect(free.out).not.toContain('“Gear rack” by');
  });

  it('show of a design whose license needs attribution but whose author is unknown says so, never shows it as free', async () => {
    const cache = openDesignCache(profilePaths(profile));
    try {
      upsertDesigns(cache.db, [listFormDesign({ id: 990_001, name: 'Orphan', slug: 'orphan', license: 'ccby', user: undefined, user_id: 4242 })], 'list', Date.now(), { inListing: true });
    } finally {
      cache.close();
    }
    const human = await cli('show', 'orphan');
    expect(human.out).toContain(ATTRIBUTION_UNAVAILABLE);
    expect(JSON.parse((await cli('show', 'orphan', '--json')).out).attribution).toEqual({ required: true, text: null, unavailable: true });
  });

  it('show of a design not in the cache fails with a hint to pull', async () => {
    const { code, err } = await cli('show', 'no-such-design');
    expect(code).toBe(1);
    expect(err).toMatch(/not in the cache.*design-sync pull/);
  });

  it('search says how many cached designs it could not see yet (a pull stopped before their search rows); pull indexes them', async () => {
    const cache = openDesignCache(profilePaths(profile));
    try {
      // What the engine's pull of the catalogue leaves when the process ends before the search index is filled behind it.
      const cached = (cache.db.prepare('SELECT id FROM designs').all() as { id: number }[]).map((row) => row.id);
      deleteDesigns(cache.db, cached);
      const summary = await pullDesigns(new ServiceClient({ baseUrl: service.url, token: () => null }), cache.db, cache.files, { searchRows: 'behind' });
      expect(summary.designs.inserted).toBe(2);
    } finally {
      cache.close();
    }
    const before = await cli('search', 'gear');
    expect(before.out).toBe('No designs found.');
    expect(before.err).toMatch(/2 cached designs are not indexed for search yet, so not searched: .*`design-sync pull` does it/);

    expect((await cli('pull')).code).toBe(0);
    const after = await cli('search', 'gear');
    expect(after.out).toMatch(/Gear — maker[\s\S]*Gear rack — maker/);
    expect(after.err).toBe('');
  });

  it('search --online asks the service; with the service stopped it shows the cache\'s results, says why, and exits 1', async () => {
    const online = JSON.parse((await cli('search', 'gear', '--online', '--json')).out);
    expect(online.source).toBe('online');
    expect(online.items).toHaveLength(2);

    await service.stop();
    const offline = await cli('search', 'gear', '--online', '--json');
    expect(offline.code).toBe(1);
    expect(JSON.parse(offline.out).source).toBe('offline');
    expect(offline.err).toMatch(/^The online search failed: The service at [^ ]+ cannot be reached; .*\. These results come from the cache\.$/);
    expect((await cli('show', gearSlug)).out).toMatch(/cached just now/);
  });
});
