import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createContractEndpoint } from '../../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../../electron/engine/runtime/engine';
import { startService, type RunningService } from '../../../service/server/start-service';
import { startTestService, type TestService } from '../../../harness/local-service';
import { openProfile } from '../../../harness/profile';
import { until } from '../../../harness/until';
import { tempDir } from '../cache/cache-fixtures';
import { startCountingProxy } from '../../../harness/counting-proxy';
import { clientFor } from '../../../harness/sync-computers';

/**
 * Changes made on the service arrive in the folder while the engine runs in the background (as the window, the tray
 * and `design-sync sync --watch` run it), within a poll of the own designs' list; a decision takes effect at once.
 * The engine talks to the local service through a proxy that counts its requests.
 */
let service: TestService;
let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
let users = 0;
const cleanups: (() => Promise<void> | void)[] = [];
const SOURCE = join(tempDir('live-remote-sources'), 'source');

beforeAll(async () => {
  service = await startTestService();
  proxy = await startCountingProxy(service.url);
});
afterAll(async () => {
  await proxy.close();
  await service.stop();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const file = (content: string) => {
  writeFileSync(SOURCE, content);
  return { path: SOURCE };
};
const IMAGE = join(import.meta.dirname, '../../fixtures/images/png-sample.png');

/** A new user with `designs` designs, and an engine in the background on a new profile and sync folder. */
async function running(designs: string[], options: { remotePollMs: number }) {
  const { token, user } = service.addUser(`live${++users}`);
  const api = clientFor(service.url, token);
  const made = [];
  for (const name of designs) made.push(await api.createDesign({ name, excerpt: `The ${name}`, license: 'cc0' }));
  const root = join(tempDir('live-root'), 'Designs');
  const { engine, close } = await openProfile({ serviceUrl: proxy.url, settleMs: 100, remotePollMs: options.remotePollMs, token });
  cleanups.push(() => rmSync(join(root, '..'), { recursive: true, force: true }));
  cleanups.push(close);
  engine.sync.acceptContentPolicy();
  await engine.sync.chooseFolder(root);
  await engine.startBackground();
  const sync = engine.sync.syncParts().sync;
  const folders = [];
  for (const design of made) folders.push((await until(`the folder of ${design.name}`, () => sync.folders.ofDesign(design.id))).folder);
  return { api, engine, sync, root, designs: made, folders, userId: user.id };
}

const activity = (engine: Engine) => engine.queue.recentActivity(200).map((entry) => entry.message);
const contentOf = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null);

describe('changes made on the service while the engine runs', () => {
  it('a file added, replaced, renamed or deleted on the service reaches the folder within a poll', async () => {
    const { api, root, designs, folders } = await running(['Gear'], { remotePollMs: 300 });
    const [design] = designs;
    const dir = join(root, folders[0]!);

    const added = await api.uploadDocument(design!.id, file('first version'), { name: 'gear.stl' });
    await until('the added document in the folder', () => contentOf(join(dir, 'gear.stl')) === 'first version', 15_000);

    await api.updateDocument(design!.id, added.id, {}, file('second version'));
    await until('the replaced document in the folder', () => contentOf(join(dir, 'gear.stl')) === 'second version', 15_000);

    await api.updateDocument(design!.id, added.id, { name: 'spur-gear.stl' });
    await until('the renamed document in the folder', () => contentOf(join(dir, 'spur-gear.stl')) === 'second version' && !existsSync(join(dir, 'gear.stl')), 15_000);

    await api.uploadImage(design!.id, { path: IMAGE, fileName: 'photo.png' }, { name: 'photo.png' });
    await until('the added image in the folder', () => existsSync(join(dir, 'photo.png')), 15_000);

    await api.deleteDocument(design!.id, added.id);
    await until('the deleted document moved to the trash', () => !existsSync(join(dir, 'spur-gear.stl')), 15_000);
    expect(readdirSync(dir)).toEqual(['photo.png']);
    const trash = join(root, '.design-sync-trash');
    expect(readdirSync(join(trash, readdirSync(trash)[0]!))).toEqual(['spur-gear.stl']);
  });

  it('a new design and a new draft get their folders within a poll, and My designs (the cache) lists them', async () => {
    const { api, engine, sync } = await running(['Bracket'], { remotePollMs: 300 });
    const draft = await api.createDesign({ name: 'Secret draft', excerpt: 'not published', license: 'cc0' });
    const published = await api.createDesign({ name: 'Hinge', excerpt: 'a hinge', license: 'cc0' });
    await api.publishDesign(published.id);
    const draftFolder = await until('the draft\'s folder', () => sync.folders.ofDesign(draft.id), 15_000);
    await until('the published design\'s folder', () => sync.folders.ofDesign(published.id), 15_000);
    expect(draftFolder.folder).toBe('secret-draft');
    const own = engine.cache.reader.prepare('SELECT id FROM designs WHERE is_own = 1 ORDER BY id').all() as { id: number }[];
    expect(own.map((row) => row.id)).toEqual(expect.arrayContaining([draft.id, published.id]));
  });

  it('while nothing changes, a poll costs one request, answered 304 (not modified)', async () => {
    const { engine, userId } = await running(['Idle'], { remotePollMs: 200 });
    await until('the first catalogue pull', () => engine.catalogue.lastPullAt() !== null);
    await engine.sync.syncParts().sync.idle();
    const from = proxy.seen.length;
    const notModified = () => proxy.seen.slice(from).filter((seen) => seen.status === 304).length;
    await until('five polls answered 304', () => notModified() >= 5, 15_000);
    const idle = proxy.seen.slice(from, from + notModified());
    expect(new Set(idle.map((seen) => `${seen.method} ${seen.path} ${seen.status}`))).toEqual(new Set([`GET /v1/users/${userId}/designs 304`]));
  });
});

describe('started while the service could not be reached', () => {
  it('finds the own designs once the service is back, within a poll, not at the next rescan', async () => {
    const dataDir = tempDir('live-away-service');
    const first = await startTestService({ dataDir });
    let away: RunningService = first;
    const { token } = first.addUser('away');
    const design = await clientFor(away.url, token).createDesign({ name: 'Sprocket', excerpt: 'A sprocket', license: 'cc0' });
    const { port, url } = away;
    await away.close();
    const root = join(tempDir('live-away-root'), 'Designs');
    const { engine, close } = await openProfile({ serviceUrl: url, settleMs: 100, remotePollMs: 300, token });
    cleanups.push(() => rmSync(join(root, '..'), { recursive: true, force: true }));
    cleanups.push(close, () => away.close().catch(() => {}), () => rmSync(dataDir, { recursive: true, force: true }));
    engine.sync.acceptContentPolicy();
    await engine.sync.chooseFolder(root);
    await engine.startBackground();
    const sync = engine.sync.syncParts().sync;
    await until('the first pass done offline', () => sync.folderSide.remoteProblem === 'offline', 10_000);
    expect(sync.folders.ofDesign(design.id)).toBeNull();

    away = await startService({ dataDir, port });
    // Well before the 10-minute rescan: the connectivity probe notices the service, the next poll makes the full pass.
    // A folder is linked first, then made (sync migration 0005): the pass is done with it once it is there.
    const linked = await until('the design\'s folder', () => {
      const folder = sync.folders.ofDesign(design.id);
      return folder && existsSync(join(root, folder.folder)) ? folder : null;
    }, 20_000);
    expect(linked.designId).toBe(design.id);
  });
});

describe('a decision takes effect at once', () => {
  it('a file kept on the service ("Keep it on the service") comes back within seconds, not at the next poll', async () => {
    const { api, engine, designs, root, folders } = await running(['Clamp'], { remotePollMs: 300 });
    await api.uploadDocument(designs[0]!.id, file('clamp'), { name: 'clamp.stl' });
    const path = join(root, folders[0]!, 'clamp.stl');
    await until('the document in the folder', () => contentOf(path) === 'clamp', 15_000);
    // From now on the service is polled only once a minute: what brings the file back is the decision.
    engine.sync.syncParts().sync.watch.stop();

    rmSync(path);
    const item = await until('the deletion waiting for confirmation', () => engine.queue.list({ states: ['attention'] }).find((i) => i.kind === 'delete-remote'), 10_000);
    const endpoint = createContractEndpoint(engine);
    cleanups.push(() => endpoint.close());
    const asked = Date.now();
    expect(await endpoint.handle('queue.cancel', { target: item.id })).toMatchObject({ ok: true });
    await until('the kept file back in the folder', () => contentOf(path) === 'clamp', 5_000);
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(activity(engine).join('\n')).toMatch(/clamp\.stl was brought back from the service \(you chose to keep it there\)/);
  });

  it('"Sync now" brings the service\'s change at once, without waiting for a poll', async () => {
    const { api, engine, designs, root, folders } = await running(['Latch'], { remotePollMs: 60_000 });
    await api.uploadDocument(designs[0]!.id, file('latch'), { name: 'latch.stl' });
    const endpoint = createContractEndpoint(engine);
    cleanups.push(() => endpoint.close());
    expect(await endpoint.handle('sync.now', {})).toMatchObject({ ok: true });
    expect(contentOf(join(root, folders[0]!, 'latch.stl'))).toBe('latch');
  });
});

describe('a design deleted on the service', () => {
  it('its folder goes to the trash when nothing in it changed, and is kept with a warning when something did', async () => {
    const { api, engine, sync, root, designs, folders } = await running(['Unchanged', 'Changed here'], { remotePollMs: 300 });
    const [unchanged, changed] = designs;
    await api.uploadDocument(unchanged!.id, file('u'), { name: 'u.stl' });
    await api.uploadDocument(changed!.id, file('c'), { name: 'c.stl' });
    await until('both files in their folders', () => existsSync(join(root, folders[0]!, 'u.stl')) && existsSync(join(root, folders[1]!, 'c.stl')), 15_000);
    // Uploads held: the file added here stays a change of this computer only.
    engine.queue.setQueuePaused(true);
    writeFileSync(join(root, folders[1]!, 'notes.txt'), 'mine');
    await until('the new file queued', () => engine.queue.list({ states: ['waiting'] }).some((i) => i.path === `${folders[1]}/notes.txt`), 10_000);

    await api.deleteDesign(unchanged!.id);
    await api.deleteDesign(changed!.id);
    // The folder leaves the sync folder (on libuv's thread) before the engine's thread hears the move is done and
    // says it: what is waited for is the saying.
    const said = (design: string) => activity(engine).some((line) => line.includes(`“${design}” was deleted on the service`));
    await until('the unchanged folder moved to the trash, and said', () => !existsSync(join(root, folders[0]!)) && said('Unchanged'), 15_000);
    await until('the kept folder unlinked, and said', () => sync.folders.get(folders[1]!)?.state === 'ignored' && said('Changed here'), 15_000);

    const trash = join(root, '.design-sync-trash');
    expect(readdirSync(join(trash, readdirSync(trash)[0]!))).toEqual([folders[0]]);
    expect(readdirSync(join(root, folders[1]!)).sort()).toEqual(['c.stl', 'notes.txt']);
    const lines = activity(engine).join('\n');
    expect(lines).toMatch(new RegExp(`“Unchanged” was deleted on the service: its folder ${folders[0]} was moved to`));
    expect(lines).toMatch(new RegExp(`“Changed here” was deleted on the service, but its folder ${folders[1]} holds changes made here .*notes\\.txt.*kept`));
    // Nothing proposed as a new design, nothing left to send to a design that is gone.
    await sync.scan({ settle: 'once' });
    expect(engine.queue.list({ states: ['waiting', 'attention', 'running'] })).toEqual([]);
    expect(sync.folders.ofDesign(unchanged!.id)).toBeNull();
  });

  it('deleted in the window (own.delete), its folder is handled at once', async () => {
    const { api, engine, root, designs, folders } = await running(['Doomed'], { remotePollMs: 60_000 });
    await api.deleteDesign(designs[0]!.id);
    await engine.sync.ownDesignDeleted(designs[0]!.id);
    expect(existsSync(join(root, folders[0]!))).toBe(false);
    expect(activity(engine).join('\n')).toMatch(/“Doomed” was deleted on the service: its folder doomed was moved to/);
  });
});

describe('the first sync', () => {
  it('says in one line what it downloaded into new design folders, and reports no file as added on the service', async () => {
    const { token } = service.addUser(`live${++users}`);
    const api = clientFor(service.url, token);
    for (const [n, name] of ['Alpha', 'Beta', 'Gamma'].entries()) {
      const design = await api.createDesign({ name, excerpt: 'x', license: 'cc0' });
      for (let i = 0; i <= n; i++) await api.uploadDocument(design.id, file(`${name} ${i}`), { name: `part-${i}.stl` });
    }
    const root = join(tempDir('live-first-root'), 'Designs');
    const { engine, close } = await openProfile({ serviceUrl: service.url, settleMs: 100, token });
    cleanups.push(() => rmSync(join(root, '..'), { recursive: true, force: true }));
    cleanups.push(close);
    await engine.sync.chooseFolder(root);
    const result = await engine.sync.syncParts().sync.syncOnce({ settle: 'once' });
    expect(result.remote).toMatchObject({ downloaded: 6 });
    const lines = activity(engine);
    expect(lines).toContain('Downloaded 6 files into 3 design folders.');
    expect(lines.filter((line) => /was added on the service/.test(line))).toEqual([]);
  });
});
