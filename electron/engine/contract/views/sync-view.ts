import type { OverallSyncState, QueueState, SyncView } from '../../../../shared';
import { CONTENT_POLICY_REASON } from '../../queue/queue-runner';
import type { Engine } from '../../runtime/engine';
import { iso } from './iso';

type Verdict = { state: OverallSyncState; reason: string | null };

/**
 * The overall state, most urgent first, so that an error is never hidden behind "syncing" or "up to date":
 * stopped, not set up, needs the person, paused, offline, failed items, items waiting for the person, busy, done.
 */
function overall(engine: Engine, counts: Record<QueueState, number>, runState: SyncView['runState'], reason: string | null, folder: string | null, queuePaused: boolean): Verdict {
  if (runState === 'stopped') return { state: 'error', reason };
  if (!engine.serviceUrl()) return { state: 'not-set-up', reason: 'Choose the service to sync with.' };
  if (!folder) return { state: 'not-set-up', reason: 'Choose a sync folder to sync your designs with.' };
  const problem = engine.backgroundProblem;
  if (problem) return { state: 'error', reason: problem.message };
  const session = engine.session.state;
  if (session.status === 'signed-out') return { state: 'attention', reason: 'Sign in to sync your designs.' };
  if (session.status === 'needs-sign-in') return { state: 'attention', reason: session.reason };
  const pending = counts.waiting + counts.running;
  if (!engine.contentPolicyAccepted() && pending > 0) return { state: 'attention', reason: CONTENT_POLICY_REASON };
  if (queuePaused) return { state: 'paused', reason: 'Uploads are paused: resume to send your changes.' };
  if (!engine.backgroundRunning) return { state: 'paused', reason: 'Sync is not running: start it to keep the folder in step.' };
  if (!engine.connectivity.state.online) return { state: 'offline', reason: `${engine.connectivity.state.reason ?? 'The service cannot be reached.'} Changes are kept and sent when it is back.` };
  if (counts.failed > 0) return { state: 'error', reason: `${counts.failed} change${counts.failed === 1 ? '' : 's'} failed: retry or cancel ${counts.failed === 1 ? 'it' : 'them'} in the queue.` };
  if (counts.attention > 0) return { state: 'attention', reason: `${counts.attention} change${counts.attention === 1 ? ' waits' : 's wait'} for you in the queue.` };
  if (pending > 0 || runState === 'scanning' || runState === 'syncing') return { state: 'syncing', reason: pending > 0 ? `${pending} change${pending === 1 ? '' : 's'} to send.` : 'Looking for changes.' };
  if (runState === 'waiting') return { state: 'offline', reason };
  return { state: 'up-to-date', reason: engine.syncParts().sync.watcherWarning };
}

export function syncView(engine: Engine): SyncView {
  const status = engine.queue.status();
  const running = engine.queue.list({ states: ['running'] });
  const verdict = overall(engine, status.counts, status.state, status.reason, status.root, status.queuePaused);
  return {
    ...verdict,
    runState: status.state,
    folder: status.root,
    running: engine.backgroundRunning,
    queuePaused: status.queuePaused,
    lastScanAt: iso(status.lastScanAt),
    counts: status.counts,
    bytesSent: running.reduce((sum, item) => sum + item.bytesSent, 0),
    bytesTotal: running.reduce((sum, item) => sum + (item.bytesTotal ?? 0), 0),
    contentPolicyAccepted: engine.contentPolicyAccepted(),
    watcherWarning: engine.serviceUrl() ? engine.syncParts().sync.watcherWarning : null,
  };
}
