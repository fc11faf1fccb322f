import type { Statement } from 'better-sqlite3';

/**
 * A person cancelled a change of a file after the service refused it (or it failed): that version of the file stays
 * out of the queue until the file changes; a rescan does not bring the refusal back.
 */

type Sql = (text: string) => Statement;

/** A person's cancel of a change of a file that failed or was refused marks it dismissed (see dismissedVersions). */
export const DISMISS_ON_CANCEL = `CASE WHEN @dismiss = 1 AND kind IN ('upload', 'replace') AND state IN ('failed', 'attention') AND file_size IS NOT NULL
  AND json_valid(payload) THEN json_set(payload, '$.dismissed', json('true')) ELSE payload END`;

/**
 * Of these paths, those whose newest item is a dismissed change (a person cancelled it after the service refused it,
 * or it failed), with the file version it was about: the same version is not queued again until the file changes.
 */
export function dismissedVersions(sql: Sql, paths: readonly string[]): Map<string, DismissedVersion> {
  if (paths.length === 0) return new Map();
  const rows = sql(
    `SELECT path, design_id AS designId, file_size AS size, file_mtime_ms AS mtimeMs, file_sha1 AS sha1 FROM queue_items q
     WHERE path IN (SELECT value FROM json_each(?)) AND state = 'cancelled' AND json_valid(payload) AND json_extract(payload, '$.dismissed') = 1
       AND id = (SELECT max(id) FROM queue_items WHERE path = q.path)`,
  ).all(JSON.stringify(paths)) as (DismissedVersion & { path: string })[];
  return new Map(rows.map((row) => [row.path, row]));
}

export interface DismissedVersion {
  designId: number | null;
  size: number;
  mtimeMs: number;
  sha1: string | null;
}

/** Whether a file as it is now is the version a person dismissed (same design, size, time and, when known, content). */
export function isDismissedVersion(dismissed: DismissedVersion | undefined, now: { designId: number; size: number; mtimeMs: number; sha1: string }): boolean {
  if (!dismissed) return false;
  return dismissed.designId === now.designId && dismissed.size === now.size && Math.floor(dismissed.mtimeMs) === Math.floor(now.mtimeMs)
    && (dismissed.sha1 === null || dismissed.sha1 === now.sha1);
}
