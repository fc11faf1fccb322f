import { round, timed, withMemoryPeak, type ScenarioResult } from '../support/measure';
import { syntheticRoot } from '../support/sync-tree';

/**
 * First scan of a tree of `folders` × `filesPerFolder` small files: every file is new, so each is stat'ed, checked
 * twice for stability (settleMs 0 here: the wait itself is not the cost measured), hashed, checked for executable
 * content and queued as an upload. Then, as if everything had been sent, a second scan with nothing changed (stat
 * only, no hashing). No network: scan and queue decisions only.
 */
async function firstScan(name: string, folders: number, filesPerFolder: number, goals: { firstScanMs: number; rescanUnchangedMs: number }): Promise<ScenarioResult> {
  const expected = folders * filesPerFolder;
  const tree = await syntheticRoot(name, folders, filesPerFolder);
  try {
    const cpuBefore = process.cpuUsage();
    const first = await withMemoryPeak(() => timed(() => tree.engine.scan({ settle: 'once' })));
    const cpu = process.cpuUsage(cpuBefore);
    const queued = first.result.result.scan!.enqueued;
    if (queued !== expected) throw new Error(`the first scan queued ${queued} files, expected ${expected}`);
    // As if everything had been sent: the last synced state holds every file.
    tree.db.transaction(() => {
      for (const item of tree.engine.queue.list({ states: ['waiting'] })) {
        tree.engine.base.record({
          path: item.path!, folder: item.folder!, designId: item.designId!, kind: item.fileKind!, remoteId: item.id, remoteName: item.path!.split('/')[1]!,
          remoteUpdatedAt: null, size: item.fileSize!, mtimeMs: item.fileMtimeMs!, inode: null, sha1: item.fileSha1!, syncedAt: Date.now(),
        });
        tree.engine.queue.done(item.id);
      }
    })();
    const again = await timed(() => tree.engine.scan({ settle: 'once' }));
    if (again.result.scan!.unchanged !== expected) throw new Error(`the rescan found ${again.result.scan!.unchanged} files unchanged, expected ${expected}`);
    const ms = first.result.ms;
    return {
      name,
      description: `first scan of ${folders} design folders × ${filesPerFolder} files (stat, stability check, SHA-1, queue), then a rescan with nothing changed; no network`,
      metrics: {
        files: queued,
        firstScanMs: round(ms, 0),
        filesPerSecond: round(queued / (ms / 1000), 0),
        // CPU time of this process (its thread pool included): less sensitive than wall time to other work on the machine.
        firstScanCpuMs: round((cpu.user + cpu.system) / 1000, 0),
        rescanUnchangedMs: round(again.ms, 0),
        rssPeakMb: first.rssPeakMb,
        rssGrowthMb: first.rssGrowthMb,
      },
      goals: [
        { metric: 'firstScanMs', target: `≤ ${goals.firstScanMs}`, met: ms <= goals.firstScanMs },
        { metric: 'rescanUnchangedMs', target: `≤ ${goals.rescanUnchangedMs}`, met: again.ms <= goals.rescanUnchangedMs },
      ],
    };
  } finally {
    await tree.dispose();
  }
}

/** 100 design folders × 100 files. */
export function firstScanScenario(): Promise<ScenarioResult> {
  return firstScan('first-scan-10k', 100, 100, { firstScanMs: 10_000, rescanUnchangedMs: 1000 });
}

/** 1,000 design folders × 100 files: the goal is a first scan of 100,000 files in ≤ 10 s. */
export function firstScan100kScenario(): Promise<ScenarioResult> {
  return firstScan('first-scan-100k', 1000, 100, { firstScanMs: 10_000, rescanUnchangedMs: 5000 });
}

/**
 * A person's ignore file of 100 lines, as people write them: extensions, folders, name patterns, globs across
 * folders, a few negations. None matches the tree's files (every file is still sent), so the scan does the same work
 * and only the matching costs more.
 */
export function hundredLineIgnoreFile(): string {
  const lines = ['# Kept out of the service', ''];
  const extensions = ['tmp', 'bak', 'orig', 'swp', 'log', 'blend1', 'FCBak', 'gcode.tmp', 'part', 'crdownload', 'lock', 'pyc', 'o', 'obj.bak', 'DS_Store'];
  for (const ext of extensions) lines.push(`*.${ext}`);
  for (let i = 0; i < 25; i++) lines.push(`render_${i}_*.png`);
  for (let i = 0; i < 20; i++) lines.push(`scratch-${i}/`);
  for (let i = 0; i < 20; i++) lines.push(`**/cache-${i}/**`);
  for (let i = 0; i < 10; i++) lines.push(`draft-v${i}-*.stl`);
  lines.push('!keep-me.tmp', '!important.bak', 'build/', 'dist/', 'node_modules/', '.git/', 'Thumbs.db', '~$*');
  return lines.slice(0, 102).join('\n') + '\n';
}

/**
 * The first scan of 100,000 files with a 100-line ignore file in the sync folder, against the same scan without it:
 * what matching each file's name against the person's patterns and the built-in ones costs.
 */
export async function firstScanIgnoreScenario(): Promise<ScenarioResult> {
  const ignoreFile = hundredLineIgnoreFile();
  const lines = ignoreFile.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#')).length;
  const without: number[] = [];
  const withIgnore: number[] = [];
  // Alternating, twice each: the machine's other work weighs on both alike.
  for (let round_ = 0; round_ < 2; round_++) {
    for (const ignored of round_ === 0 ? [false, true] : [true, false]) {
      const tree = await syntheticRoot(`first-scan-ignore-${ignored ? 'with' : 'without'}`, 1000, 100, ignored ? { ignoreFile } : {});
      try {
        const { result, ms } = await timed(() => tree.engine.scan({ settle: 'once' }));
        if (result.scan!.enqueued !== 100_000) throw new Error(`the scan queued ${result.scan!.enqueued} files, expected 100000`);
        (ignored ? withIgnore : without).push(ms);
      } finally {
        await tree.dispose();
      }
    }
  }
  const best = (samples: number[]) => Math.min(...samples);
  const ratio = best(withIgnore) / best(without);
  return {
    name: 'first-scan-ignore',
    description: `first scan of 1,000 design folders × 100 files with a ${lines}-pattern .designsyncignore (matching none of them) against the same scan without one (the better of two runs each, alternating); no network`,
    metrics: { files: 100_000, patterns: lines, withIgnoreMs: round(best(withIgnore), 0), withoutMs: round(best(without), 0), ratio: round(ratio, 2) },
    goals: [{ metric: 'ratio', target: '≤ 1.1', met: ratio <= 1.1 }],
  };
}
