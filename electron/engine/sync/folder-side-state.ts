/** Why the last full pass could not read the service: offline, the sign-in missing or refused, or a problem of the service's own. */
export type RemoteProblem = 'offline' | 'sign-in' | 'service-failed';

/** What the folder side (SyncEngine) tells the sync status, as facts: never stored, never in words but the stop's and the watcher's. */
export interface FolderSideState {
  phase: 'idle' | 'scanning' | 'stopped';
  /** Why sync is stopped (the sync folder is not there as it was…), in words, or null. */
  stoppedReason: string | null;
  /** The watcher's failure, in words (sync goes on with rescans), or null. */
  watcherWarning: string | null;
  remoteProblem: RemoteProblem | null;
}
