import type { FileCache } from '../cache/file-cache';
import type { EngineSettings, SettingsStore } from '../settings/settings-store';
import type { StartAtLoginHost } from '../settings/start-at-login';
import { DEFAULT_CATALOGUE_REFRESH_MINUTES } from './catalogue-refresh';
import type { ProxySetup } from './proxy-setup';
import type { ServiceConnection } from './service-connection';

/**
 * The profile's settings that the engine applies: each change remembered and put in force at once (the file cache's
 * bound, the transfer limits, the proxy, starting at login…). The settings store itself has no other writer among
 * the front ends.
 */
export class AppSettings {
  constructor(
    readonly store: SettingsStore,
    private readonly files: FileCache,
    private readonly connection: ServiceConnection,
    /** The proxy the service is reached through: its settings, the password kept apart, which one is in use. */
    readonly proxy: ProxySetup,
    /** The desktop app's login item, or null where the front end cannot start itself at login (the CLI, `design-sync ui`). */
    readonly startAtLogin: StartAtLoginHost | null,
  ) {}

  read(): EngineSettings {
    return this.store.read();
  }

  /** Settings applied where they are read (the catalogue's interval, review before publishing, questions asked). */
  update(change: Pick<Partial<EngineSettings>, 'catalogueRefreshMinutes' | 'reviewBeforePublishing' | 'startAtLoginAsked'>): void {
    this.store.update(change);
  }

  catalogueRefreshMinutes(): number {
    return this.store.read().catalogueRefreshMinutes ?? DEFAULT_CATALOGUE_REFRESH_MINUTES;
  }

  reviewBeforePublishing(): boolean {
    return this.store.read().reviewBeforePublishing === true;
  }

  /** The file cache's size bound, remembered; what no longer fits is evicted at once. */
  setCacheLimit(bytes: number): void {
    this.store.update({ cacheLimitBytes: bytes });
    this.files.setLimit(bytes);
  }

  /** The file cache's bound and what it holds now, in bytes. */
  cacheUse(): { limitBytes: number; bytes: number } {
    return { limitBytes: this.files.maxBytes, bytes: this.files.totalBytes() };
  }

  /** The upload and download limits in KB/s (0: none). */
  bandwidthLimits(): { maxUploadKBps: number; maxDownloadKBps: number } {
    return this.connection.bandwidthLimits();
  }

  /** New limits in KB/s (0: none), remembered and applied at once, to the transfers under way too. */
  setBandwidthLimits(limits: { maxUploadKBps?: number; maxDownloadKBps?: number }): void {
    this.connection.setBandwidthLimits(limits);
  }
}
