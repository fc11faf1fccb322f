import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ServiceClient } from '../engine/api/service-client';
import { ServiceBindingError } from '../engine/authorization/service-binding';
import type { TokenStore } from '../engine/authorization/token-store';
import { ensureProfile, normalizeServiceUrl, ProfileError, type ProfilePaths } from '../engine/profile/profile';
import { normalizeWebAddress, webAddressOf } from '../engine/profile/web-address';
import { servicesOf, type EngineServices } from '../engine/composition/engine-services';
import type { Engine } from '../engine/runtime/engine';
import { openEngine, type OpenEngineOptions } from '../engine/runtime/open-engine';
import { fileSettingsStore, MAX_RATE_KBPS } from '../engine/settings/settings-store';
import { ProxyAddressError } from '../engine/api/proxy-agents';
import { ENGLISH_INTL, type Words } from '../../shared/i18n/create-intl';
import { wordedOr, type EngineWords } from '../../shared/i18n/engine-words';
import type { MessageId } from '../../shared/i18n/messages';

/** A refusal as a message of the catalogs and its values (text not ours, e.g. an address, as a value). */
export interface CliErrorWords {
  id: MessageId;
  values?: Record<string, string | number>;
}

/**
 * A mistake in how the command was called, or a state it cannot go on from: printed, exit 1. One made with `words`
 * (CliError.of, or the engine's facts) is printed in the person's language; its message is the English, for the log
 * and for code.
 */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1, readonly words: EngineWords | null = null) {
    super(message);
    this.name = 'CliError';
  }

  /** A refusal in the catalogs' words, said in the command's language where runCli prints it. */
  static of(id: MessageId, values?: Record<string, string | number>): CliError {
    return new CliError(ENGLISH_INTL.formatMessage({ id }, values), 1, { id, ...(values ? { values } : {}) });
  }
}

/** An engine sentence's facts as a refusal's words, when none of its values is a sentence of its own. */
export function flatWords(words: EngineWords | null): CliErrorWords | null {
  if (!words) return null;
  const values = Object.entries(words.values ?? {});
  if (values.some(([, value]) => typeof value === 'object')) return null;
  return { id: words.id, ...(words.values ? { values: Object.fromEntries(values) as Record<string, string | number> } : {}) };
}

export interface GlobalOptions {
  /**
   * Not checked before it is remembered (unlike the window's Settings, runtime/service-check.ts): the command that
   * uses it asks the service at once and fails loudly, naming the address, when nothing answers there.
   */
  service?: string;
  /** The service's web address (sign-in and design pages), remembered like --service; '' goes back to the derived one. */
  webUrl?: string;
  profile?: string;
  /** With --service: sign out of the service the profile is signed in to, then use --service. */
  switchService?: boolean;
  /** The upload limit in KB/s, remembered by the profile ('0': none). */
  maxUploadRate?: string;
  /** The download limit in KB/s, remembered by the profile ('0': none). */
  maxDownloadRate?: string;
  /** This run's proxy (http://user:password@host:port, host:port, 'none' or 'system'), over the profile's; not remembered. */
  proxy?: string;
}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Standard input as text (for `login --with-token`). */
  readStdin(): Promise<string>;
  /** Asks a yes/no question on a terminal; null when there is no terminal to ask on. */
  confirm?(question: string): Promise<boolean | null>;
}

/** What a command may set when it opens the engine (the first call opens it; later calls get the same one). */
export type EngineTuning = Pick<OpenEngineOptions, 'settleMs' | 'rescanIntervalMs' | 'remotePollMs' | 'openBrowser' | 'signInTimeoutMs'> & {
  /** Open even when the stored token cannot be used (login replaces it). */
  ignoreTokenProblem?: boolean;
  /**
   * Open on the profile's remembered service, leaving --service for the command to apply (logout: signing out of one
   * service while naming another is not refused).
   */
  keepService?: boolean;
};

export interface CliContext {
  profile: ProfilePaths;
  io: CliIo;
  /**
   * The service this command uses: --service, or the one the profile remembers. --service is remembered when the
   * engine opens, and refused there when the profile is signed in to another service (unless --switch-service).
   */
  serviceUrl(): string;
  /** The --service given to this command (normalized), or null. */
  requestedService(): string | null;
  /** Where the browser signs in and design pages open: --web-url, else the profile's (derived from the service address). */
  webUrl(): string;
  tokenStore(): TokenStore;
  /**
   * The profile's engine, opened once for the command and closed when it ends: only the context itself and the
   * commands that host the window or stop the background work use it; every other command uses services().
   */
  engine(tuning?: EngineTuning): Promise<Engine>;
  /** The engine's services (composition/engine-services.ts), the engine opened once for the command. */
  services(tuning?: EngineTuning): Promise<EngineServices>;
  /** The engine's client for the profile's service (with the stored token). */
  client(): Promise<ServiceClient>;
  /** Closes the engine if a command opened it (runCli calls this when the command ends). */
  close(): Promise<void>;
}

export const DEFAULT_PROFILE_DIR = join(homedir(), '.design-sync');
export const USER_AGENT = 'design-sync-cli';

/** The profile's folders, made if needed; one that cannot be used is said plainly (never EEXIST, EACCES…). */
function openProfile(root: string): ProfilePaths {
  try {
    return ensureProfile(root, 'cli');
  } catch (error) {
    if (error instanceof ProfileError) throw new CliError(error.message, 1, error.words);
    throw error;
  }
}

function requestedService(raw: string): string {
  try {
    return normalizeServiceUrl(raw);
  } catch (error) {
    throw CliError.of('cli.context.serviceInvalid', { problem: (error as Error).message });
  }
}

/** A token belongs to its service: another --service on a signed-in profile is refused, saying what to do instead. */
export function refusedService({ signedInTo, requested }: ServiceBindingError): CliError {
  return CliError.of('cli.context.otherService', { signedInTo, requested });
}

/** A rate the person typed, in KB/s: a whole number from 0 (no limit) to MAX_RATE_KBPS. */
function rateOption(flag: string, raw: string): number {
  const text = raw.trim().replace(/\s*KB\/s$/i, '');
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value > MAX_RATE_KBPS) {
    throw CliError.of('cli.context.rateInvalid', { flag, max: MAX_RATE_KBPS, given: JSON.stringify(raw) });
  }
  return value;
}

/** --max-upload-rate and --max-download-rate as settings, or null when neither was given. */
function bandwidthOptions(options: GlobalOptions): { maxUploadKBps?: number; maxDownloadKBps?: number } | null {
  if (options.maxUploadRate === undefined && options.maxDownloadRate === undefined) return null;
  return {
    ...(options.maxUploadRate !== undefined ? { maxUploadKBps: rateOption('--max-upload-rate', options.maxUploadRate) } : {}),
    ...(options.maxDownloadRate !== undefined ? { maxDownloadKBps: rateOption('--max-download-rate', options.maxDownloadRate) } : {}),
  };
}

export function createCliContext(
  options: GlobalOptions,
  io: CliIo,
  makeTokenStore: (profile: ProfilePaths) => TokenStore,
  words: Words = ENGLISH_INTL,
): CliContext {
  const profile = openProfile(options.profile ?? process.env.DESIGN_SYNC_PROFILE ?? DEFAULT_PROFILE_DIR);
  const settings = fileSettingsStore(profile.settingsFile);
  if (options.switchService && !options.service) throw CliError.of('cli.context.switchNeedsService');
  const limits = bandwidthOptions(options);
  if (limits) settings.update(limits);
  let store: TokenStore | undefined;
  let opened: Promise<Engine> | undefined;
  const context: CliContext = {
    profile,
    io,
    serviceUrl() {
      if (options.service) return requestedService(options.service);
      const remembered = settings.read().serviceUrl;
      if (remembered) return remembered;
      throw CliError.of('cli.context.noService', { profile: profile.root });
    },
    requestedService() {
      return options.service ? requestedService(options.service) : null;
    },
    webUrl() {
      const serviceUrl = context.serviceUrl();
      if (options.webUrl === undefined) return webAddressOf({ serviceUrl, webUrl: settings.read().webUrl })!;
      if (options.webUrl.trim() === '') return webAddressOf({ serviceUrl })!;
      try {
        return normalizeWebAddress(options.webUrl);
      } catch (error) {
        throw CliError.of('cli.context.webUrlInvalid', { problem: (error as Error).message });
      }
    },
    tokenStore() {
      return (store ??= makeTokenStore(profile));
    },
    async engine(tuning = {}) {
      const { ignoreTokenProblem, keepService, ...engineTuning } = tuning;
      opened ??= (async () => {
        const serviceUrl = options.service && !keepService ? context.serviceUrl() : undefined;
        let engine: Engine;
        try {
          engine = await openEngine({
            profileDir: profile.root,
            tokenStore: () => context.tokenStore(),
            settingsStore: () => settings,
            userAgent: USER_AGENT,
            ...(serviceUrl ? { serviceUrl } : {}),
            ...(options.webUrl !== undefined ? { webUrl: options.webUrl.trim() === '' ? '' : context.webUrl() } : {}),
            ...(options.switchService ? { switchService: true } : {}),
            ...(options.proxy !== undefined ? { proxy: options.proxy } : {}),
            onServiceSwitched: (from, to) => io.err(words.formatMessage({ id: 'cli.context.serviceSwitched' }, { from, to })),
            ...engineTuning,
          });
        } catch (error) {
          if (error instanceof ServiceBindingError) throw refusedService(error);
          if (error instanceof ProxyAddressError) throw CliError.of('cli.context.proxyInvalid', { problem: error.message });
          throw error;
        }
        // A profile trying the sample service: started (or the one another process runs used) before a command asks it.
        await engine.sampleService.resume();
        if (engine.sampleService.problem) io.err(words.formatMessage({ id: 'cli.common.warning' }, { warning: wordedOr(words, engine.sampleService.problemWords, engine.sampleService.problem) }));
        return engine;
      })();
      const engine = await opened;
      if (engine.account.tokenProblem && !ignoreTokenProblem) throw new CliError(engine.account.tokenProblem, 1, flatWords(engine.account.tokenProblemWords));
      return engine;
    },
    async services(tuning = {}) {
      return servicesOf(await context.engine(tuning));
    },
    async client() {
      context.serviceUrl();
      return (await context.services()).connection.client();
    },
    async close() {
      const engine = opened;
      opened = undefined;
      await (await engine?.catch(() => null))?.close();
    },
  };
  return context;
}
