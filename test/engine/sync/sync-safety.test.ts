import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { Session } from '../../../electron/engine/authorization/session';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { startTestService, type TestService } from '../../support/local-service';
import { clientFor, makeComputer, pending, sendQueue, type Computer } from './sync-fixtures';

let service: TestService;
const computers: Computer[] = [];
let users = 0;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});
afterEach(async () => {
  for (const computer of computers.splice(0)) await computer.dispose();
});

async function syncedFolder(files: number, options: Parameters<typeof makeComputer>[2] = {}) {
  const { token } = service.addUser(`safe${++users}`);
  const api = clientFor(service.url, token);
  const design = await api.createDesign({ name: 'Bracket', excerpt: 'A bracket', license: 'cc0' });
  const computer = makeComputer(service.url, token, options);
  computers.push(computer);
  await computer.engine.syncOnce({ settle: 'wait' });
  const folder = computer.engine.folders.ofDesign(design.id)!.folder;
  const dir = join(computer.rootPath, folder);
  for (let i = 0; i < files; i++) writeFileSync(join(dir, `part-${i}.stl`), `part ${i}`);
  await computer.engine.syncOnce({ settle: 'wait' });
  await sendQueue(computer);
  return { computer, api, design, folder, dir, token };
}

const deletes = (computer: Computer) => pending(computer).filter((item) => item.kind === 'delete-remote');

describe('what must never happen', () => {
  it('a vanished sync folder stops sync with a clear message, proposes no deletion, and resumes when it is back', async () => {
    const { computer, dir } = await syncedFolder(3);
    const aside = `${computer.rootPath}-moved`;
    renameSync(computer.rootPath, aside);
    const result = await computer.engine.syncOnce({ settle: 'wait' });
    expect(result.stopped).toBe(`The sync folder ${computer.rootPath} is missing (disk unmounted or folder moved?). Sync is stopped; nothing was changed on the service.`);
    expect(computer.engine.queue.status()).toMatchObject({ state: 'stopped', reason: result.stopped });
    expect(deletes(computer)).toEqual([]);

    // An empty folder at the same path (an empty mount point) is not the sync folder either.
    mkdirSync(computer.rootPath);
    expect((await computer.engine.syncOnce()).stopped).toMatch(/no longer holds its marker/);
    expect(deletes(computer)).toEqual([]);

    rmSync(computer.rootPath, { recursive: true });
    renameSync(aside, computer.rootPath);
    const back = await computer.engine.syncOnce({ settle: 'wait' });
    expect(back.stopped).toBeNull();
    expect(computer.engine.queue.status().state).toBe('idle');
    expect(computer.events.some((e) => e.type === 'resumed')).toBe(true);
    expect(pending(computer)).toEqual([]);
    expect(dir).toContain(computer.rootPath);
  });

  it('many files disappearing at once stops sync instead of proposing their deletion', async () => {
    const { computer, dir } = await syncedFolder(8);
    for (let i = 0; i < 6; i++) renameSync(join(dir, `part-${i}.stl`), join(computer.rootPath, `..`, `part-${i}.stl`));
    const result = await computer.engine.syncOnce({ settle: 'wait' });
    expect(result.stopped).toMatch(/^Many files disappeared at once .* \(6 of 8 synced files/);
    expect(result.stopped).toMatch(/nothing was changed on the service/);
    expect(deletes(computer)).toEqual([]);
    // The person meant it.
    const meant = await computer.engine.syncOnce({ settle: 'wait', allowManyMissing: true });
    expect(meant.stopped).toBeNull();
    expect(deletes(computer)).toHaveLength(6);
    expect(deletes(computer).every((item) => item.state === 'attention')).toBe(true);
  });

  it('a declined deletion is not proposed again: the file comes back from the service', async () => {
    const { computer, dir, folder } = await syncedFolder(2);
    rmSync(join(dir, 'part-0.stl'));
    await computer.engine.syncOnce({ settle: 'wait' });
    const [proposal] = deletes(computer);
    computer.engine.queue.cancel(proposal!.id);
    const restored = await computer.engine.syncOnce({ settle: 'wait' });
    expect(restored.scan!.enqueued).toBe(0);
    expect(deletes(computer)).toEqual([]);
    expect(computer.engine.base.get(`${folder}/part-0.stl`)).not.toBeNull();
    expect(restored.remote!.downloaded).toBe(1);
  });

  it('uploads a file being written once, only after it settled, with its final content (watching)', async () => {
    const { computer, dir, folder } = await syncedFolder(1, { settleMs: 250, debounceMs: 50 });
    await computer.engine.start({ watch: true });
    const path = `${folder}/growing.stl`;
    const target = join(dir, 'growing.stl');
    writeFileSync(target, 'start\n');
    let lastWrite = Date.now();
    for (let i = 0; i < 10; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      appendFileSync(target, `line ${i}\n`);
      lastWrite = Date.now();
    }
    const enqueuedAt = await new Promise<number>((resolve) => {
      const check = () => {
        if (computer.events.some((e) => e.type === 'enqueued' && e.item.path === path)) resolve(Date.now());
        else setTimeout(check, 20);
      };
      check();
    });
    await computer.engine.idle();
    await new Promise((resolve) => setTimeout(resolve, 400));
    await computer.engine.idle();
    const enqueued = computer.events.filter((e) => e.type === 'enqueued' && e.item.path === path);
    expect(enqueued).toHaveLength(1);
    expect(enqueuedAt - lastWrite).toBeGreaterThanOrEqual(250);
    const item = pending(computer).find((i) => i.path === path)!;
    expect(item.fileSize).toBe(6 + 10 * 7);
    expect(computer.events.some((e) => e.type === 'settled' && e.path === path)).toBe(true);
  });

  it('watcher failures (inotify limit) and a lost sign-in are shown, never silent', async () => {
    const { computer, dir, folder, token } = await syncedFolder(1);
    await computer.engine.start({ watch: true });
    const watcher = (computer.engine as unknown as { watcher: NodeJS.EventEmitter }).watcher;
    watcher.emit('error', Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' }));
    expect(computer.engine.watcherWarning).toMatch(/limit on watched files was reached \(ENOSPC\).*fs\.inotify\.max_user_watches/);
    expect(computer.engine.queue.status().reason).toMatch(/max_user_watches/);
    expect(computer.events.some((e) => e.type === 'warning' && /max_user_watches/.test(e.message))).toBe(true);
    await computer.engine.stop();

    // Sign-in lost: the service is not read for sync (its answer could look like deletions), local changes still queue.
    const session = new Session(new MemoryTokenStore(token));
    await session.load();
    const client = new ServiceClient(session.transportOptions({ baseUrl: service.url }));
    const { SyncEngine } = await import('../../../electron/engine/sync/sync-engine');
    const engine = new SyncEngine({ db: computer.db, client, session, settleMs: 100, trash: 'folder' });
    const events: string[] = [];
    engine.on('event', (e) => { if (e.type === 'warning') events.push(e.message); });
    session.noticeProblem({ kind: 'token-rejected', message: 'revoked' });
    writeFileSync(join(dir, 'while-signed-out.stl'), 'x');
    const first = await engine.start({ watch: false, firstPass: { settle: 'wait' } });
    expect(first.remoteSkipped).toMatch(/sign in again/);
    expect(first.remote).toBeNull();
    expect(engine.queue.status()).toMatchObject({ state: 'waiting', reason: expect.stringMatching(/sign in again/) });
    expect(events.join('\n')).toMatch(/no longer accepts your sign-in/);
    expect(pending(computer).map((i) => i.path)).toEqual([`${folder}/while-signed-out.stl`]);
    await engine.stop();
  });
});
