import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCapturing } from '../../support/cli';
import { startTestService, type TestService } from '../../../harness/local-service';
import { until } from '../../../harness/until';
import { tempDir } from '../cache/cache-fixtures';
import { escapeRegExp, startCli, type CliProcess } from '../../support/cli-child';
import { clientFor } from '../../../harness/sync-computers';

let service: TestService;
const dirs: string[] = [];
const running: CliProcess[] = [];

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  for (const run of running) await run.interrupt();
  await service.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A signed-in profile whose `design-sync sync <root> --watch` runs as a real process, its first pass done. */
async function watching(name: string) {
  const { token } = service.addUser(name);
  const api = clientFor(service.url, token);
  const design = await api.createDesign({ name: 'Hinge', excerpt: 'A hinge', license: 'cc0' });
  const profile = tempDir(`watch-${name}-profile`);
  const parent = tempDir(`watch-${name}-root`);
  dirs.push(profile, parent);
  const root = join(parent, 'Designs');
  expect((await runCliCapturing(profile, ['--service', service.url, 'login', '--with-token'], token)).code).toBe(0);
  const run = startCli(profile, ['sync', root, '--watch', '--accept-content-policy', '--settle-ms', '100']);
  running.push(run);
  await run.waitFor(/watching; Ctrl-C to stop/, { timeoutMs: 30_000 });
  const names = async () => (await api.listDocuments(design.id)).map((d) => d.name).sort();
  // The design's folder, named from its slug (unique on the service: hinge, hinge-2…).
  const folder = join(root, readdirSync(root).find((name) => !name.startsWith('.'))!);
  return { api, design, profile, root, folder, run, names };
}

async function status(profile: string) {
  const { code, out } = await runCliCapturing(profile, ['status', '--json']);
  expect(code).toBe(0);
  return JSON.parse(out) as { status: { state: string; reason: string | null; counts: Record<string, number> }; attention: { kind: string; path: string | null }[] };
}

describe('design-sync sync --watch when the sync folder goes away', () => {
  it('stops naming the folder, stays alive, and resumes by itself when the folder is moved back; a file added then is sent', async () => {
    const { profile, root, folder, run, names } = await watching('watch-moved');
    writeFileSync(join(folder, 'first.stl'), 'solid first');
    await until('first.stl on the service', async () => (await names()).includes('first.stl'));

    const aside = `${root}-moved-away`;
    renameSync(root, aside);
    await run.waitFor(new RegExp(`STOPPED: The sync folder ${escapeRegExp(root)} is missing \\(disk unmounted or folder moved\\?\\)\\. Sync is stopped; nothing was changed on the service\\.`));
    expect(run.err()).toMatch(new RegExp(`STOPPED: The sync folder ${escapeRegExp(root)} is missing`));

    // Another command sees the stop and its reason; the watching process is still there (before: exit 13, silent).
    const stopped = await status(profile);
    expect(stopped.status).toMatchObject({ state: 'stopped', reason: expect.stringContaining(root) as string });
    expect(run.child.exitCode).toBeNull();
    expect(run.child.signalCode).toBeNull();

    renameSync(aside, root);
    await run.waitFor(/sync resumed/);
    writeFileSync(join(folder, 'after.stl'), 'solid after');
    await until('after.stl on the service', async () => (await names()).includes('after.stl'));
    expect(await names()).toEqual(['after.stl', 'first.stl']);

    // Nothing in the folder was taken for deleted, nothing is waiting for a confirmation, and sync is running again.
    const resumed = await status(profile);
    expect(resumed.status.state).not.toBe('stopped');
    expect(resumed.attention).toEqual([]);
    expect(run.out()).not.toMatch(/delete-remote/);
    expect(await run.interrupt()).toBe(0);
  }, 90_000);

  it('stays stopped when the folder is deleted and made again empty (no marker): nothing proposed for deletion, nothing written in it', async () => {
    const { profile, root, folder, run, names } = await watching('watch-recreated');
    writeFileSync(join(folder, 'kept.stl'), 'solid kept');
    await until('kept.stl on the service', async () => (await names()).includes('kept.stl'));

    rmSync(root, { recursive: true });
    await run.waitFor(new RegExp(`STOPPED: The sync folder ${escapeRegExp(root)} is missing`));
    // (On the way, the folder without its marker may have been seen too: only what comes after counts.)
    const missing = run.mark();
    mkdirSync(root);
    // The engine looks at the path while stopped: an empty folder there is not the sync folder.
    await run.waitFor(new RegExp(`STOPPED: The sync folder ${escapeRegExp(root)} no longer holds its marker \\.design-sync\\.json`), { after: missing });

    const report = await status(profile);
    expect(report.status).toMatchObject({ state: 'stopped', reason: expect.stringMatching(/no longer holds its marker/) as string });
    expect(report.attention).toEqual([]);
    expect(report.status.counts.cancelled ?? 0).toBe(0);
    expect(run.out()).not.toMatch(/delete-remote|sync resumed/);
    expect(readdirSync(root)).toEqual([]);
    expect(run.child.exitCode).toBeNull();
    expect(await names()).toEqual(['kept.stl']);
    expect(await run.interrupt()).toBe(0);
  }, 90_000);
});
