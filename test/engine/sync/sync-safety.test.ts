import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { Session } from '../../../electron/engine/authorization/session';
import { QueueRunner, queueClient } from '../../../electron/engine/queue/queue-runner';
import type { SyncEvent } from '../../../electron/engine/sync/sync-context';
import { assemble, pending, send, type Computer, type ComputerOptions } from '../../../harness/sync-computers';
import { useSyncService } from '../../../harness/sync-service';

const sync = useSyncService({ userPrefix: 'safe' });

const syncedBracket = (files: number, options: ComputerOptions = {}) => sync.syncedFolder(files, options);

const deletes = (computer: Computer) => pending(computer).filter((item) => item.kind === 'delete-remote');

describe('what must never happen', () => {
  it('a vanished sync folder stops sync with a clear message, proposes no deletion, and resumes when it is back', async () => {
    const { computer, dir, api, design, folder } = await syncedBracket(3);
    const { runner, engine } = computer;
    // One change queued, not sent yet, when the folder goes away.
    writeFileSync(join(dir, 'late.stl'), 'late');
    await engine.syncOnce({ settle: 'wait' });
    const late = pending(computer).find((item) => item.path === `${folder}/late.stl`)!;
    expect(late).toMatchObject({ kind: 'upload', state: 'waiting' });
    const missingReason = `The sync folder ${computer.rootPath} is missing (disk unmounted or folder moved?). Sync is stopped; nothing was changed on the service.`;

    const aside = `${computer.rootPath}-moved`;
    renameSync(computer.rootPath, aside);
    // The runner gets there first: its file is gone with the folder, which is not a removed file. The item waits
    // and the runner holds the whole queue (sync stopped) instead of cancelling it.
    runner.start();
    await runner.waitUntil(() => engine.queue.status().state === 'stopped', { timeoutMs: 10_000 });
    await runner.waitForIdle({ timeoutMs: 10_000 });
    expect(engine.queue.get(late.id)).toMatchObject({ state: 'waiting', reason: missingReason });
    expect(engine.queue.status().reason).toBe(missingReason);

    const result = await engine.syncOnce({ settle: 'wait' });
    expect(result.stopped).toBe(missingReason);
    expect(engine.queue.status()).toMatchObject({ state: 'stopped', reason: result.stopped });
    expect(deletes(computer)).toEqual([]);
    // Stopped: the runner is idle with the item still waiting; nothing was sent or deleted on the service.
    await runner.waitForIdle({ timeoutMs: 10_000 });
    expect(engine.queue.get(late.id)!.state).toBe('waiting');
    expect((await api.listDocuments(design.id)).map((d) => d.name).sort()).toEqual(['part-0.stl', 'part-1.stl', 'part-2.stl']);

    // An empty folder at the same path (an empty mount point) is not the sync folder either.
    mkdirSync(computer.rootPath);
    expect((await engine.syncOnce()).stopped).toMatch(/no longer holds its marker/);
    expect(deletes(computer)).toEqual([]);
    await runner.waitForIdle({ timeoutMs: 10_000 });
    expect(engine.queue.get(late.id)!.state).toBe('waiting');
    await runner.stop();

    rmSync(computer.rootPath, { recursive: true });
    renameSync(aside, computer.rootPath);
    const back = await engine.syncOnce({ settle: 'wait' });
    expect(back.stopped).toBeNull();
    expect(engine.queue.status().state).toBe('idle');
    expect(computer.events.some((e) => e.type === 'resumed')).toBe(true);
    // Back: what waited is sent, once; nothing else.
    expect((await send(computer)).map((item) => item.path)).toEqual([`${folder}/late.stl`]);
    expect(pending(computer)).toEqual([]);
    expect((await api.listDocuments(design.id)).map((d) => d.name).sort()).toEqual(['late.stl', 'part-0.stl', 'part-1.stl', 'part-2.stl']);
    expect(dir).toContain(computer.rootPath);
  });

  it('many files disappearing at once stops sync instead of proposing their deletion', async () => {
    const { computer, dir } = await syncedBracket(8);
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
    const { computer, dir, folder } = await syncedBracket(2);
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
    const { computer, dir, folder, api, design } = await syncedBracket(1, { settleMs: 250, tuning: { debounceMs: 50 } });
    const { engine, runner } = computer;
    // As in the app: the watcher and the runner both run, the runner sends whatever is queued at once.
    await engine.start({ watch: true });
    runner.start();
    const path = `${folder}/growing.stl`;
    const target = join(dir, 'growing.stl');
    const enqueued = new Promise<number>((resolve) => {
      const listener = (e: SyncEvent) => {
        if (e.type !== 'enqueued' || e.item.path !== path) return;
        engine.off('event', listener);
        resolve(Date.now());
      };
      engine.on('event', listener);
    });
    writeFileSync(target, 'start\n');
    let lastWrite = Date.now();
    for (let i = 0; i < 10; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      appendFileSync(target, `line ${i}\n`);
      lastWrite = Date.now();
    }
    const enqueuedAt = await enqueued;
    await engine.idle();
    await runner.waitForIdle({ timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    await engine.idle();
    await runner.waitForIdle({ timeoutMs: 10_000 });
    expect(computer.events.filter((e) => e.type === 'enqueued' && e.item.path === path)).toHaveLength(1);
    expect(enqueuedAt - lastWrite).toBeGreaterThanOrEqual(250);
    const items = engine.queue.list().filter((i) => i.path === path);
    expect(items).toHaveLength(1);
    expect(items[0]!.fileSize).toBe(6 + 10 * 7);
    expect(items[0]!.state).toBe('done');
    expect(computer.events.some((e) => e.type === 'settled' && e.path === path)).toBe(true);
    // Sent once, with the final content.
    const final = readFileSync(target);
    const sent = (await api.listDocuments(design.id)).filter((d) => d.name === 'growing.stl');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.modelhash).toBe(createHash('sha1').update(final).digest('hex'));
    expect(engine.base.get(path)).toMatchObject({ size: final.length, remoteId: sent[0]!.id });
  });

  it('watcher failures (inotify limit) and a lost sign-in are shown, never silent', async () => {
    const { computer, dir, folder, token } = await syncedBracket(1);
    await computer.engine.start({ watch: true });
    const watcher = (computer.engine as unknown as { folderWatch: { watcher: NodeJS.EventEmitter } }).folderWatch.watcher;
    watcher.emit('error', Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' }));
    expect(computer.engine.watcherWarning).toMatch(/limit on watched files was reached \(ENOSPC\).*fs\.inotify\.max_user_watches/);
    expect(computer.engine.folderSide).toMatchObject({ phase: 'idle', watcherWarning: expect.stringMatching(/max_user_watches/) as string });
    expect(computer.events.some((e) => e.type === 'warning' && /max_user_watches/.test(e.message))).toBe(true);
    await computer.engine.stop();

    // Sign-in lost: the service is not read for sync (its answer could look like deletions), local changes still queue.
    const session = new Session(new MemoryTokenStore(token));
    await session.load();
    const { sync: engine } = assemble({ url: sync.service.url, db: computer.db, cache: computer.cache, session, settleMs: 100 });
    const events: string[] = [];
    engine.on('event', (e) => { if (e.type === 'warning') events.push(e.message); });
    session.noticeProblem({ kind: 'token-rejected', message: 'revoked' });
    writeFileSync(join(dir, 'while-signed-out.stl'), 'x');
    const first = await engine.start({ watch: false, firstPass: { settle: 'wait' } });
    expect(first.remoteSkipped?.text).toMatch(/sign in again/);
    expect(first.remote).toBeNull();
    expect(engine.folderSide).toMatchObject({ remoteProblem: 'sign-in' });
    expect(events.join('\n')).toMatch(/no longer accepts your sign-in/);
    expect(pending(computer).map((i) => i.path)).toEqual([`${folder}/while-signed-out.stl`]);
    // The runner of that session sends nothing either: it waits for a sign-in, and says so.
    const runner = new QueueRunner({ store: engine.queue, session, client: queueClient(session, sync.service.url), settleMs: 100 });
    runner.start();
    try {
      await runner.waitUntil(() => runner.blockedBy?.kind === 'sign-in', { timeoutMs: 10_000 });
      expect(pending(computer).map((i) => [i.path, i.state])).toEqual([[`${folder}/while-signed-out.stl`, 'waiting']]);
      expect(engine.queue.recentActivity(5).map((a) => a.message).join('\n')).toMatch(/[Ss]ign in again/);
    } finally {
      await runner.stop();
    }
    await engine.stop();
  });
});
