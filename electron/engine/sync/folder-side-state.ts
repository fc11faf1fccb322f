import type { EngineWords } from '../../../shared/i18n/engine-words';

/** Why the last full pass could not read the service: offline, the sign-in missing or refused, or a problem of the service's own. */
export type RemoteProblem = 'offline' | 'sign-in' | 'service-failed';

/** What the folder side (SyncEngine) tells the sync status, as facts: never stored, never in words but the stop's and the watcher's. */
export interface FolderSideState {
  phase: 'idle' | 'scanning' | 'stopped';
  /** Why sync is stopped (the sync folder is not there as it was…), in English, or null. */
  stoppedReason: string | null;
  /** Its facts, which the front ends word (null: said only in English, or not stopped). */
  stoppedWords: EngineWords | null;
  /** The watcher's failure, in English (sync goes on with rescans), or null. */
  watcherWarning: string | null;
  /** Its facts, which the front ends word, or null. */
  watcherWords: EngineWords | null;
  remoteProblem: RemoteProblem | null;
}

/**
 * The folder side's facts as the sync engine's parts set them: the stop (set by the context's stop, lifted by a pass
 * that finds the folder back), the watcher's problem, what the last full pass met on the service, and the phase
 * (told at once, as a 'state' event).
 */
export class FolderSide {
  stoppedReason: string | null = null;
  /** The facts of the last stop; they count only while stoppedReason is set. */
  stoppedWords: EngineWords | null = null;
  watcherWarning: string | null = null;
  watcherWords: EngineWords | null = null;
  remoteProblem: RemoteProblem | null = null;
  private phase: 'idle' | 'scanning' = 'idle';

  constructor(private readonly told: () => void) {}

  setPhase(phase: 'idle' | 'scanning'): void {
    this.phase = phase;
    this.told();
  }

  get state(): FolderSideState {
    return {
      phase: this.stoppedReason !== null ? 'stopped' : this.phase,
      stoppedReason: this.stoppedReason,
      stoppedWords: this.stoppedReason === null ? null : this.stoppedWords,
      watcherWarning: this.watcherWarning,
      watcherWords: this.watcherWarning === null ? null : this.watcherWords,
      remoteProblem: this.remoteProblem,
    };
  }
}
