import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCapturing } from '../support/cli';
import { profileDir, removeTree, runCli, startCli } from '../support/cli-child';
import { startTestService, type TestService } from '../../harness/local-service';
import { until } from '../../harness/until';
import { tempDir } from './cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';

let service: TestService;
const dirs: string[] = [];

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
});
afterAll(async () => {
  await service.stop();
  for (const dir of dirs) removeTree(dir);
});

describe('design-sync status while files are uploaded by another process', () => {
  it('says which file of the burst is being sent and how many bytes of how many', async () => {
    const { token } = service.addUser('progress-watcher');
    const api = clientFor(service.url, token);
    const design = await api.createDesign({ name: 'Gearbox', excerpt: 'Gears', license: 'cc0' });
    const profile = profileDir('progress-profile');
    const parent = tempDir('progress-root');
    dirs.push(profile, parent);
    const root = join(parent, 'Designs');
    expect((await runCliCapturing(profile, ['--service', service.url, 'login', '--with-token'], token)).code).toBe(0);
    const linked = await runCli(profile, ['sync', root, '--accept-content-policy', '--settle-ms', '100']);
    expect(linked.code, linked.err).toBe(0);
    expect(existsSync(join(root, 'gearbox'))).toBe(true);

    // Three files, each upload held by the service for a while: the burst takes seconds.
    expect((await service.request('POST', '/__admin/faults', { json: { kind: 'latency', ms: 3_000, method: 'POST', path: '/documents$' } })).status).toBe(201);
    for (const name of ['a', 'b', 'c']) writeFileSync(join(root, 'gearbox', `${name}.stl`), randomBytes(256 * 1024));
    const syncing = startCli(profile, ['sync', root, '--settle-ms', '100']);
    try {
      let printed = '';
      await until('status to say the burst\'s progress', async () => {
        printed = (await runCli(profile, ['status'])).out;
        return /^Uploading [123] of 3 · [\d.]+ (B|KB|MB) of [\d.]+ (KB|MB)/m.test(printed);
      }, 30_000);
      // Under the headline, in the words the window's header and the tray use.
      expect(printed).toMatch(/^Sync: Syncing.*\nUploading [123] of 3 · /m);
    } finally {
      await syncing.exited;
    }
    expect((await api.listDocuments(design.id)).map((document) => document.name).sort()).toEqual(['a.stl', 'b.stl', 'c.stl']);
    // Done: nothing is said about uploads any more.
    expect((await runCli(profile, ['status'])).out).not.toMatch(/^Uploading/m);
  }, 90_000);
});
