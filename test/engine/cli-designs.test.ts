import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueueStore } from '../../electron/engine/queue/queue-store';
import { profilePaths } from '../../electron/engine/profile/profile';
import { openSyncDatabase } from '../../electron/engine/sync-state/sync-database';
import { tempDir } from './cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { runCliCapturing, type CliRun } from '../support/cli';
import { startTestService, type TestService } from '../../harness/local-service';

let service: TestService;
let token: string;
let profile: string;

const cli = (...argv: string[]): Promise<CliRun> => runCliCapturing(profile, argv);

/** The activity list as another process (the window, `status`) reads it. */
function activity(): string[] {
  const db = openSyncDatabase(profilePaths(profile).syncDatabase);
  try {
    return new QueueStore(db).recentActivity(20).map((entry) => entry.message);
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  service = await startTestService();
  token = service.addUser('maker').token;
  profile = tempDir('cli-designs');
  expect((await runCliCapturing(profile, ['--service', service.url, 'login', '--with-token'], token)).code).toBe(0);
}, 30_000);

afterAll(async () => {
  await service?.stop().catch(() => {});
  rmSync(profile, { recursive: true, force: true });
});

describe('design-sync designs', () => {
  it('creates a draft, edits, publishes and deletes it on the service, each said in the activity list', async () => {
    const created = await cli('designs', 'create', '--name', 'Pen holder', '--excerpt', 'Holds pens', '--license', 'cc0');
    expect(created).toMatchObject({ code: 0, err: '' });
    const id = Number(/^Created the draft (\d+)/.exec(created.out)![1]);
    const api = clientFor(service.url, token);
    expect((await api.getDesign(id)).state).not.toBe('published');

    expect((await cli('designs', 'edit', String(id), '--name', 'Pen holder v2')).out).toMatch(/^Changed: \d+ {2}Pen holder v2 {2}\[draft\]/);
    expect((await api.getDesign(id)).name).toBe('Pen holder v2');
    expect((await cli('designs', 'publish', String(id))).code).toBe(0);
    expect((await api.getDesign(id)).state).toBe('published');
    expect((await cli('designs')).out).toContain(`${id}  Pen holder v2  [published] (cc0)`);

    const unconfirmed = await cli('designs', 'delete', String(id));
    expect(unconfirmed.code).not.toBe(0);
    expect(unconfirmed.err).toContain('Nothing was deleted: deleting a design needs your confirmation');
    expect((await cli('designs', 'delete', String(id), '--yes')).out).toBe('Deleted the design “Pen holder v2” on the service.');
    await expect(api.getDesign(id)).rejects.toMatchObject({ problem: { kind: 'not-found' } });

    expect(activity()).toEqual(expect.arrayContaining([
      'You created the design “Pen holder” as a draft.',
      'You changed the design “Pen holder v2” (name).',
      'You published the design “Pen holder v2”.',
      'You deleted the design “Pen holder v2” on the service.',
    ]));
  }, 30_000);

  it('refuses a design without a summary in the service\'s own words, changing nothing', async () => {
    const refused = await cli('designs', 'create', '--name', 'No summary');
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/The design was not saved: .*(excerpt|summary)/i);
    expect((await clientFor(service.url, token).listUserDesigns('maker', { limit: 100 })).items.map((design) => design.name)).not.toContain('No summary');
  });
});
