import { join } from 'node:path';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import { englishOf, errorWords } from '../../../shared/i18n/worded-error';
import { parseProxyAddress } from '../api/proxy-agents';
import { FileTokenStore } from '../authorization/file-token-store';
import { sameService, ServiceBindingError } from '../authorization/service-binding';
import { Session } from '../authorization/session';
import type { TokenStore } from '../authorization/token-store';
import { openDesignCache } from '../cache/design-cache';
import { CacheDatabaseFromTheFutureError } from '../cache/cache-database';
import { DEFAULT_FILE_CACHE_BYTES } from '../cache/file-cache';
import { engineLog, engineLogPath, FileLog } from '../log/engine-log';
import { ensureProfile, normalizeServiceUrl, type ProfilePaths } from '../profile/profile';
import { QueueStore } from '../queue/queue-store';
import { fileSettingsStore, settingsTokenServiceRecord, type SettingsStore } from '../settings/settings-store';
import { ProxySetup, proxyOverride } from './proxy-setup';
import type { StartAtLoginHost } from '../settings/start-at-login';
import type { TrashMode } from '../sync/local-files';
import { openSyncDatabase, SyncDatabaseDamagedError, SyncDatabaseFromTheFutureError } from '../sync-state/sync-database';
import { saveWebAddress } from './service-address';
import { Engine } from './engine';
import { EngineError } from './engine-error';

/** A database the engine must not open (damaged sync state, a newer version's): its words, as the engine's problem. */
function refusedDatabase(error: unknown): unknown {
  const refused = error instanceof SyncDatabaseDamagedError || error instanceof SyncDatabaseFromTheFutureError || error instanceof CacheDatabaseFromTheFutureError;
  if (!refused) return error;
  engineLog.error('engine', 'the profile cannot be opened', error);
  return new EngineError({ kind: 'internal', message: error.message });
}

export interface OpenEngineOptions {
  /** The profile's folder (settings, cache, sync state; the token too for the file store). */
  profileDir: string;
  /** Where the token is kept: the CLI's 0600 file, safeStorage in the Electron shell. */
  tokenStore: (profile: ProfilePaths) => TokenStore;
  /** Where settings are kept: settings.json by default, electron-store in the Electron shell. */
  settingsStore?: (profile: ProfilePaths) => SettingsStore;
  /** A service address to use (and remember) from now on. */
  serviceUrl?: string;
  /** A web address (sign-in and design pages) to use and remember; '' goes back to the one derived from the service address. */
  webUrl?: string;
  userAgent: string;
  /** Opens a web address in the person's browser: the sign-in page, a design's page (design.openPage). */
  openBrowser?: (url: string) => Promise<void>;
  /** The desktop app's login item (only the Electron shell has one: settings/start-at-login.ts). */
  startAtLogin?: StartAtLoginHost;
  /** How long a new or changed file must stay unchanged before it is queued (default 2000 ms). */
  settleMs?: number;
  /** Full rescans of the sync folder while in the background (default 10 min). */
  rescanIntervalMs?: number;
  trash?: TrashMode;
  signInTimeoutMs?: number;
  /** While in the background, how often the own designs' list is polled for the service's changes (default 30 s). */
  remotePollMs?: number;
  /**
   * With `serviceUrl` another service than the one the profile is signed in to: sign out of that one first (its token
   * removed), then use `serviceUrl`. Without it, that is refused (ServiceBindingError) before anything is opened or sent.
   */
  switchService?: boolean;
  /** Told when switchService signed out of `from` to use `to`. */
  onServiceSwitched?: (from: string, to: string) => void;
  /** This run's proxy over the profile's (`--proxy`: an address with or without user:password@, 'none' or 'system'). */
  proxy?: string;
  /** Where the manual proxy's password is kept: the profile's proxy-password file (0600) by default, safeStorage in the shell. */
  proxySecretStore?: (profile: ProfilePaths) => TokenStore;
  /** The system's proxy for the service as the Electron shell resolved it (null: direct); absent where none can ask. */
  systemProxy?: string | null;
  /**
   * The system's languages, most important first, as the desktop app asks them of the system: what a language setting
   * of 'system' means for the pages the engine serves. Absent: the environment's (LC_ALL, LC_MESSAGES, LANG, LANGUAGE).
   */
  systemLanguages?: readonly string[];
}

/** Why the stored sign-in cannot be used: its English and, when known, its facts. */
interface TokenProblem {
  text: string;
  words: EngineWords | null;
}

/** The manual proxy's password file in the CLI's profile: kept like the token file (0600, never logged). */
export function proxyPasswordFile(profile: ProfilePaths): string {
  return join(profile.root, 'proxy-password');
}

/**
 * A token belongs to the service that issued it: `serviceUrl` is applied only when the profile is not signed in to
 * another one (or switchService signed it out first). Returns why the stored token is set aside, when it is issued for
 * another service than the one remembered (the address was changed by something else): it is then not used at all.
 */
async function bindService(options: OpenEngineOptions, settings: SettingsStore, session: Session): Promise<EngineWords | null> {
  const signedInTo = session.tokenService;
  if (options.serviceUrl) {
    const url = normalizeServiceUrl(options.serviceUrl);
    if (signedInTo !== null && !sameService(signedInTo, url)) {
      if (!options.switchService) throw new ServiceBindingError(signedInTo, url);
      // The old sign-in goes first: its token is never sent to the new service.
      await session.signOut();
      engineLog.info('engine', `signed out of ${signedInTo} to use ${url}`);
      options.onServiceSwitched?.(signedInTo, url);
    }
    const remembered = settings.read().serviceUrl;
    if (remembered === undefined || !sameService(remembered, url)) settings.update({ serviceUrl: url });
  }
  const tokenService = session.tokenService;
  const remembered = settings.read().serviceUrl;
  if (tokenService === null) return null;
  if (remembered === undefined) {
    settings.update({ serviceUrl: tokenService });
    return null;
  }
  if (sameService(tokenService, remembered)) return null;
  session.setAside();
  engineLog.warn('engine', `the stored token is for ${tokenService}, the profile's service is ${remembered}: not used`);
  return { id: 'account.tokenFile.otherService', values: { tokenService, remembered } };
}

/**
 * Opens one profile's engine: settings, session (its token loaded), cache, sync database and queue. Nothing runs
 * until a front end asks (a request, or startBackground()); close() ends it cleanly. Every front end opens the
 * engine this way and no other.
 */
export async function openEngine(options: OpenEngineOptions): Promise<Engine> {
  const profile = ensureProfile(options.profileDir);
  // The process's engine log, in the profile (logs/engine.log), with the session's tokens kept out of it.
  const log = new FileLog(engineLogPath(profile.root));
  engineLog.use(log);
  engineLog.info('engine', `opening the profile ${profile.root} (Node ${process.versions.node}${process.versions.electron ? `, Electron ${process.versions.electron}` : ''})`);
  const settings = (options.settingsStore ?? ((paths) => fileSettingsStore(paths.settingsFile)))(profile);
  const session = new Session(options.tokenStore(profile), settingsTokenServiceRecord(settings));
  log.keepOut(() => [session.currentToken()]);
  let tokenProblem: TokenProblem | null = null;
  try {
    await session.load();
  } catch (error) {
    // An unusable token (a token file others can read…): signed out, and the reason kept for the person, with its facts.
    tokenProblem = { text: error instanceof Error ? error.message : String(error), words: errorWords(error) };
    engineLog.warn('engine', 'the stored token cannot be used; signed out', error);
  }
  // The proxy before anything is asked of the service; its passwords kept out of the log.
  const override = options.proxy !== undefined ? proxyOverride(options.proxy) : null;
  if (override?.manualUrl) parseProxyAddress(override.manualUrl);
  const proxy = new ProxySetup(settings, (options.proxySecretStore ?? ((paths) => new FileTokenStore(proxyPasswordFile(paths))))(profile), override, options.systemProxy);
  log.keepOut(() => proxy.secrets());
  await proxy.load();
  log.secrets();
  const otherService = await bindService(options, settings, session);
  if (otherService) tokenProblem = { text: englishOf(otherService), words: otherService };
  if (options.webUrl !== undefined) saveWebAddress(settings, options.webUrl);
  let cache;
  try {
    cache = openDesignCache(profile, { maxBytes: settings.read().cacheLimitBytes ?? DEFAULT_FILE_CACHE_BYTES });
  } catch (error) {
    throw refusedDatabase(error);
  }
  let syncDb;
  try {
    syncDb = openSyncDatabase(profile.syncDatabase);
  } catch (error) {
    cache.close();
    throw refusedDatabase(error);
  }
  return new Engine({
    profile,
    settings,
    session,
    cache,
    syncDb,
    queue: new QueueStore(syncDb),
    userAgent: options.userAgent,
    tokenProblem: tokenProblem?.text ?? null,
    tokenProblemWords: tokenProblem?.words ?? null,
    proxy,
    settleMs: options.settleMs ?? 2_000,
    rescanIntervalMs: options.rescanIntervalMs ?? 10 * 60_000,
    trash: options.trash ?? 'system',
    ...(options.openBrowser ? { openBrowser: options.openBrowser } : {}),
    ...(options.startAtLogin ? { startAtLogin: options.startAtLogin } : {}),
    ...(options.signInTimeoutMs ? { signInTimeoutMs: options.signInTimeoutMs } : {}),
    ...(options.remotePollMs !== undefined ? { remotePollMs: options.remotePollMs } : {}),
    ...(options.systemLanguages ? { systemLanguages: options.systemLanguages } : {}),
  });
}
