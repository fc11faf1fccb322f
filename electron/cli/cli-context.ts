import { homedir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../engine/api/service-client';
import type { TokenStore } from '../engine/authorization/token-store';
import { ensureProfile, normalizeServiceUrl, type ProfilePaths } from '../engine/profile/profile';
import { readSettings, writeSettings } from '../engine/settings/profile-settings';

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
}

export interface CliContext {
  profile: ProfilePaths;
  io: CliIo;
  /** The service this profile uses: --service (remembered), or the one remembered before. */
  serviceUrl(): string;
  tokenStore(): TokenStore;
  /** A client for the profile's service with its stored token. */
  client(): Promise<ServiceClient>;
}

export const DEFAULT_PROFILE_DIR = join(homedir(), '.design-sync');

export function createCliContext(
  options: GlobalOptions,
  io: CliIo,
  makeTokenStore: (profile: ProfilePaths) => TokenStore,
): CliContext {
  const profile = ensureProfile(options.profile ?? process.env.DESIGN_SYNC_PROFILE ?? DEFAULT_PROFILE_DIR);
  let store: TokenStore | undefined;
  const context: CliContext = {
    profile,
    io,
    serviceUrl() {
      const settings = readSettings(profile.settingsFile);
      if (options.service) {
        const url = normalizeServiceUrl(options.service);
        if (settings.serviceUrl !== url) writeSettings(profile.settingsFile, { ...settings, serviceUrl: url });
        return url;
      }
      if (settings.serviceUrl) return settings.serviceUrl;
      throw new CliError(`No service chosen for the profile ${profile.root}: pass --service <url> once (e.g. --service http://127.0.0.1:4010 for the local service).`);
    },
    tokenStore() {
      return (store ??= makeTokenStore(profile));
    },
    async client() {
      const baseUrl = context.serviceUrl();
      const token = await context.tokenStore().read();
      return new ServiceClient({ baseUrl, token: () => token, userAgent: 'design-sync-cli' });
    },
  };
  return context;
}
