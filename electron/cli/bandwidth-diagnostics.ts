import type { ProfilePaths } from '../engine/profile/profile';
import { readSettings } from '../engine/settings/profile-settings';
import { ENGLISH_INTL, type Words } from '../../shared/i18n/create-intl';

function limitWords(kbps: unknown, words: Words): string {
  return typeof kbps === 'number' && kbps > 0
    ? words.formatMessage({ id: 'cli.diagnostics.bandwidthRate' }, { rate: kbps })
    : words.formatMessage({ id: 'cli.diagnostics.bandwidthNoLimit' });
}

/** The bandwidth limits the profile's settings hold, in the words `status --diagnostics` prints (settings.json read). */
export function bandwidthDiagnostics(profile: ProfilePaths, words: Words = ENGLISH_INTL): string[] {
  try {
    const settings = readSettings(profile.settingsFile) as { maxUploadKBps?: unknown; maxDownloadKBps?: unknown };
    return [words.formatMessage({ id: 'cli.diagnostics.bandwidth' }, { uploads: limitWords(settings.maxUploadKBps, words), downloads: limitWords(settings.maxDownloadKBps, words) })];
  } catch (error) {
    return [words.formatMessage({ id: 'cli.diagnostics.bandwidthUnknown' }, { problem: (error as Error).message })];
  }
}
