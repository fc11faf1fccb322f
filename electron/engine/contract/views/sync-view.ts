import type { SyncView } from '../../../../shared';
import { syncReasonWords } from '../../../../shared/sync/sync-state-words';
import type { EngineServices } from '../../composition/engine-services';
import { iso } from './iso';

/**
 * The sync status (runtime/sync-status.ts, its one owner) as the contract's view: the state, its reason code and
 * facts, and `reason` in words made by the shared syncReasonWords(), so the window, the tray and the CLI say the same.
 */
export function syncView({ syncStatus, queue: queueService, sync, lifecycle }: Pick<EngineServices, 'syncStatus' | 'queue' | 'sync' | 'lifecycle'>): SyncView {
  const status = syncStatus.current();
  const parts = sync.partsIfChosen();
  const queue = queueService.status();
  const running = status.counts.running > 0 ? queueService.list({ states: ['running'] }) : [];
  const facts = { reasonCode: status.reasonCode, counts: status.counts, folder: status.folder, serviceUrl: status.serviceUrl, until: iso(status.until), detail: status.detail, detailWords: status.detailWords };
  return {
    state: status.state,
    ...facts,
    reason: syncReasonWords(facts),
    runState: status.runState,
    running: lifecycle.backgroundRunning,
    queuePaused: queue.queuePaused,
    queuePausedUntil: iso(queue.queuePausedUntil ?? null),
    lastScanAt: iso(queue.lastScanAt),
    bytesSent: running.reduce((sum, item) => sum + item.bytesSent, 0),
    bytesTotal: running.reduce((sum, item) => sum + (item.bytesTotal ?? 0), 0),
    uploads: status.uploads,
    contentPolicyAccepted: sync.contentPolicyAccepted(),
    watcherWarning: parts ? parts.sync.watcherWarning : null,
    watcherWarningWords: parts ? parts.sync.folderSide.watcherWords : null,
    heldBack: parts ? parts.sync.heldBack.groups() : [],
  };
}
