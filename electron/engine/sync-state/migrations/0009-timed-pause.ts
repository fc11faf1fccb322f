import type Database from 'better-sqlite3';

/**
 * A pause of the uploads may end by itself ("Pause for 1 hour", "until tomorrow"): `queue_paused_until` is when (epoch
 * ms), or NULL for a pause until the person resumes. Kept with the pause, so that a restart keeps both.
 */
export function migration0009TimedPause(db: Database.Database): void {
  db.exec('ALTER TABLE sync_status ADD COLUMN queue_paused_until INTEGER');
}
