import type { QueueEntry, SyncView, UploadProgressView } from '../contract/views';
import { ENGLISH_INTL, type Words } from '../i18n/create-intl';
import type { MessageId } from '../i18n/messages';

/**
 * Upload progress in words: the only place they are made, so the window's header and queue list, the tray's tooltip
 * and `design-sync status` say the same ("Uploading 3 of 7 · 12 MB of 40 MB · about 20 s left").
 */

const UNITS: MessageId[] = ['format.bytesRounded.kb', 'format.bytesRounded.mb', 'format.bytesRounded.gb', 'format.bytesRounded.tb'];

/** "512 B", "12 KB", "1.2 MB", "40 MB": one decimal below ten, whole numbers above ("1,2 MB" in German). */
export function sizeWords(bytes: number, intl: Words = ENGLISH_INTL): string {
  if (!(bytes >= 1024)) return intl.formatMessage({ id: 'format.bytesRounded.b' }, { value: Math.max(0, Math.round(bytes || 0)) });
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  return intl.formatMessage({ id: UNITS[unit]! }, { value: shown });
}

/** "1.2 MB/s". */
export function rateWords(bytesPerSecond: number, intl: Words = ENGLISH_INTL): string {
  return intl.formatMessage({ id: 'format.rate' }, { size: sizeWords(bytesPerSecond, intl) });
}

/** Rounded as a person would say it: "a few seconds left", "about 20 s left", "about 3 min left", "about 2 h left". */
export function timeLeftWords(seconds: number, intl: Words = ENGLISH_INTL): string {
  if (seconds < 10) return intl.formatMessage({ id: 'sync.upload.timeLeft.fewSeconds' });
  if (seconds < 60) return intl.formatMessage({ id: 'sync.upload.timeLeft.seconds' }, { seconds: Math.min(55, Math.round(seconds / 5) * 5) });
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return intl.formatMessage({ id: 'sync.upload.timeLeft.minutes' }, { minutes });
  const hours = Math.floor(minutes / 60);
  const rest = Math.round((minutes - hours * 60) / 10) * 10;
  if (hours >= 10 || rest === 0) return intl.formatMessage({ id: 'sync.upload.timeLeft.hours' }, { hours });
  return rest === 60
    ? intl.formatMessage({ id: 'sync.upload.timeLeft.hours' }, { hours: hours + 1 })
    : intl.formatMessage({ id: 'sync.upload.timeLeft.hoursMinutes' }, { hours, minutes: rest });
}

/** In whole percent, never 100 before the last byte. */
export function percentOf(sent: number, total: number): number | null {
  if (!(total > 0)) return null;
  const percent = Math.floor((Math.min(sent, total) / total) * 100);
  return sent < total ? Math.min(99, percent) : 100;
}

/** The parts of uploadProgressWords(): which file of how many, the bytes (when known), the time left (once known). */
export function uploadProgressParts(uploads: UploadProgressView, intl: Words = ENGLISH_INTL): { files: string; bytes: string | null; timeLeft: string | null } {
  const { filesDone, filesSending, filesTotal } = uploads;
  const current = Math.min(filesTotal, filesDone + Math.max(1, filesSending));
  return {
    files: intl.formatMessage({ id: 'sync.upload.files' }, { current, total: filesTotal }),
    bytes: uploads.bytesTotal > 0 ? bytesOf(uploads.bytesSent, uploads.bytesTotal, intl) : null,
    timeLeft: uploads.secondsLeft !== null && uploads.bytesPerSecond !== null && uploads.bytesSent < uploads.bytesTotal ? timeLeftWords(uploads.secondsLeft, intl) : null,
  };
}

/** "12 MB of 40 MB". */
function bytesOf(sent: number, total: number, intl: Words): string {
  return intl.formatMessage({ id: 'sync.upload.bytes' }, { sent: sizeWords(sent, intl), total: sizeWords(total, intl) });
}

/** "Uploading 3 of 7 · 12 MB of 40 MB · about 20 s left" (the time once the rate is known). */
export function uploadProgressWords(uploads: UploadProgressView, intl: Words = ENGLISH_INTL): string {
  const { files, bytes, timeLeft } = uploadProgressParts(uploads, intl);
  return [files, bytes, timeLeft].filter((part) => part !== null).join(' · ');
}

/** Whether sync is sending files of a burst now (not paused, offline…: then the state's own words say why). */
export function isUploading(sync: Pick<SyncView, 'state' | 'uploads'>): sync is Pick<SyncView, 'state'> & { uploads: UploadProgressView } {
  return sync.state === 'syncing' && !!sync.uploads && sync.uploads.filesTotal > 0;
}

/** The overall upload progress when sync is sending files, else null. */
export function syncUploadWords(sync: Pick<SyncView, 'state' | 'uploads'>, intl: Words = ENGLISH_INTL): string | null {
  return isUploading(sync) ? uploadProgressWords(sync.uploads, intl) : null;
}

/** One file being sent: "42% · 1.2 MB of 3 MB · 400 KB/s" (the rate once known). Null before its size is known. */
export function fileProgressWords(item: Pick<QueueEntry, 'bytesSent' | 'bytesTotal' | 'bytesPerSecond'>, intl: Words = ENGLISH_INTL): string | null {
  if (item.bytesTotal === null || item.bytesTotal === undefined) return null;
  const percent = percentOf(item.bytesSent, item.bytesTotal);
  const parts = [intl.formatMessage({ id: 'sync.upload.percent' }, { percent: percent ?? 0 }), bytesOf(item.bytesSent, item.bytesTotal, intl)];
  // Every byte handed over, the upload is not done until the service says it has the file.
  if (item.bytesSent >= item.bytesTotal) parts.push(intl.formatMessage({ id: 'sync.upload.waitingForService' }));
  else if (item.bytesPerSecond !== null && item.bytesPerSecond !== undefined) parts.push(rateWords(item.bytesPerSecond, intl));
  return parts.join(' · ');
}
