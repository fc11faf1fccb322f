import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceClient } from '../../electron/engine/api/service-client';
import type { QueueEvent } from '../../electron/engine/queue/queue-item';
import { prepareUsers, startServiceProcess } from '../../harness/service-process';
import { median, round, type ScenarioResult } from '../support/measure';
import { scratchDir } from '../support/service';
import { benchSyncParts } from '../support/sync-assembly';

const FILES = 5;
const SETTLE_MS = 2_000;

/**
 * From a file's last write to its upload starting: the folder side (watcher, debounce, settle check, scan,
 * enqueue) and then the queue runner (woken by the 'change' event). The settle time (a file must keep its size
 * and mtime this long) is most of it, by design: half-written files are never sent.
 */
export async function settleToUploadScenario(): Promise<ScenarioResult> {
  const scratch = scratchDir('settle');
  const dataDir = join(scratch.path, 'service');
  mkdirSync(dataDir);
  const { settler } = prepareUsers(dataDir, ['settler']);
  const token = settler!;
  const service = await startServiceProcess({ dataDir });
  const profileDir = join(scratch.path, 'profile');
  mkdirSync(profileDir);
  let parts: Awaited<ReturnType<typeof benchSyncParts>> | null = null;
  try {
    const api = new ServiceClient({ baseUrl: service.url, token: () => token });
    const design = await api.createDesign({ name: 'Settle', excerpt: 'bench' });
    parts = await benchSyncParts(profileDir, service.url, token, { settleMs: SETTLE_MS });
    const { sync: engine, runner } = parts;
    const rootPath = join(scratch.path, 'Designs');
    mkdirSync(rootPath);
    engine.root.choose(rootPath, { profileDir });
    runner.start();
    await engine.start({ watch: true });
    const folder = engine.folders.ofDesign(design.id)?.folder;
    if (!folder) throw new Error('the sync engine made no folder for the design');

    const startDelays: number[] = [];
    const doneDelays: number[] = [];
    for (let i = 0; i < FILES; i++) {
      const path = `${folder}/part-${i}.stl`;
      const started = new Promise<{ running: number; done: number }>((resolve) => {
        let running = 0;
        const listener = (event: QueueEvent) => {
          if (event.type !== 'item' || event.item.path !== path) return;
          if (event.item.state === 'running' && running === 0) running = performance.now();
          if (event.item.state === 'done') {
            engine.queue.off('change', listener);
            resolve({ running, done: performance.now() });
          }
        };
        engine.queue.on('change', listener);
      });
      writeFileSync(join(rootPath, ...path.split('/')), `solid part${i}\nendsolid part${i}\n`);
      const written = performance.now();
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${path} was not uploaded within 30 s`)), 30_000).unref());
      const { running, done } = await Promise.race([started, timeout]);
      startDelays.push(running - written);
      doneDelays.push(done - written);
    }
    const startMs = median(startDelays);
    return {
      name: 'settle-to-upload',
      description: `${FILES} small files written one after the other into a watched design folder (settle time ${SETTLE_MS} ms): from the last write to the upload starting, and to it being done (median)`,
      metrics: {
        settleMs: SETTLE_MS,
        writeToUploadStartMs: round(startMs, 0),
        writeToDoneMs: round(median(doneDelays), 0),
        overheadBeyondSettleMs: round(startMs - SETTLE_MS, 0),
      },
      goals: [{ metric: 'overheadBeyondSettleMs', target: '≤ 1000', met: startMs - SETTLE_MS <= 1000 }],
    };
  } finally {
    await parts?.close();
    await service.stop();
    scratch.dispose();
  }
}
