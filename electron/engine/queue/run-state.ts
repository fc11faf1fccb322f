import type { SyncRunState } from '../../../shared';
import { engineLog } from '../log/engine-log';
import { statementsOf, type SyncDatabase } from '../sync-state/sync-database';
import { systemClock, type QueueClock, type QueueTimer } from './clock';

/** How far apart the end of a timed pause is checked, at most. */
const PAUSE_END_CHECK_MS = 60_000;

/** What the queue keeps of its run in sync_status: whether it is held, and since when the folder was compared. */
export interface QueueRunFacts {
  /** The sync folder is not there as it was: nothing leaves the queue until the folder side finds it back. */
  stopped: boolean;
  /** Why it stopped (null unless stopped). */
  reason: string | null;
  /** All uploads paused by the person (a timed pause whose end has come is over, written or not). */
  queuePaused: boolean;
  /** When a timed pause ends by itself (epoch ms), or null. */
  queuePausedUntil: number | null;
  lastScanAt: number | null;
}

/**
 * The queue's run state, the one writer of its columns of sync_status: the person's pause of all uploads (until they
 * resume it, or until a time), the hold while the sync folder is not there as it was ('stopped', with why), and the
 * time of the last scan. Whatever runs now (scanning, sending, waiting for the service) is never stored: the engine's
 * sync status (runtime/sync-status.ts) knows it, and a process killed mid-way leaves nothing behind that would lie.
 */
export class QueueRunState {
  private readonly sql: ReturnType<typeof statementsOf>;
  /** The timer that ends a timed pause of the uploads, and the end it was set for. */
  private pauseEnd: { until: number; timer: QueueTimer } | null = null;

  /** `pauseEnded`: a timed pause ended by itself (and its end was written). */
  constructor(
    private readonly db: SyncDatabase,
    private readonly now: () => number = Date.now,
    private readonly timers: Pick<QueueClock, 'setTimer' | 'clearTimer'> = systemClock,
    private readonly pauseEnded: () => void = () => {},
  ) {
    this.sql = statementsOf(db);
  }

  /**
   * Pauses or resumes all uploads. A pause `until` a time (epoch ms) ends by itself then, in this process or whichever
   * reads the state after it (a restart keeps it: it is stored with the pause).
   */
  setPaused(paused: boolean, until: number | null = null): void {
    if (paused && until !== null && !(Number.isSafeInteger(until) && until > this.now())) throw new RangeError(`A pause must end later than now, got ${until}.`);
    this.sql(`UPDATE sync_status SET queue_paused = ?, queue_paused_until = ?, updated_at = ? WHERE id = 1`).run(paused ? 1 : 0, paused ? until : null, this.now());
  }

  /** 'stopped' (with why) while the sync folder is not there as it was; 'idle' otherwise. */
  setRunState(state: 'idle' | 'stopped', reason: string | null = null): void {
    this.sql(`UPDATE sync_status SET state = ?, reason = ?, updated_at = ? WHERE id = 1`).run(state, reason, this.now());
  }

  /** The folder was compared with the last synced state at `at`. */
  markScanned(at: number): void {
    this.sql('UPDATE sync_status SET last_scan_at = ? WHERE id = 1').run(at);
  }

  /** The state as stored, read now; the end of a timed pause not yet written is followed (and written when it comes). */
  read(): QueueRunFacts {
    const row = this.sql('SELECT state, reason, queue_paused, queue_paused_until, last_scan_at FROM sync_status WHERE id = 1').get() as {
      state: SyncRunState; reason: string | null; queue_paused: number; queue_paused_until: number | null; last_scan_at: number | null;
    };
    // A timed pause whose end has come is over, whether or not its end was written yet.
    const pausedUntil = row.queue_paused === 1 ? row.queue_paused_until : null;
    const queuePaused = row.queue_paused === 1 && (pausedUntil === null || pausedUntil > this.now());
    // One whose end is not written yet (its timer slept, or another process paused) has it written at once.
    this.followPauseEnd(pausedUntil);
    // States an older version stored (scanning, syncing, waiting…) said what a process did then, not now.
    const stopped = row.state === 'stopped';
    return { stopped, reason: stopped ? row.reason : null, queuePaused, queuePausedUntil: queuePaused ? pausedUntil : null, lastScanAt: row.last_scan_at };
  }

  /** Nothing leaves the queue now: paused by the person, or stopped until the sync folder is back. */
  holdsBack(): boolean {
    const facts = this.read();
    return facts.queuePaused || facts.stopped;
  }

  /**
   * Keeps one timer for the end of a timed pause. It wakes at most a minute apart, so that a computer that slept
   * past the end (its timers stand still meanwhile) resumes within a minute of waking.
   */
  private followPauseEnd(until: number | null): void {
    if (this.pauseEnd?.until === until) return;
    this.timers.clearTimer(this.pauseEnd?.timer);
    this.pauseEnd = null;
    if (until === null) return;
    const timer = this.timers.setTimer(() => {
      if (this.pauseEnd?.timer !== timer) return;
      this.pauseEnd = null;
      if (!this.db.open) return;
      if (this.now() < until) {
        this.followPauseEnd(until);
        return;
      }
      try {
        this.sql(`UPDATE sync_status SET queue_paused = 0, queue_paused_until = NULL, updated_at = ? WHERE id = 1 AND queue_paused = 1 AND queue_paused_until = ?`).run(this.now(), until);
        this.pauseEnded();
      } catch (error) {
        engineLog.warn('queue', 'the end of a timed pause could not be written (the status says it ended all the same)', error);
      }
    }, Math.max(0, Math.min(until - this.now(), PAUSE_END_CHECK_MS)));
    this.pauseEnd = { until, timer };
  }
}
