import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ServiceClient } from '../engine/api/service-client';
import type { TokenStore } from '../engine/authorization/token-store';
import { ensureProfile, normalizeServiceUrl, type ProfilePaths } from '../engine/profile/profile';
import type { Engine } from '../engine/runtime/engine';
import { openEngine, type OpenEngineOptions } from '../engine/runtime/open-engine';
import { fileSettingsStore } from '../engine/settings/settings-store';

/** A mistake in how the command was called, or a state it cannot go on from: printed as is, exit 1. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
    this.name = 'CliError';
  }
}

export interface GlobalOptions {
  service?: string;
  profile?: string;
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
export type EngineTuning = Pick<OpenEngineOptions, 'settleMs' | 'rescanIntervalMs' | 'openBrowser' | 'signInTimeoutMs'> & {
  /** Open even when the stored token cannot be used (login replaces it). */
  ignoreTokenProblem?: boolean;
};

export interface CliContext {
  profile: ProfilePaths;
  io: CliIo;
  /** The service this profile uses: --service (remembered), or the one remembered before. */
  serviceUrl(): string;
  tokenStore(): TokenStore;
  /** The profile's engine, opened once for the command and closed when it ends. */
  engine(tuning?: EngineTuning): Promise<Engine>;
  /** The engine's client for the profile's service (with the stored token). */
  client(): Promise<ServiceClient>;
  /** Closes the engine if a command opened it (runCli calls this when the command ends). */
  close(): Promise<void>;
}

export const DEFAULT_PROFILE_DIR = join(homedir(), '.design-sync');
export const USER_AGENT = 'design-sync-cli';

export function createCliContext(
  options: GlobalOptions,
  io: CliIo,
  makeTokenStore: (profile: ProfilePaths) => TokenStore,
): CliContext {
  const profile = ensureProfile(options.profile ?? process.env.DESIGN_SYNC_PROFILE ?? DEFAULT_PROFILE_DIR);
  const settings = fileSettingsStore(profile.settingsFile);
  let store: TokenStore | undefined;
  let opened: Promise<Engine> | undefined;
  const context: CliContext = {
    profile,
    io,
    serviceUrl() {
      if (options.service) {
        const url = normalizeServiceUrl(options.service);
        if (settings.read().serviceUrl !== url) settings.update({ serviceUrl: url });
        return url;
      }
      const remembered = settings.read().serviceUrl;
      if (remembered) return remembered;
      throw new CliError(`No service chosen for the profile ${profile.root}: pass --service <url> once (e.g. --service http://127.0.0.1:4010 for the local service).`);
    },
    tokenStore() {
      return (store ??= makeTokenStore(profile));
    },
    async engine(tuning = {}) {
      const { ignoreTokenProblem, ...engineTuning } = tuning;
      opened ??= (async () => {
        const serviceUrl = options.service ? context.serviceUrl() : undefined;
        return openEngine({
          profileDir: profile.root,
          tokenStore: () => context.tokenStore(),
          settingsStore: () => settings,
          userAgent: USER_AGENT,
          ...(serviceUrl ? { serviceUrl } : {}),
          ...engineTuning,
        });
      })();
      const engine = await opened;
      if (engine.tokenProblem && !ignoreTokenProblem) throw new CliError(engine.tokenProblem);
      return engine;
    },
    async client() {
      context.serviceUrl();
      return (await context.engine()).client();
    },
    async close() {
      const engine = opened;
      opened = undefined;
      await (await engine?.catch(() => null))?.close();
    },
  };
  return context;
}
