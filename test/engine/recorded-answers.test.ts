import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profilePaths } from '../../electron/engine/profile/profile';
import { profileDir, removeTree, runCli } from '../support/cli-child';
import { startRecordedService, type RecordedService } from '../support/recorded-service';

/**
 * The engine against a replay of the live service's answers recorded in December 2016 (test/fixtures/recorded):
 * absolute file addresses on a storage host, X-Pagination-* headers that always promise more, free-text
 * attribution, descriptions with \r\n, screen names with spaces, a token the service never checked.
 */

const MADE_UP_TOKEN = 'foobar0123456789madeup';

let service: RecordedService;
let profile: string;

const cli = (...argv: string[]) => runCli(profile, argv);
const searchIds = async (...words: string[]) => {
  const run = await cli('search', '--json', '--limit', '100', ...words);
  expect(run).toMatchObject({ code: 0 });
  return (JSON.parse(run.out) as { items: { id: number }[] }).items.map((design) => design.id);
};

beforeAll(async () => {
  service = await startRecordedService();
  profile = profileDir('recorded-answers');
  const login = await runCli(profile, ['--service', service.url, 'login', '--with-token'], { stdin: MADE_UP_TOKEN });
  expect(login).toMatchObject({ code: 0 });
  const pull = await cli('pull');
  expect(pull).toMatchObject({ code: 0 });
}, 60_000);

afterAll(async () => {
  await service?.stop();
  if (profile) removeTree(profile);
});

describe('the recorded answers of the live service', () => {
  it('pull caches every recorded design', () => {
    const recorded = [...service.designs().keys()].sort();
    expect(recorded).toHaveLength(38);
    const db = new Database(profilePaths(profile).cacheDatabase, { readonly: true });
    try {
      expect((db.prepare('SELECT id FROM designs ORDER BY id').all() as { id: number }[]).map((row) => row.id)).toEqual(recorded);
    } finally {
      db.close();
    }
  });

  it('shows the service\'s attribution text as what the design is based on, as plain text', async () => {
    const shown = await cli('show', '14597');
    expect(shown.out).toContain('Based on http://www.thingiverse.com/thing:102844');
    const json = JSON.parse((await cli('show', '14597', '--json')).out) as { basedOn: string | null };
    expect(json.basedOn).toBe('http://www.thingiverse.com/thing:102844');
    expect((await cli('show', '14712')).out).not.toContain('Based on');
  });

  it('prints a plain-text description as paragraphs, its line breaks kept and no carriage return left', async () => {
    const shown = (await cli('show', '14703')).out;
    expect(shown).toContain('from the first season of Star Wars: Rebels!\n\nOne side of the assembly');
    expect(shown).toContain('Be sure to print:\n2 Emitter Shrouds\n2 Lower Emitters');
    expect(shown).not.toContain('\r');
  });

  it('stops the walk at the first empty page, whatever its headers promise', () => {
    const pages = service.requests
      .map((request) => new URL(request.url, service.url))
      .filter((url) => url.pathname === '/v1/designs')
      .map((url) => Number(url.searchParams.get('page') ?? '1'));
    expect(pages).toContain(4);
    // Pages 5 and 6, which the heads of pages 3 and 4 promised (and the total they give allows), may have been asked
    // for ahead; they were cancelled once page 4 turned out empty.
    expect(Math.max(...pages)).toBeLessThanOrEqual(6);
  });

  it('finds recorded designs by their tags and by their attribution text', async () => {
    expect(await searchIds('NERF')).toContain(14712);
    expect(await searchIds('stryfe')).toEqual([14712]);
    expect(await searchIds('3dpx')).toEqual([14695]);
  });

  it('fetches the covers from the storage host, never sending it the token', () => {
    expect(service.storageRequests.length).toBeGreaterThan(0);
    for (const request of service.storageRequests) {
      expect(request.url).not.toContain(MADE_UP_TOKEN);
      expect(request.url).not.toContain('auth_token');
      expect(JSON.stringify(request.headers)).not.toContain(MADE_UP_TOKEN);
    }
    expect(service.requests.some((request) => request.url.includes(`auth_token=${MADE_UP_TOKEN}`))).toBe(true);
  });
});
