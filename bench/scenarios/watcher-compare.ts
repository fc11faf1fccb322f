import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { engineProcessArgs } from '../../harness/engine-process';
import type { ScenarioResult } from '../support/measure';
import { scratchDir } from '../support/service';
import { writeTree } from '../support/sync-tree';
import type { WatcherFigures, WatcherKind } from '../support/watcher-probe';

const FOLDERS = 100;
const FILES_PER_FOLDER = 100;
const CHANGES = 100;
const IDLE_MS = Number(process.env.WATCHER_IDLE_MS ?? 30_000);
const PROBE = join(import.meta.dirname, '..', 'support', 'watcher-probe.ts');

function parcelInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('@parcel/watcher');
    return true;
  } catch {
    return false;
  }
}

/** One watcher measured in a process of its own, on the given tree. */
async function probe(kind: WatcherKind, root: string): Promise<WatcherFigures> {
  const child = spawn(process.execPath, engineProcessArgs(PROBE, kind, root, String(FOLDERS), String(CHANGES), String(IDLE_MS)), {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const last = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !last.startsWith('{')) throw new Error(`the ${kind} probe failed (exit ${code}):\n${out}`);
  return JSON.parse(last) as WatcherFigures;
}

/**
 * chokidar as SyncEngine configures it against @parcel/watcher, on the same tree of 100 design folders × 100
 * files, one after the other in the same run, each in a process of its own: time until watching, latency from a
 * change (new file, rewritten file, deleted file; CHANGES of them, one at a time) to its event, CPU while nothing
 * changes, and resident memory. Without @parcel/watcher installed, chokidar alone is measured, and the result says so.
 */
export async function watcherCompareScenario(): Promise<ScenarioResult> {
  const scratch = scratchDir('watcher-compare');
  try {
    const root = join(scratch.path, 'Designs');
    writeTree(root, FOLDERS, FILES_PER_FOLDER);
    const withParcel = parcelInstalled();
    const runs: WatcherFigures[] = [await probe('chokidar', root)];
    if (withParcel) runs.push(await probe('parcel', root));
    const metrics: Record<string, number | string> = {
      files: FOLDERS * FILES_PER_FOLDER,
      changes: CHANGES,
      parcelWatcher: withParcel ? `measured (${runs[1]!.version})` : 'not installed: chokidar alone',
    };
    for (const run of runs) {
      const prefix = run.watcher === 'chokidar' ? 'chokidar' : 'parcel';
      const { watcher: _watcher, ...figures } = run;
      for (const [key, value] of Object.entries(figures)) metrics[`${prefix}${key[0]!.toUpperCase()}${key.slice(1)}`] = value;
    }
    return {
      name: 'watcher-compare',
      description: `chokidar (as SyncEngine configures it) ${withParcel ? 'and @parcel/watcher' : 'alone (@parcel/watcher is not installed)'} on the same ${FOLDERS} × ${FILES_PER_FOLDER}-file tree, each in its own process: ready time, latency of ${CHANGES} changes (create/modify/delete) to their event, idle CPU over ${Math.round(IDLE_MS / 1000)} s, RSS growth`,
      metrics,
      goals: runs.map((run) => ({ metric: `${run.watcher}Missed`, target: '= 0', met: run.missed === 0 })),
    };
  } finally {
    scratch.dispose();
  }
}
