import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import { QueueStore } from '../../../electron/engine/queue/queue-store';
import { BaseFiles } from '../../../electron/engine/sync-state/base-files';
import { DesignFolders } from '../../../electron/engine/sync-state/design-folders';
import { openSyncDatabase } from '../../../electron/engine/sync-state/sync-database';
import { prepareUsers, startServiceProcess, type ServiceProcess } from '../../../harness/service-process';
import { seededRandom, setSyncRoot } from './queue-fixtures';

const FILES = 50;
const KILLS = 10;
const REPO = join(import.meta.dirname, '../../..');
const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');

let service: ServiceProcess;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'design-sync-crash-'));
  const dataDir = join(dir, 'service');
  mkdirSync(dataDir);
  const { crasher } = prepareUsers(dataDir, ['crasher']);
  writeFileSync(join(dir, 'token'), crasher!);
  service = await startServiceProcess({ dataDir, args: ['--faults'] });
});
afterAll(async () => {
  await service?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the child once; kills it with SIGKILL after `killAfterMs` from its start of work (null: lets it finish). */
function runChild(args: string[], killAfterMs: number | null): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['electron/launcher/run-source.mjs', 'test/engine/queue/crash-runner.ts', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let timer: NodeJS.Timeout | undefined;
    const guard = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (killAfterMs !== null && timer === undefined && output.includes('running')) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(guard);
      resolve({ code, signal, output });
    });
  });
}

describe('the queue survives kill -9 at any moment', () => {
  it('uploads 50 files exactly once across 10 random kills and restarts, and every item ends done', async () => {
    const seed = Number(process.env.QUEUE_CRASH_SEED ?? Date.now() % 2 ** 31);
    const random = seededRandom(seed);
    console.log(`crash test seed: ${seed} (QUEUE_CRASH_SEED=${seed} repeats this run)`);

    const token = readFileSync(join(dir, 'token'), 'utf8');
    const api = new ServiceClient({ baseUrl: service.url, token: () => token });
    const design = await api.createDesign({ name: 'Crash', excerpt: 'Killed and restarted' });
    const root = join(dir, 'Sync');
    mkdirSync(join(root, 'Crash'), { recursive: true });
    const documents = new Map<string, string>();
    const images = new Set<string>();
    for (let i = 0; i < FILES / 2; i++) {
      const bytes = randomBytes(1024 + Math.floor(random() * 1.5 * 1024 * 1024));
      const name = `part-${String(i).padStart(2, '0')}.bin`;
      writeFileSync(join(root, 'Crash', name), bytes);
      documents.set(sha1(bytes), name);
      const side = 64 + Math.floor(random() * 400);
      const png = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png().toBuffer();
      const imageName = `view-${String(i).padStart(2, '0')}.png`;
      writeFileSync(join(root, 'Crash', imageName), png);
      images.add(imageName);
    }
    const databasePath = join(dir, 'sync.sqlite');
    const db = openSyncDatabase(databasePath);
    setSyncRoot(db, root);
    new DesignFolders(db).link('Crash', design.id);
    db.close();

    // Every upload takes a little longer (so that the kills land while there is work), and one in ten loses its answer.
    for (const rule of [
      { kind: 'latency', ms: 300, method: 'POST', path: '/(images|documents)$' },
      { kind: 'drop_after_write', share: 0.1, method: 'POST', path: '/(images|documents)$' },
    ]) {
      const response = await fetch(`${service.url}/__admin/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) });
      expect(response.status).toBe(201);
    }

    const args = [databasePath, service.url, token, String(design.id)];
    const kills: string[] = [];
    for (let round = 0; round < KILLS; round++) {
      const delay = 50 + Math.floor(random() * 1450);
      const result = await runChild(args, delay);
      kills.push(`${delay} ms → ${result.signal ?? `exit ${result.code}`}`);
      if (result.code !== null && result.code !== 0) throw new Error(`the runner failed:\n${result.output}`);
    }
    console.log(`kills after the start of work: ${kills.join(', ')}`);
    const last = await runChild(args, null);
    expect(last.code, last.output).toBe(0);

    const remoteDocuments = await api.listDocuments(design.id);
    const remoteImages = await api.listImages(design.id);
    const hashes = remoteDocuments.map((d) => d.modelhash).sort();
    expect(hashes).toEqual([...documents.keys()].sort());
    expect(remoteImages.map((i) => i.name).sort()).toEqual([...images].sort());

    const check = openSyncDatabase(databasePath);
    try {
      const store = new QueueStore(check);
      const items = store.list();
      expect(items).toHaveLength(FILES);
      expect(items.filter((item) => item.state !== 'done').map((item) => `${item.path}: ${item.state} ${item.reason ?? ''}`)).toEqual([]);
      expect(items.every((item) => item.sent === null)).toBe(true);
      const bases = new BaseFiles(check).all();
      expect(bases).toHaveLength(FILES);
      expect(new Set(bases.map((b) => `${b.kind}:${b.remoteId}`)).size).toBe(FILES);
      for (const document of remoteDocuments) expect(new BaseFiles(check).byRemote('document', document.id)?.sha1).toBe(document.modelhash);
      const lines = store.recentActivity(1000).map((a) => a.message);
      console.log(`${lines.filter((m) => /was interrupted/.test(m)).length} interrupted items, ${lines.filter((m) => /^Already on the service/.test(m)).length} found already on the service`);
    } finally {
      check.close();
    }
  }, 170_000);
});
