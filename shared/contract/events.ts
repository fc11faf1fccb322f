import type { AccountView, ActivityView, ConnectivityView, PullProgressView, PullView, QueueEntry, SyncView } from './views';
import type { ContractProblem } from './problems';

/** Every event a window receives: one map of event name → payload. */
export interface ContractEvents {
  /** Signed in, signed out, a sign-in refused by the service, a browser sign-in started or ended. */
  'account.changed': AccountView;
  /** A browser sign-in ended without signing in (denied, timed out, failed), in words. */
  'account.signInEnded': { outcome: 'signed-in' | 'denied' | 'timed-out' | 'cancelled' | 'failed'; message: string };
  'pull.progress': PullProgressView;
  /** A catalogue or own-designs pull ended: what changed, or the problem that stopped it. */
  'pull.finished': { kind: 'catalogue' | 'own'; summary: PullView | null; problem: ContractProblem | null };
  /** The overall sync state (and the queue's counts) changed. */
  'sync.changed': SyncView;
  /** A queue item changed (bytes sent included, a few times a second at most). */
  'queue.item': QueueEntry;
  /** A line of recent activity (file, direction, time). */
  'activity': ActivityView;
  'connectivity': ConnectivityView;
}

export type EventName = keyof ContractEvents;
export const EVENT_NAMES: readonly EventName[] = ['account.changed', 'account.signInEnded', 'pull.progress', 'pull.finished', 'sync.changed', 'queue.item', 'activity', 'connectivity'];
