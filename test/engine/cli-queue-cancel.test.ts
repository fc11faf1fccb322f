import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCapturing } from '../support/cli';
import { profileDir, RAW_OUTPUT, removeTree, runCli } from '../support/cli-child';
import { startTestService, type TestService } from '../../harness/local-service';
import { tempDir } from './cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';

let service: TestService;
const dirs: string[] = [];

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
  for (const dir of dirs) removeTree(dir);
});

interface ListedItem {
  id: number;
  kind: string;
  path: string | null;
  state: string;
  attention: string | null;
}

describe('design-sync queue cancel', () => {
  it('turning down a deletion brings the file kept on the service back into the folder at once, as the window does', async () => {
    const { token } = service.addUser('canceller');
    const api = clientFor(service.url, token);
    const design = await api.createDesign({ name: 'Clamp', excerpt: 'A clamp', license: 'cc0' });
    const source = join(tempDir('cancel-source'), 'clamp.stl');
    writeFileSync(source, 'solid clamp\nendsolid clamp\n');
    await api.uploadDocument(design.id, { path: source });
    const profile = profileDir('cancel-profile');
    const parent = tempDir('cancel-root');
    dirs.push(profile, parent, join(source, '..'));
    const root = join(parent, 'Designs');
    expect((await runCliCapturing(profile, ['--service', service.url, 'login', '--with-token'], token)).code).toBe(0);
    const synced = await runCli(profile, ['sync', root, '--accept-content-policy', '--settle-ms', '100']);
    expect(synced.code, synced.err).toBe(0);
    const path = join(root, 'clamp', 'clamp.stl');
    expect(existsSync(path)).toBe(true);

    rmSync(path);
    const deleted = await runCli(profile, ['sync', root, '--settle-ms', '100']);
    expect(deleted.code).toBe(1);
    const items = JSON.parse((await runCli(profile, ['queue', 'list', '--json'])).out) as ListedItem[];
    const deletion = items.find((item) => item.kind === 'delete-remote' && item.path === 'clamp/clamp.stl');
    expect(deletion).toMatchObject({ state: 'attention', attention: 'confirm-delete' });

    const cancelled = await runCli(profile, ['queue', 'cancel', String(deletion!.id)]);
    expect(cancelled.code, cancelled.err).toBe(0);
    expect(cancelled.out).toMatch(new RegExp(`Item ${deletion!.id} \\(clamp/clamp\\.stl\\) cancelled\\.`));
    expect(cancelled.out).toMatch(/brought back from the service: clamp\/clamp\.stl/);
    expect(`${cancelled.out}${cancelled.err}`).not.toMatch(RAW_OUTPUT);
    // Back when the command ends, not at the next sync.
    expect(readFileSync(path, 'utf8')).toBe('solid clamp\nendsolid clamp\n');
    expect((await api.listDocuments(design.id)).map((document) => document.name)).toEqual(['clamp.stl']);
    const after = JSON.parse((await runCli(profile, ['queue', 'list', '--json'])).out) as ListedItem[];
    expect(after).toEqual([]);
  }, 60_000);
});
