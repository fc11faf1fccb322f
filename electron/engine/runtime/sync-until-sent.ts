import type { QueueBlock } from '../queue/problem-outcome';
import type { QueueItem } from '../queue/queue-item';
import type { QueueService } from '../queue/queue-service';
import { said, type Said } from '../queue/said';
import type { PassResult } from '../sync/sync-engine';
import { EngineError } from './engine-error';
import type { ServiceConnection } from './service-connection';
import type { SyncService } from './sync-service';

export interface SyncUntilSentOptions {
  /** Propose deleting files even when many vanished at once (each still needs confirming). */
  allowManyMissing?: boolean;
  /** Confirm the deletions on the service of files deleted from the folder (otherwise they wait for the person). */
  confirmDeletes?: boolean;
  signal?: AbortSignal;
  /** Told of the first pass as soon as it is done, and of each deletion confirmed. */
  onFirstPass?: (result: PassResult) => void;
  onConfirmedDelete?: (item: QueueItem) => void;
}

export interface SyncUntilSentResult {
  /** Why sync stopped (the folder vanished…), or null. */
  stopped: string | null;
  /** Why the queue as a whole waits (offline, sign-in, content policy), or null. */
  blocked: QueueBlock | null;
  /** What is left: failed, waiting for the person, or still waiting to be sent. */
  open: QueueItem[];
  /**
   * What the last pass could not do, in words (empty when it did everything): changes of the service that could not
   * be brought into the folder (a download that could not be written: the disk full, a read-only folder; the service
   * failing), the service not read at all, files still being written (not sent); facts and their English.
   */
  notDone: Said[];
}

/** What a pass could not do, in words (see SyncUntilSentResult.notDone). */
export function notDoneIn(pass: PassResult): Said[] {
  const found = [
    ...(pass.remoteSkipped ? [pass.remoteSkipped] : []),
    ...(pass.remote?.warnings ?? []),
    ...(pass.scan?.unsettled ?? []).map((path) => said('activity.sync.stillBeingWritten', { path })),
  ];
  return [...new Map(found.map((line) => [line.text, line])).values()];
}

/**
 * One sync of the chosen folder, to the end: a pass (own designs and their files from the service into the folder,
 * the folder's changes into the queue), the queue sent until nothing can be sent now, and a last pass for what the
 * queue made (a design made from a folder: its files). What `design-sync sync` without --watch does.
 */
export async function syncUntilSent(
  { sync: syncService, queue, connection }: { sync: SyncService; queue: QueueService; connection: ServiceConnection },
  options: SyncUntilSentOptions = {},
): Promise<SyncUntilSentResult> {
  const { sync, runner } = syncService.syncParts();
  if (!sync.root.current()) throw EngineError.of('sync-folder', 'sync.detail.noFolder');
  const stoppedNow = () => {
    const status = queue.status();
    return status.state === 'stopped' ? status.reason ?? 'Sync is stopped.' : null;
  };
  const settled = () => {
    const { counts } = queue.status();
    return (counts.waiting === 0 && counts.running === 0) || runner.blockedBy !== null || stoppedNow() !== null || options.signal?.aborted === true;
  };

  const first = await sync.syncOnce({ settle: 'wait', allowManyMissing: options.allowManyMissing === true });
  options.onFirstPass?.(first);
  if (first.stopped) return { stopped: first.stopped, blocked: null, open: [], notDone: notDoneIn(first) };
  if (options.confirmDeletes) queue.confirmPendingDeletes(options.onConfirmedDelete);
  const started = !runner.isRunning;
  runner.start();
  try {
    await runner.waitUntil(settled);
    // The last pass looks at the service again: what failed in the first (a download) is tried once more, and what
    // still fails is what was not done.
    // Not while the service still cannot be reached: its reads would only wait through their retries again.
    const unreachable = first.remoteSkipped !== null && !connection.connectivity.state.online;
    const last = await sync.syncOnce({ settle: 'wait', allowManyMissing: options.allowManyMissing === true, ...(unreachable ? { localOnly: true } : {}) });
    if (last.scan && last.scan.enqueued > 0) await runner.waitUntil(settled);
    const lastDone = unreachable ? { ...last, remoteSkipped: first.remoteSkipped } : last;
    return { stopped: stoppedNow(), blocked: runner.blockedBy, open: queue.list({ states: ['failed', 'attention', 'waiting'] }), notDone: notDoneIn(lastDone) };
  } finally {
    if (started) await runner.stop();
  }
}
