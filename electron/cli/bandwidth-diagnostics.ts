import type { ProfilePaths } from '../engine/profile/profile';
import { readSettings } from '../engine/settings/profile-settings';

function limitWords(kbps: unknown): string {
  return typeof kbps === 'number' && kbps > 0 ? `${kbps.toLocaleString('en-US')} KB/s` : 'no limit';
}

/** The bandwidth limits the profile's settings hold, in the words `status --diagnostics` prints (settings.json read). */
export function bandwidthDiagnostics(profile: ProfilePaths): string[] {
  try {
    const settings = readSettings(profile.settingsFile) as { maxUploadKBps?: unknown; maxDownloadKBps?: unknown };
    return [`Bandwidth limits: uploads ${limitWords(settings.maxUploadKBps)}, downloads ${limitWords(settings.maxDownloadKBps)} (1 KB = 1,024 bytes)`];
  } catch (error) {
    return [`Bandwidth limits: unknown (${(error as Error).message})`];
  }
}
