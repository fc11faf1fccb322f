import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { watchSyncFolder } from '../../electron/engine/sync/folder-watcher';
import { isIgnoredName } from '../../electron/engine/sync/sync-names';
import { idleCpu, MB, median, percentile, round } from './measure';
import { folderName } from './sync-tree';

const IDLE_WINDOW_MS = 10_000;
const IDLE_SETTLE_MS = Number(process.env.WATCHER_SETTLE_MS ?? 60_000);

/**
 * One watcher on a tree made by writeTree, in a process of its own (so that its memory and idle CPU are its own):
 * `node --expose-gc electron/launcher/run-source.mjs bench/support/watcher-probe.ts <chokidar|parcel> <root> <folders> <changes> <idleMs>`.
 * Prints one JSON line (WatcherFigures). The tree is left as it was found.
 */

export type WatcherKind = 'chokidar' | 'parcel';
type ChangeKind = 'create' | 'modify' | 'delete';

export interface WatcherFigures {
  watcher: WatcherKind;
  version: string;
  readyMs: number;
  rssGrowthAtReadyMb: number;
  rssGrowthAfterChangesMb: number;
  latencyP50Ms: number;
  latencyP95Ms: number;
  createP50Ms: number;
  modifyP50Ms: number;
  deleteP50Ms: number;
  missed: number;
  idleSeconds: number;
  idleCpuMs: number;
  idlePercentOfOneCore: number;
  /** The idle time in windows of 10 s: a one-off (a late garbage collection) shows in one, a steady cost in all. */
  idleMedianWindowPercent: number;
  idleMaxWindowPercent: number;
}

/** A started watcher: calls `seen(relativePath, kind)` for each event; `close` stops it. */
interface Running {
  version: string;
  close(): Promise<void>;
}

const EVENT_DEADLINE_MS = 5000;

/** The installed version of a package (whose exports may not include its package.json). */
function packageVersion(name: string): string {
  for (let dir = dirname(createRequire(import.meta.url).resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (manifest.name === name) return manifest.version ?? 'unknown';
  }
  return 'unknown';
}

/** chokidar exactly as SyncEngine configures it (folder-watcher.ts). */
async function startChokidar(root: string, seen: (path: string, kind: ChangeKind) => void): Promise<Running> {
  const version = packageVersion('chokidar');
  const watcher = watchSyncFolder(root);
  const kinds: Record<string, ChangeKind> = { add: 'create', change: 'modify', unlink: 'delete' };
  watcher.on('all', (event, path) => kinds[event] && seen(relative(root, path), kinds[event]));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return { version, close: () => watcher.close() };
}

/** The part of @parcel/watcher's interface used here (it may be absent: imported by a name TypeScript does not check). */
interface ParcelWatcher {
  subscribe(dir: string, fn: (error: Error | null, events: { path: string; type: 'create' | 'update' | 'delete' }[]) => void): Promise<{ unsubscribe(): Promise<void> }>;
}

/** @parcel/watcher on the same root: recursive (no depth option), the engine's ignore rules applied to its events. */
async function startParcel(root: string, seen: (path: string, kind: ChangeKind) => void): Promise<Running> {
  const name = '@parcel/watcher';
  const parcel = (await import(name)) as ParcelWatcher;
  const version = packageVersion(name);
  const kinds = { create: 'create', update: 'modify', delete: 'delete' } as const;
  const subscription = await parcel.subscribe(root, (error, events) => {
    if (error) return;
    for (const event of events) {
      const rel = relative(root, event.path);
      if (!rel.split('/').some((part) => isIgnoredName(part))) seen(rel, kinds[event.type]);
    }
  });
  return { version, close: () => subscription.unsubscribe() };
}

/** The changes made one at a time: a new file, a file rewritten, a file deleted, each in its own design folder. */
function changesFor(folders: number, count: number): { kind: ChangeKind; path: string }[] {
  const kinds: ChangeKind[] = ['create', 'modify', 'delete'];
  return Array.from({ length: count }, (_, i) => {
    const kind = kinds[i % 3]!;
    const folder = folderName(i % folders);
    return { kind, path: `${folder}/${kind === 'create' ? `new-${i}.stl` : `part-${Math.floor(i / folders)}.stl`}` };
  });
}

async function probe(kind: WatcherKind, root: string, folders: number, changeCount: number, idleMs: number): Promise<WatcherFigures> {
  const waiting = new Map<string, { kind: ChangeKind; resolve: () => void }>();
  const seen = (path: string, eventKind: ChangeKind) => {
    const wanted = waiting.get(path);
    if (wanted && wanted.kind === eventKind) {
      waiting.delete(path);
      wanted.resolve();
    }
  };
  global.gc?.();
  const rssStart = process.memoryUsage().rss;
  const started = performance.now();
  const running = await (kind === 'chokidar' ? startChokidar(root, seen) : startParcel(root, seen));
  const readyMs = performance.now() - started;
  global.gc?.();
  const rssReady = process.memoryUsage().rss;

  const latencies: Record<ChangeKind, number[]> = { create: [], modify: [], delete: [] };
  let missed = 0;
  const changes = changesFor(folders, changeCount);
  for (const change of changes) {
    const absolute = join(root, change.path);
    const arrived = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(change.path);
        resolve(false);
      }, EVENT_DEADLINE_MS);
      waiting.set(change.path, { kind: change.kind, resolve: () => (clearTimeout(timer), resolve(true)) });
    });
    const at = performance.now();
    if (change.kind === 'delete') unlinkSync(absolute);
    else writeFileSync(absolute, `solid changed ${change.path}\nendsolid\n`);
    if (await arrived) latencies[change.kind].push(performance.now() - at);
    else missed++;
  }
  global.gc?.();
  const rssAfterChanges = process.memoryUsage().rss;

  // Idle: nothing changes; what the watcher (and anything it left running) costs once the one-time work of its start
  // is over (collecting a start-up heap of tens of MB, which landed in the idle time when it began 2 s after the changes).
  await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
  const idle = await idleCpu(idleMs, IDLE_WINDOW_MS);
  await running.close();

  // The tree as it was, for the next watcher.
  for (const change of changes) {
    const absolute = join(root, change.path);
    if (change.kind === 'create') unlinkSync(absolute);
    else writeFileSync(absolute, `solid part\nendsolid\n`);
  }

  const all = [...latencies.create, ...latencies.modify, ...latencies.delete];
  return {
    watcher: kind,
    version: running.version,
    readyMs: round(readyMs, 0),
    rssGrowthAtReadyMb: round((rssReady - rssStart) / MB, 1),
    rssGrowthAfterChangesMb: round((rssAfterChanges - rssStart) / MB, 1),
    latencyP50Ms: round(median(all), 1),
    latencyP95Ms: round(percentile(all, 95), 1),
    createP50Ms: round(median(latencies.create), 1),
    modifyP50Ms: round(median(latencies.modify), 1),
    deleteP50Ms: round(median(latencies.delete), 1),
    missed,
    idleSeconds: round(idle.wallMs / 1000, 1),
    idleCpuMs: round(idle.cpuMs, 1),
    idlePercentOfOneCore: round(idle.percentOfOneCore, 3),
    idleMedianWindowPercent: round(idle.medianWindowPercent, 3),
    idleMaxWindowPercent: round(idle.maxWindowPercent, 3),
  };
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const [kind, root, folders, changes, idleMs] = process.argv.slice(2);
  const figures = await probe(kind as WatcherKind, root!, Number(folders), Number(changes), Number(idleMs));
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  process.exit(0);
}
