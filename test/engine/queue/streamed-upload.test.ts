import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { QueueEvent, QueueItem } from '../../../electron/engine/queue/queue-item';
import { startTestService, type TestService } from '../../../harness/local-service';
import { queueWorld, type QueueWorld } from './queue-fixtures';

/**
 * An upload reads its file once, hashing the bytes as they are sent, and its attempt is made durable (with that hash)
 * before the body's last bytes go. These tests hold the service (fault injection) so that the file can be changed, or
 * the sending process killed, at a chosen moment of an upload.
 */

const REPO = join(import.meta.dirname, '../../..');
/** Larger than what the loopback's socket buffers take in while the service does not read. */
const BIG = 32 * 1024 * 1024;
const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');

let service: TestService;
let token: string;
let world: QueueWorld;
let designId: number;
let child: ChildProcess | null = null;

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  token = service.addUser('streamer').token;
});
afterAll(() => service.stop());

beforeEach(async () => {
  world = await queueWorld(service.url, token);
  designId = (await world.api.createDesign({ name: 'Crash', excerpt: 'Streamed uploads' })).id;
  world.folders.link('Crash', designId);
});
afterEach(async () => {
  child?.kill('SIGKILL');
  child = null;
  await service.request('DELETE', '/__admin/faults');
  await world.dispose();
});

async function fault(rule: Record<string, unknown>): Promise<void> {
  const answer = await service.request('POST', '/__admin/faults', { json: rule });
  expect(answer.status).toBe(201);
}

/** Polls (every few ms, with a deadline) until `check` holds. */
async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The queue runner in a process of its own (crash-runner.ts), to be killed with SIGKILL. */
function startChild(): ChildProcess {
  const started = spawn(process.execPath, ['electron/launcher/run-source.mjs', 'test/engine/queue/crash-runner.ts', join(world.dir, 'sync.sqlite'), service.url, token, String(designId)], {
    cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'],
  });
  child = started;
  return started;
}

async function kill(process_: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => process_.once('exit', resolve));
  process_.kill('SIGKILL');
  await exited;
  child = null;
}

function row(id: number): QueueItem {
  return world.store.get(id)!;
}

describe('an upload streamed once: its hash taken from the bytes sent', () => {
  it('cuts the upload short when the file changes while it is read, and sends the newer version instead, once', async () => {
    const first = randomBytes(BIG);
    world.write('Crash/part.bin', first);
    const item = world.enqueueUpload('Crash/part.bin', 'document', designId);
    // The service waits before it reads the body: the upload stops mid-file on the full socket buffers.
    await fault({ kind: 'latency', ms: 1_500, method: 'POST', path: '/documents$', count: 1 });
    const reasons: string[] = [];
    world.store.on('change', (event: QueueEvent) => {
      if (event.type === 'item' && event.item.id === item && event.item.reason) reasons.push(event.item.reason);
    });
    world.runner.start();
    await until('the upload is under way', () => row(item).state === 'running' && row(item).bytesSent > 0);
    expect(row(item).bytesSent).toBeLessThan(BIG);

    const second = randomBytes(BIG);
    world.write('Crash/part.bin', second);
    const later = Date.now() / 1000 + 5;
    utimesSync(join(world.root, 'Crash/part.bin'), later, later);
    await world.runner.waitForIdle({ timeoutMs: 60_000 });

    expect(reasons.some((reason) => /changed while it was being sent/.test(reason))).toBe(true);
    expect(row(item).state).toBe('done');
    const documents = await world.api.listDocuments(designId);
    expect(documents.map((d) => d.modelhash)).toEqual([sha1(second)]);
    const base = world.baseFiles.get('Crash/part.bin')!;
    expect(base).toMatchObject({ sha1: sha1(second), size: BIG, remoteId: documents[0]!.id });
    expect(base.mtimeMs).toBe(Math.trunc(statSync(join(world.root, 'Crash/part.bin')).mtimeMs));
  });

  it('after a kill once the whole body was sent, finds the upload on the service by the hash recorded before its last bytes, and never sends it again', async () => {
    const content = randomBytes(4 * 1024 * 1024);
    world.write('Crash/whole.bin', content);
    const item = world.enqueueUpload('Crash/whole.bin', 'document', designId);
    // The service makes the document, then holds its answer: the kill lands while the answer is on its way.
    await fault({ kind: 'slow_answer', ms: 10_000, method: 'POST', path: '/documents$', count: 1 });
    const sender = startChild();
    // Killed once the service has the whole body (it made the document), not when the row says every byte was handed
    // over: the last bytes leave only after the hash's commit, so a kill between the two is a kill mid-body (the test
    // below), which CI once hit here.
    await until('the service made the document', async () => (await world.api.listDocuments(designId)).length === 1);
    expect(row(item).state).toBe('running');
    await kill(sender);

    // What the killed process left: its attempt, with the hash of the bytes it sent.
    expect(row(item)).toMatchObject({ state: 'running', sent: { sha1: sha1(content), size: content.length, name: 'whole.bin' } });

    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 20_000 });
    expect(row(item).state).toBe('done');
    const documents = await world.api.listDocuments(designId);
    expect(documents.map((d) => d.modelhash)).toEqual([sha1(content)]);
    expect(world.baseFiles.get('Crash/whole.bin')).toMatchObject({ sha1: sha1(content), remoteId: documents[0]!.id });
    expect(world.store.recentActivity(20).map((line) => line.message)).toContain('Already on the service: Crash/whole.bin (its answer had been lost).');
  });

  it('after a kill mid-body, sends the file again (the service never had it whole), and it is on the service once', async () => {
    const content = randomBytes(BIG);
    world.write('Crash/half.bin', content);
    const item = world.enqueueUpload('Crash/half.bin', 'document', designId);
    await fault({ kind: 'latency', ms: 2_000, method: 'POST', path: '/documents$', count: 1 });
    const sender = startChild();
    await until('the upload is under way', () => row(item).state === 'running' && row(item).bytesSent > 0);
    await kill(sender);

    // An attempt was written before anything was sent; it has no hash, since the file was never read whole.
    const left = row(item);
    expect(left.bytesSent).toBeLessThan(content.length);
    expect(left).toMatchObject({ state: 'running', sent: { sha1: null, size: content.length, name: 'half.bin' } });

    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 60_000 });
    expect(row(item).state).toBe('done');
    const documents = await world.api.listDocuments(designId);
    expect(documents.map((d) => d.modelhash)).toEqual([sha1(content)]);
    expect(world.baseFiles.get('Crash/half.bin')).toMatchObject({ sha1: sha1(content), size: content.length });
  });
});
