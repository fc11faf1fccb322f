import type { AccountView, ActivityView, ConnectivityView, KeptDesignView, OwnDesignView, PullProgressView, PullView, QueueEntry, SyncView } from './views';
import type { ContractProblem } from './problems';
import type { UpdatesView } from '../updates/updates-view';

/** Every event a window receives: one map of event name → payload. */
export interface ContractEvents {
  /** Signed in, signed out, a sign-in refused by the service, a browser sign-in started or ended. */
  'account.changed': AccountView;
  /** A browser sign-in ended without signing in (denied, timed out, failed), in words. */
  'account.signInEnded': { outcome: 'signed-in' | 'denied' | 'timed-out' | 'cancelled' | 'failed'; message: string };
  'pull.progress': PullProgressView;
  /** A pull of the catalogue ended: what changed, or the problem that stopped it. */
  'pull.finished': { summary: PullView | null; problem: ContractProblem | null };
  /**
   * Designs of the cache changed (a pull, an edit, a search merged…): these ids changed or are new, these are gone;
   * `all` when too many changed to name (a pull of the catalogue): read again what is shown.
   */
  'designs.changed': { ids: number[]; removed: number[]; all: boolean };
  /** The signed-in user's own designs changed (in the cache, or their sync state): their views, and the ids gone. */
  'own.changed': { designs: OwnDesignView[]; removed: number[] };
  /** The overall sync state (and the queue's counts) changed. */
  'sync.changed': SyncView;
  /** A queue item changed (bytes sent included, a few times a second at most). */
  'queue.item': QueueEntry;
  /** A line of recent activity (file, direction, time). */
  'activity': ActivityView;
  'connectivity': ConnectivityView;
  /**
   * The search index is being filled behind a pull: how many cached designs a search cannot see yet (told about once
   * a second while it fills, and 0 once it is done). A search that said it could not see some is asked again.
   */
  'search.indexing': { waiting: number };
  /** A design kept offline moved on (a file downloaded, bytes of one, waiting for the service, ready, a problem). */
  'offline.progress': KeptDesignView;
  /** The desktop app's update state moved on (checking, downloading, ready, waiting for uploads, failed). */
  'updates.changed': UpdatesView;
}

export type EventName = keyof ContractEvents;
export const EVENT_NAMES: readonly EventName[] = ['account.changed', 'account.signInEnded', 'pull.progress', 'pull.finished', 'designs.changed', 'own.changed', 'sync.changed', 'queue.item', 'activity', 'connectivity', 'search.indexing', 'offline.progress', 'updates.changed'];
