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

/** 1,000 design folders × 100 files: issue 10's goal, a first scan of 100,000 files in ≤ 10 s. */
export function firstScan100kScenario(): Promise<ScenarioResult> {
  return firstScan('first-scan-100k', 1000, 100, { firstScanMs: 10_000, rescanUnchangedMs: 5000 });
}
