import { Session } from '../authorization/session';
import type { TokenStore } from '../authorization/token-store';
import { openDesignCache } from '../cache/design-cache';
import { DEFAULT_FILE_CACHE_BYTES } from '../cache/file-cache';
import { ensureProfile, normalizeServiceUrl, type ProfilePaths } from '../profile/profile';
import { QueueStore } from '../queue/queue-store';
import { fileSettingsStore, type SettingsStore } from '../settings/settings-store';
import type { TrashMode } from '../sync/local-files';
import { openSyncDatabase } from '../sync-state/sync-database';
import { Engine } from './engine';

export interface OpenEngineOptions {
  /** The profile's folder (settings, cache, sync state; the token too for the file store). */
  profileDir: string;
  /** Where the token is kept: the CLI's 0600 file, safeStorage in the Electron shell. */
  tokenStore: (profile: ProfilePaths) => TokenStore;
  /** Where settings are kept: settings.json by default, electron-store in the Electron shell. */
  settingsStore?: (profile: ProfilePaths) => SettingsStore;
  /** A service address to use (and remember) from now on. */
  serviceUrl?: string;
  userAgent: string;
  /** Opens a web address in the person's browser: the sign-in page, a design's page (design.openPage). */
  openBrowser?: (url: string) => Promise<void>;
  /** How long a new or changed file must stay unchanged before it is queued (default 2000 ms). */
  settleMs?: number;
  /** Full rescans of the sync folder while in the background (default 10 min). */
  rescanIntervalMs?: number;
  trash?: TrashMode;
  signInTimeoutMs?: number;
}

/**
 * Opens one profile's engine: settings, session (its token loaded), cache, sync database and queue. Nothing runs
 * until a front end asks (a request, or startBackground()); close() ends it cleanly. Every front end opens the
 * engine this way and no other.
 */
export async function openEngine(options: OpenEngineOptions): Promise<Engine> {
  const profile = ensureProfile(options.profileDir);
  const settings = (options.settingsStore ?? ((paths) => fileSettingsStore(paths.settingsFile)))(profile);
  if (options.serviceUrl) {
    const url = normalizeServiceUrl(options.serviceUrl);
    if (settings.read().serviceUrl !== url) settings.update({ serviceUrl: url });
  }
  const session = new Session(options.tokenStore(profile));
  let tokenProblem: string | null = null;
  try {
    await session.load();
  } catch (error) {
    // An unusable token (a token file others can read…): signed out, and the reason kept for the person.
    tokenProblem = error instanceof Error ? error.message : String(error);
  }
  const cache = openDesignCache(profile, { maxBytes: settings.read().cacheLimitBytes ?? DEFAULT_FILE_CACHE_BYTES });
  let syncDb;
  try {
    syncDb = openSyncDatabase(profile.syncDatabase);
  } catch (error) {
    cache.close();
    throw error;
  }
  return new Engine({
    profile,
    settings,
    session,
    cache,
    syncDb,
    queue: new QueueStore(syncDb),
    userAgent: options.userAgent,
    tokenProblem,
    settleMs: options.settleMs ?? 2_000,
    rescanIntervalMs: options.rescanIntervalMs ?? 10 * 60_000,
    trash: options.trash ?? 'system',
    ...(options.openBrowser ? { openBrowser: options.openBrowser } : {}),
    ...(options.signInTimeoutMs ? { signInTimeoutMs: options.signInTimeoutMs } : {}),
  });
}
