import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliCapturing, type CliRun } from '../../support/cli';
import { QueueStore } from '../../../electron/engine/queue/queue-store';
import { outcomeOfProblem } from '../../../electron/engine/queue/problem-outcome';
import { said } from '../../../electron/engine/queue/said';
import { openSyncDatabase, type SyncDatabase } from '../../../electron/engine/sync-state/sync-database';
import { setSyncRoot } from './queue-fixtures';

const REPO = join(import.meta.dirname, '../../..');
let profile: string;
let db: SyncDatabase;
let store: QueueStore;

async function cli(...argv: string[]): Promise<CliRun> {
  return runCliCapturing(profile, argv);
}

beforeEach(() => {
  profile = mkdtempSync(join(tmpdir(), 'design-sync-queue-cli-'));
  db = openSyncDatabase(join(profile, 'sync.sqlite'));
  setSyncRoot(db, '/home/someone/Designs');
  store = new QueueStore(db);
});
afterEach(() => {
  db.close();
  rmSync(profile, { recursive: true, force: true });
});

function sample() {
  const uploading = store.enqueue({ kind: 'upload', path: 'Gear/big.stl', folder: 'Gear', designId: 1, fileKind: 'document' });
  store.claimNext();
  store.progress(uploading.id, 3 * 1024 * 1024, 8 * 1024 * 1024);
  const waiting = store.enqueue({ kind: 'upload', path: 'Gear/next.stl', folder: 'Gear', designId: 1, fileKind: 'document' });
  const remove = store.enqueue({ kind: 'delete-remote', path: 'Gear/old.stl', folder: 'Gear', designId: 1, fileKind: 'document', remoteId: 9, attention: { kind: 'confirm-delete', reason: 'Gear/old.stl was deleted from the folder: confirm to delete it on the service too.' } });
  const design = store.enqueue({ kind: 'create-design', folder: 'Clamp', attention: { kind: 'confirm-design', reason: 'The folder "Clamp" is not linked to a design.' } });
  const failed = store.enqueue({ kind: 'upload', path: 'Gear/bad.stl', folder: 'Gear', designId: 1, fileKind: 'document' });
  db.prepare(`UPDATE queue_items SET state = 'failed', reason = 'Gave up after 8 attempts.' WHERE id = ?`).run(failed.id);
  return { uploading: uploading.id, waiting: waiting.id, remove: remove.id, design: design.id, failed: failed.id };
}

describe('design-sync status', () => {
  it('shows the state, the folder, counts, uploads with bytes and percent, and what needs a person with the command to run', async () => {
    const ids = sample();
    const { code, out } = await cli('status');
    expect(code).toBe(0);
    expect(out).toMatch(/^Sync: Sync not set up — Choose the service to sync with\.$/m);
    expect(out).toMatch(/^Folder: \/home\/someone\/Designs$/m);
    expect(out).toMatch(/Queue: 1 waiting, 1 uploading, 0 done, 1 failed, 2 need attention, 0 cancelled/);
    expect(out).toMatch(new RegExp(`#${ids.uploading} Gear/big.stl  3.0 MB of 8.0 MB \\(37%\\)`));
    expect(out).toMatch(new RegExp(`#${ids.remove} Gear/old.stl \\[confirm-delete\\]`));
    expect(out).toMatch(new RegExp(`→ design-sync queue confirm ${ids.remove} `));
    expect(out).toMatch(new RegExp(`→ design-sync queue confirm ${ids.design} --name`));
    expect(out).toMatch(new RegExp(`#${ids.failed} Gear/bad.stl: Gave up after 8 attempts.\\n\\s+→ design-sync queue retry ${ids.failed}`));
  });

  it('--json gives the same as data', async () => {
    const ids = sample();
    const { code, out } = await cli('status', '--json');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.status).toMatchObject({ state: 'idle', root: '/home/someone/Designs', queuePaused: false, counts: { waiting: 1, running: 1, attention: 2, failed: 1 } });
    expect(report.uploading).toEqual([expect.objectContaining({ id: ids.uploading, bytesSent: 3 * 1024 * 1024, bytesTotal: 8 * 1024 * 1024, percent: 37 })]);
    expect(report.attention.map((item: { id: number; todo: string }) => item.id)).toEqual([ids.remove, ids.design]);
    expect(report.attention[0].payload).toBeUndefined();
  });

  it('--follow prints again when another process changes the queue, and stops on Ctrl-C', async () => {
    const child = spawn(process.execPath, ['bin/design-sync.mjs', '--profile', profile, 'status', '--follow', '--json'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let buffer = '';
    let stderr = '';
    const waitForLines = (n: number) => new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${lines.length} reports: ${stderr}`)), 15_000);
      const check = () => {
        if (lines.length >= n) {
          clearTimeout(timer);
          child.stdout.off('data', check);
          resolve();
        }
      };
      child.stdout.on('data', check);
      check();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      lines.push(...parts.filter((line) => line.trim()));
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      await waitForLines(1);
      expect(JSON.parse(lines[0]!).status.queuePaused).toBe(false);
      store.setQueuePaused(true);
      await waitForLines(2);
      expect(JSON.parse(lines[1]!).status.queuePaused).toBe(true);
    } finally {
      child.kill('SIGINT');
    }
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
  }, 30_000);
});

describe('design-sync queue', () => {
  it('lists what is not done, --all lists everything, --json gives items', async () => {
    const ids = sample();
    store.cancel(ids.waiting);
    const listed = await cli('queue');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(new RegExp(`${ids.uploading}  uploading\\s+upload\\s+Gear/big.stl  — 3.0 MB of 8.0 MB \\(37%\\)`));
    expect(listed.out).not.toMatch(/next\.stl/);
    expect((await cli('queue', 'list', '--all')).out).toMatch(/cancelled\s+upload\s+Gear\/next\.stl/);
    const json = JSON.parse((await cli('queue', 'list', '--json')).out);
    expect(json.map((item: { id: number }) => item.id)).toEqual([ids.uploading, ids.remove, ids.design, ids.failed]);
  });

  it('retries, cancels, pauses and resumes one item or all of them', async () => {
    const ids = sample();
    expect((await cli('queue', 'retry', String(ids.failed))).out).toMatch(/will be tried again/);
    expect(store.get(ids.failed)).toMatchObject({ state: 'waiting', attempts: 0 });
    expect((await cli('queue', 'pause', String(ids.waiting))).out).toMatch(/paused/);
    expect(store.get(ids.waiting)!.paused).toBe(true);
    expect((await cli('queue', 'resume', String(ids.waiting))).code).toBe(0);
    expect(store.get(ids.waiting)!.paused).toBe(false);
    expect((await cli('queue', 'pause')).out).toBe('Uploads paused.');
    expect(store.status().queuePaused).toBe(true);
    expect((await cli('queue')).out).toMatch(/^Uploads are paused/);
    expect((await cli('queue', 'resume')).out).toBe('Uploads resumed.');
    expect((await cli('queue', 'cancel', String(ids.waiting))).out).toMatch(/cancelled\. The local file is untouched/);
    const again = await cli('queue', 'cancel', String(ids.waiting));
    expect(again).toMatchObject({ code: 1, err: expect.stringMatching(/already cancelled/) });
    expect((await cli('queue', 'cancel', 'all')).out).toMatch(/^\d+ items cancelled/);
    expect(store.status().counts).toMatchObject({ waiting: 0, running: 0, attention: 0, failed: 0 });
    expect(await cli('queue', 'retry', 'nine')).toMatchObject({ code: 1, err: expect.stringMatching(/Expected an item number/) });
    expect(await cli('queue', 'retry', '999')).toMatchObject({ code: 1, err: expect.stringMatching(/no queue item 999/) });
  });

  it('confirms a deletion, and a new design only with valid fields', async () => {
    const ids = sample();
    expect((await cli('queue', 'confirm', String(ids.remove))).out).toMatch(/will be deleted on the service/);
    expect(store.get(ids.remove)).toMatchObject({ state: 'waiting', payload: { confirmed: true } });

    const missing = await cli('queue', 'confirm', String(ids.design), '--name', 'Clamp');
    expect(missing).toMatchObject({ code: 1, err: expect.stringMatching(/pass --excerpt, --license \(license: one of .*cc0/) });
    const wrong = await cli('queue', 'confirm', String(ids.design), '--name', 'Clamp', '--excerpt', 'Holds', '--license', 'mine');
    expect(wrong).toMatchObject({ code: 1, err: expect.stringMatching(/--license is not included in the list/) });
    expect(store.get(ids.design)!.state).toBe('attention');
    const ok = await cli('queue', 'confirm', String(ids.design), '--name', 'Clamp', '--excerpt', 'Holds', '--license', 'cc0', '--publish');
    expect(ok.out).toMatch(/the design "Clamp" will be created and published/);
    expect(store.get(ids.design)).toMatchObject({ state: 'waiting', payload: { name: 'Clamp', excerpt: 'Holds', license: 'cc0', publish: true, confirmed: true } });
    expect(await cli('queue', 'confirm', String(ids.waiting))).toMatchObject({ code: 1, err: expect.stringMatching(/nothing to confirm/) });
  });
});

describe('design-sync queue and status in the person\'s language', () => {
  /** A failed upload the service refused, and an edit saved while the service was away: each with the reason the queue gives it. */
  function reasons() {
    const refused = store.enqueue({ kind: 'upload', path: 'Gear/gear.stl', folder: 'Gear', designId: 1, fileKind: 'document' });
    const running = store.claimNext()!;
    const options = { now: Date.now(), maxAttempts: 8, random: () => 0.5, validationAttention: 'invalid-file' as const, aborted: null };
    store.settle(running.id, outcomeOfProblem({ kind: 'forbidden', message: 'Forbidden' }, running, options).settlement);
    store.log('warning', said('activity.queue.offline'));
    const edit = store.enqueueDesignEdit(5, { name: 'Zahnrad' }, 'Gear');
    return { refused: refused.id, edit: edit.id };
  }

  it('prints a failed item\'s reason and a waiting edit\'s in German, and keeps them English with their facts in --json', async () => {
    const ids = reasons();
    const listed = await cli('--lang', 'de', 'queue');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(new RegExp(`${ids.refused} .*Gear/gear\\.stl  — Sie dürfen das Design von Gear/gear\\.stl nicht ändern: Es gehört Ihnen nicht oder nicht mehr\\.$`, 'm'));
    expect(listed.out).toMatch(new RegExp(`${ids.edit} .*— Hier gespeichert: Es wird gesendet, sobald der Dienst wieder erreichbar ist\\.$`, 'm'));
    expect(listed.out).not.toMatch(/You are not allowed|Saved here/);

    const status = await cli('--lang', 'de', 'status');
    expect(status.out).toMatch(new RegExp(`#${ids.refused} Gear/gear\\.stl: Sie dürfen das Design von Gear/gear\\.stl nicht ändern`));
    expect(status.out).toMatch(/Warnung: Der Dienst ist nicht erreichbar: Uploads warten und werden von selbst fortgesetzt\./);

    const json = JSON.parse((await cli('--lang', 'de', 'queue', 'list', '--json')).out) as { id: number; reason: string; reasonWords: unknown }[];
    expect(json.find((item) => item.id === ids.refused)).toMatchObject({
      reason: 'You are not allowed to change the design of Gear/gear.stl: it is not yours, or no longer.',
      reasonWords: { id: 'queue.reason.notAllowed', values: { subject: 'Gear/gear.stl' } },
    });
  });
});
