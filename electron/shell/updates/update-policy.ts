import type { SyncView } from '../../../shared';

/** How often design-sync asks its feed for a newer version once it runs (and once at start, after STARTUP_CHECK_DELAY_MS). */
export const CHECK_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** The first check waits for the app to have started (the window, the engine's first pass) rather than compete with it. */
export const STARTUP_CHECK_DELAY_MS = 30 * 1000;
/** After a failed check: 15 min, then 1 h, 4 h, and at most a day between tries. */
export const FIRST_RETRY_MS = 15 * 60 * 1000;

/** When to try again after `failures` checks in a row failed (1 for the first). */
export function retryDelayMs(failures: number): number {
  return Math.min(CHECK_INTERVAL_MS, FIRST_RETRY_MS * 4 ** Math.max(0, failures - 1));
}

/**
 * Whether files are being sent (or the engine is sending the queue) right now: an update never installs then. Before the
 * engine has told its state, it is not known, so it counts as under way. Files that merely wait (paused, offline,
 * waiting for the person) are not under way: they stay in the queue across the restart.
 */
export function uploadsUnderWay(sync: SyncView | null): boolean {
  if (sync === null) return true;
  return sync.counts.running > 0 || sync.runState === 'syncing';
}

/** What the person is told while "Restart now" waits for the queue. */
export function waitingForUploadsWords(sync: SyncView | null): string {
  if (sync === null) return 'Waiting for sync to report its state before restarting.';
  const running = sync.counts.running;
  return running > 0
    ? `Waiting for ${running} file${running === 1 ? '' : 's'} being sent to finish before restarting.`
    : 'Waiting for sync to finish sending before restarting.';
}
