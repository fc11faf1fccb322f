import type { ServiceClient } from '../api/service-client';
import type { BaseFiles } from '../sync-state/base-files';
import type { DesignFolders } from '../sync-state/design-folders';
import type { QueueClock } from './clock';
import type { FolderChecks } from './folder-checks';
import type { JobContext } from './job';
import type { JobStore } from './job-store';
import type { QueueStore } from './queue-store';

/** What every job context of a runner shares. */
export interface JobContextParts {
  client: ServiceClient;
  /** The attempt's own writes (what is being sent, progress, activity lines). */
  store: Pick<QueueStore, 'markSending' | 'confirmSending' | 'progress' | 'log'>;
  /** What a job may change besides its attempt. */
  jobStore: JobStore;
  baseFiles: BaseFiles;
  designFolders: DesignFolders;
  folder: FolderChecks;
  clock: QueueClock;
  settleMs: number;
  /** Progress is stored at most this often per item. */
  progressIntervalMs: number;
}

/** The context one attempt of item `itemId` runs in. */
export function jobContext(parts: JobContextParts, itemId: number, signal: AbortSignal): JobContext {
  const { store, clock } = parts;
  let lastProgress = 0;
  return {
    client: parts.client,
    store: parts.jobStore,
    baseFiles: parts.baseFiles,
    designFolders: parts.designFolders,
    root: () => parts.folder.root(),
    rootProblem: () => parts.folder.rootProblem(),
    signal,
    now: () => clock.now(),
    settleMs: parts.settleMs,
    sending: (sent, options) => store.markSending(itemId, sent, options),
    confirmSending: (sha1) => store.confirmSending(itemId, sha1),
    progress: (sentBytes, totalBytes) => {
      const now = clock.now();
      if (sentBytes < totalBytes && now - lastProgress < parts.progressIntervalMs) return;
      lastProgress = now;
      store.progress(itemId, sentBytes, totalBytes);
    },
    log: (level, message, path = null) => store.log(level, message, path),
  };
}
