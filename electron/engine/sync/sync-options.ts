import type { ServiceClient } from '../api/service-client';
import type { Session } from '../authorization/session';
import type { QueueStore } from '../queue/queue-store';
import type { SyncDatabase } from '../sync-state/sync-database';
import type { TrashFile, TrashMode } from './local-files';
import type { OwnDesignRef } from './remote-pass';
import type { WatchTimers } from './remote-watch';
import type { RemoteSummary, ScanSummary } from './sync-context';
import type { Said } from '../queue/said';

/**
 * The signed-in user's own designs (drafts included), read from the service whole; the app writes them to its cache
 * on the way (runtime/sync-parts.ts). `userId` is who they belong to (null when the service could not tell).
 */
export type OwnDesigns = (signal?: AbortSignal) => Promise<{ userId: number | null; designs: OwnDesignRef[] }>;

export interface SyncEngineOptions {
  db: SyncDatabase;
  client: ServiceClient;
  /** The sign-in state: while it needs a new sign-in, nothing is read from the service for sync (scans go on). */
  session?: Session | null;
  /** The profile's queue, shared with the queue runner so both see the same events. */
  queue: QueueStore;
  /** How long a new or changed file must keep its size and mtime before it is queued (default 2000 ms). */
  settleMs?: number;
  /** In a one-shot pass, how long to wait for files being written (default 60 s). */
  maxSettleWaitMs?: number;
  /** How long an empty file must stay empty before it is sent (default 60 s). */
  emptySettleMs?: number;
  /** The full rescan (local and service) that catches what the watcher missed (default 10 min). */
  rescanIntervalMs?: number;
  /** Events are gathered this long before a scan (default 300 ms). */
  debounceMs?: number;
  /**
   * While watching and stopped because the sync folder is not there (moved, deleted, its disk unmounted), how often
   * its path is looked at for its return (default 2000 ms: one lstat and one small read). No timer runs otherwise.
   */
  rootPollMs?: number;
  /** 'system' (default): the OS trash, falling back to <root>/.design-sync-trash; 'folder': always the fallback. */
  trash?: TrashMode | TrashFile;
  /** The own designs (for their folders). */
  ownDesigns: OwnDesigns;
  /**
   * While watching: how often the own designs' list is asked for (a conditional GET), so that changes made on the
   * service arrive within about this long (default 30 s; 0: only at full passes).
   */
  remotePollMs?: number;
  /** Timers of the remote watch (tests drive them). */
  watchTimers?: WatchTimers;
  /** Whether the service is reachable as far as the app knows: no poll is made while it is not. */
  online?: () => boolean;
  /**
   * Whether a new file of this design waits for the person before it is sent: the design's name when it does (review
   * before publishing is on and the design is published), null when it goes at once.
   */
  reviewBeforePublishing?: (designId: number) => string | null;
  now?: () => number;
}

export interface PassOptions {
  settle?: 'wait' | 'once';
  allowManyMissing?: boolean;
  /** Skip the service (offline use, benchmarks): only the folder is compared with the last synced state. */
  localOnly?: boolean;
  /** Only these top-level folders (local scan). */
  folders?: readonly string[];
  /** Only these designs' files from the service, and only their folders scanned (a decision was taken on one of them). */
  designIds?: readonly number[];
}

export interface PassResult {
  createdFolders: string[];
  remote: RemoteSummary | null;
  scan: ScanSummary | null;
  stopped: string | null;
  /** Why the service was not looked at (offline, sign-in needed), if it was not: facts and their English. */
  remoteSkipped: Said | null;
}
