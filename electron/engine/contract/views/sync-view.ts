import type { SyncView } from '../../../../shared';
import { syncReasonWords } from '../../../../shared/sync/sync-state-words';
import type { Engine } from '../../runtime/engine';
import { queueServiceOf } from '../../runtime/queue-actions';
import { iso } from './iso';

/**
 * The sync status (runtime/sync-status.ts, its one owner) as the contract's view: the state, its reason code and
 * facts, and `reason` in words made by the shared syncReasonWords(), so the window, the tray and the CLI say the same.
 */
export function syncView(engine: Engine): SyncView {
  const status = engine.syncStatus.current();
  const queueService = queueServiceOf(engine);
  const queue = queueService.status();
  const running = status.counts.running > 0 ? queueService.list({ states: ['running'] }) : [];
  const facts = { reasonCode: status.reasonCode, counts: status.counts, folder: status.folder, serviceUrl: status.serviceUrl, until: iso(status.until), detail: status.detail };
  return {
    state: status.state,
    ...facts,
    reason: syncReasonWords(facts),
    runState: status.runState,
    running: engine.backgroundRunning,
    queuePaused: queue.queuePaused,
    queuePausedUntil: iso(queue.queuePausedUntil ?? null),
    lastScanAt: iso(queue.lastScanAt),
    bytesSent: running.reduce((sum, item) => sum + item.bytesSent, 0),
    bytesTotal: running.reduce((sum, item) => sum + (item.bytesTotal ?? 0), 0),
    uploads: status.uploads,
    contentPolicyAccepted: engine.contentPolicyAccepted(),
    watcherWarning: engine.serviceUrl() ? engine.syncParts().sync.watcherWarning : null,
    heldBack: engine.serviceUrl() ? engine.syncParts().sync.heldBack.groups() : [],
  };
}
