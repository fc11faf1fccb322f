import type { QueueEntry, SyncView, UploadProgressView } from '../contract/views';

/**
 * Upload progress in words: the only place they are made, so the window's header and queue list, the tray's tooltip
 * and `design-sync status` say the same ("Uploading 3 of 7 · 12 MB of 40 MB · about 20 s left").
 */

const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/** "512 B", "12 KB", "1.2 MB", "40 MB": one decimal below ten, whole numbers above. */
export function sizeWords(bytes: number): string {
  if (!(bytes >= 1024)) return `${Math.max(0, Math.round(bytes || 0))} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value < 10 ? (Math.round(value * 10) / 10).toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
  return `${shown} ${UNITS[unit]}`;
}

/** "1.2 MB/s". */
export function rateWords(bytesPerSecond: number): string {
  return `${sizeWords(bytesPerSecond)}/s`;
}

/** Rounded as a person would say it: "a few seconds left", "about 20 s left", "about 3 min left", "about 2 h left". */
export function timeLeftWords(seconds: number): string {
  if (seconds < 10) return 'a few seconds left';
  if (seconds < 60) return `about ${Math.min(55, Math.round(seconds / 5) * 5)} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  const rest = Math.round((minutes - hours * 60) / 10) * 10;
  if (hours >= 10 || rest === 0) return `about ${hours} h left`;
  return rest === 60 ? `about ${hours + 1} h left` : `about ${hours} h ${rest} min left`;
}

/** In whole percent, never 100 before the last byte. */
export function percentOf(sent: number, total: number): number | null {
  if (!(total > 0)) return null;
  const percent = Math.floor((Math.min(sent, total) / total) * 100);
  return sent < total ? Math.min(99, percent) : 100;
}

/** The parts of uploadProgressWords(): which file of how many, the bytes (when known), the time left (once known). */
export function uploadProgressParts(uploads: UploadProgressView): { files: string; bytes: string | null; timeLeft: string | null } {
  const { filesDone, filesSending, filesTotal } = uploads;
  const current = Math.min(filesTotal, filesDone + Math.max(1, filesSending));
  return {
    files: `Uploading ${current} of ${filesTotal}`,
    bytes: uploads.bytesTotal > 0 ? `${sizeWords(uploads.bytesSent)} of ${sizeWords(uploads.bytesTotal)}` : null,
    timeLeft: uploads.secondsLeft !== null && uploads.bytesPerSecond !== null && uploads.bytesSent < uploads.bytesTotal ? timeLeftWords(uploads.secondsLeft) : null,
  };
}

/** "Uploading 3 of 7 · 12 MB of 40 MB · about 20 s left" (the time once the rate is known). */
export function uploadProgressWords(uploads: UploadProgressView): string {
  const { files, bytes, timeLeft } = uploadProgressParts(uploads);
  return [files, bytes, timeLeft].filter((part) => part !== null).join(' · ');
}

/** Whether sync is sending files of a burst now (not paused, offline…: then the state's own words say why). */
export function isUploading(sync: Pick<SyncView, 'state' | 'uploads'>): sync is Pick<SyncView, 'state'> & { uploads: UploadProgressView } {
  return sync.state === 'syncing' && !!sync.uploads && sync.uploads.filesTotal > 0;
}

/** The overall upload progress when sync is sending files, else null. */
export function syncUploadWords(sync: Pick<SyncView, 'state' | 'uploads'>): string | null {
  return isUploading(sync) ? uploadProgressWords(sync.uploads) : null;
}

/** One file being sent: "42% · 1.2 MB of 3 MB · 400 KB/s" (the rate once known). Null before its size is known. */
export function fileProgressWords(item: Pick<QueueEntry, 'bytesSent' | 'bytesTotal' | 'bytesPerSecond'>): string | null {
  if (item.bytesTotal === null || item.bytesTotal === undefined) return null;
  const percent = percentOf(item.bytesSent, item.bytesTotal);
  const parts = [`${percent ?? 0}%`, `${sizeWords(item.bytesSent)} of ${sizeWords(item.bytesTotal)}`];
  // Every byte handed over, the upload is not done until the service says it has the file.
  if (item.bytesSent >= item.bytesTotal) parts.push('waiting for the service to answer');
  else if (item.bytesPerSecond !== null && item.bytesPerSecond !== undefined) parts.push(rateWords(item.bytesPerSecond));
  return parts.join(' · ');
}
