import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { ServiceClient } from '../../electron/engine/api/service-client';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { Session } from '../../electron/engine/authorization/session';
import { QueueRunner, queueClient } from '../../electron/engine/queue/queue-runner';
import { QueueStore } from '../../electron/engine/queue/queue-store';
import { DesignFolders } from '../../electron/engine/sync-state/design-folders';
import { openSyncDatabase } from '../../electron/engine/sync-state/sync-database';
import { prepareUsers, startServiceProcess } from '../../harness/service-process';
import { MB, median, round, timed, type ScenarioResult } from '../support/measure';
import { scratchDir } from '../support/service';

const DOCUMENTS = 20;
const DOCUMENT_BYTES = 8 * MB;
const IMAGES = 40;
/** A noise PNG of this side is about 1 MB. */
const IMAGE_SIDE = 580;
const CONCURRENCY = 2;
/**
 * Rounds of each, in alternating order (curl first, then the queue first), each started with the disk's dirty pages
 * written out (`sync`): whichever ran second used to pay for the writeback of the 200 MB the first had just stored
 * (the service's files, then their deletion), and the queue always ran second.
 */
const ROUNDS = 4;

interface BenchFile {
  name: string;
  path: string;
  kind: 'image' | 'document';
  size: number;
}

async function makeFiles(dir: string): Promise<BenchFile[]> {
  const files: BenchFile[] = [];
  for (let i = 0; i < DOCUMENTS; i++) {
    const path = join(dir, `model-${String(i).padStart(2, '0')}.bin`);
    writeFileSync(path, randomBytes(DOCUMENT_BYTES));
    files.push({ name: `model-${i}`, path, kind: 'document', size: DOCUMENT_BYTES });
  }
  for (let i = 0; i < IMAGES; i++) {
    const path = join(dir, `view-${String(i).padStart(2, '0')}.png`);
    const png = await sharp(randomBytes(IMAGE_SIDE * IMAGE_SIDE * 3), { raw: { width: IMAGE_SIDE, height: IMAGE_SIDE, channels: 3 } }).png().toBuffer();
    writeFileSync(path, png);
    files.push({ name: `view-${i}`, path, kind: 'image', size: png.length });
  }
  // Interleaved, as a folder of models with their pictures would be.
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

function curlUpload(baseUrl: string, token: string, designId: number, file: BenchFile): Promise<void> {
  const hash = file.kind === 'image' ? 'image' : 'document';
  const url = `${baseUrl}/v1/designs/${designId}/${hash}s?auth_token=${encodeURIComponent(token)}`;
  return new Promise((resolve, reject) => {
    const child = spawn('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-F', `${hash}[file]=@${file.path}`, url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 && out === '201' ? resolve() : reject(new Error(`curl exited ${code}, HTTP ${out}`))));
  });
}

/** curl, one process per file, in CONCURRENCY lanes (the queue's concurrency), each lane sequential. */
async function curlRun(baseUrl: string, token: string, designId: number, files: BenchFile[]): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < files.length) await curlUpload(baseUrl, token, designId, files[next++]!);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
}

/** The engine's way: rows in the durable queue, the runner hashes, streams, records each as synced. */
async function queueRun(baseUrl: string, token: string, designId: number, root: string, files: BenchFile[]): Promise<{ ms: number }> {
  const scratch = scratchDir('upload-queue');
  const db = openSyncDatabase(join(scratch.path, 'sync.sqlite'));
  try {
    db.prepare(`INSERT INTO sync_root (id, path, marker, created_at) VALUES (1, ?, 'bench', ?)`).run(root, Date.now());
    new DesignFolders(db).link('Bench', designId);
    const store = new QueueStore(db);
    const session = new Session(new MemoryTokenStore(token));
    await session.load();
    const runner = new QueueRunner({ store, session, client: queueClient(session, baseUrl), concurrency: CONCURRENCY, followOtherProcesses: false });
    const { ms } = await timed(async () => {
      db.transaction(() => {
        for (const file of files) {
          const stat = statSync(file.path);
          const name = file.path.split('/').pop()!;
          store.enqueue({ kind: 'upload', path: `Bench/${name}`, folder: 'Bench', designId, fileKind: file.kind, file: { size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs) } });
        }
      })();
      runner.start();
      await runner.waitForIdle();
    });
    await runner.stop();
    const notDone = store.list({ states: ['waiting', 'running', 'failed', 'attention', 'cancelled'] });
    if (notDone.length > 0) throw new Error(`the queue left ${notDone.length} items not done: ${notDone[0]!.reason}`);
    return { ms };
  } finally {
    db.close();
    scratch.dispose();
  }
}

export async function uploadThroughputScenario(): Promise<ScenarioResult> {
  const name = 'upload-throughput';
  const description = `${DOCUMENTS} × 8 MB documents + ${IMAGES} × ~1 MB PNG images through the queue runner vs curl multipart uploads, both ${CONCURRENCY} at a time, to the local service in its own process (median of ${ROUNDS} rounds, alternating which goes first, each after a sync of the disk)`;
  if (spawnSync('curl', ['--version']).error) {
    return { name, description, metrics: { curl: 'missing: install curl to compare' }, goals: [] };
  }
  const scratch = scratchDir('upload');
  const dataDir = join(scratch.path, 'service');
  mkdirSync(dataDir);
  const { bench } = prepareUsers(dataDir, ['bench']);
  const token = bench!;
  const service = await startServiceProcess({ dataDir });
  try {
    const root = join(scratch.path, 'Sync');
    const folder = join(root, 'Bench');
    mkdirSync(folder, { recursive: true });
    const files = await makeFiles(folder);
    const totalMb = files.reduce((sum, file) => sum + file.size, 0) / MB;
    const api = new ServiceClient({ baseUrl: service.url, token: () => token });
    const curlMs: number[] = [];
    const queueMs: number[] = [];
    const curlRound = async (round_: number) => {
      spawnSync('sync');
      const forCurl = await api.createDesign({ name: `curl ${round_}`, excerpt: 'bench' });
      curlMs.push((await timed(() => curlRun(service.url, token, forCurl.id, files))).ms);
      await api.deleteDesign(forCurl.id);
    };
    const queueRound = async (round_: number) => {
      spawnSync('sync');
      const forQueue = await api.createDesign({ name: `queue ${round_}`, excerpt: 'bench' });
      queueMs.push((await queueRun(service.url, token, forQueue.id, root, files)).ms);
      const stored = (await api.listDocuments(forQueue.id)).length + (await api.listImages(forQueue.id)).length;
      if (stored !== files.length) throw new Error(`the service holds ${stored} files of the queue's ${files.length}`);
      await api.deleteDesign(forQueue.id);
    };
    for (let round_ = 0; round_ < ROUNDS; round_++) {
      const queueFirst = round_ % 2 === 1;
      if (queueFirst) await queueRound(round_);
      await curlRound(round_);
      if (!queueFirst) await queueRound(round_);
    }
    const curlMbps = totalMb / (median(curlMs) / 1000);
    const queueMbps = totalMb / (median(queueMs) / 1000);
    const ratio = queueMbps / curlMbps;
    const roundRatios = curlMs.map((curl, i) => curl / queueMs[i]!);
    return {
      name, description,
      metrics: {
        files: files.length,
        totalMb: round(totalMb, 1),
        curlMs: round(median(curlMs), 0),
        queueMs: round(median(queueMs), 0),
        curlMBps: round(curlMbps, 1),
        queueMBps: round(queueMbps, 1),
        ratio: round(ratio, 2),
        roundRatios: `${round(Math.min(...roundRatios), 2)}–${round(Math.max(...roundRatios), 2)}`,
      },
      // The queue must keep up with curl's bare stream.
      goals: [{ metric: 'ratio', target: '≥ 1.0', met: ratio >= 1.0 }],
    };
  } finally {
    await service.stop();
    scratch.dispose();
  }
}
