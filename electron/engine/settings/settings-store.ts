import { z } from 'zod';
import { LANGUAGE_SETTINGS } from '../../../shared/i18n/locales';
import { readSettings, writeSettings } from './profile-settings';

/** The highest bandwidth limit one can set, in KB/s (about 10 GB/s: beyond any link). */
export const MAX_RATE_KBPS = 10_000_000;

/** What a profile remembers besides its token. Every field is optional: a new profile has none. */
export const engineSettings = z.looseObject({
  /** The service this profile uses (no built-in default: the spec names no address). */
  serviceUrl: z.string().optional(),
  /**
   * The service's web site (spec {auth_url}: where the browser signs in, and where design pages are opened), when the
   * person set one; otherwise (absent, or '') it is derived from serviceUrl (profile/web-address.ts: webAddressOf).
   */
  webUrl: z.string().optional(),
  /**
   * The profile uses the bundled sample service (the local service with sample designs, in the profile's folder),
   * started by design-sync itself whenever the engine runs; serviceUrl is its address.
   */
  sampleService: z.boolean().optional(),
  /**
   * The service the stored token was issued for (written at each sign-in, null after a sign-out). A profile that has a
   * token but none recorded (made before it was) takes serviceUrl as its token's service.
   */
  tokenServiceUrl: z.string().nullable().optional(),
  /** The file cache's size limit. */
  cacheLimitBytes: z.number().int().positive().optional(),
  /** How often the catalogue is refreshed while the engine runs. */
  catalogueRefreshMinutes: z.number().int().positive().optional(),
  /**
   * Files added to a published design wait as "ready to publish" until the person sends them (rule 4: a published
   * design is public the moment a file lands). Drafts are unaffected. Off unless the person turns it on.
   */
  reviewBeforePublishing: z.boolean().optional(),
  /** Rule 5: when the person confirmed they upload only what they have the right to publish. */
  contentPolicyAcceptedAt: z.string().optional(),
  /**
   * The app that opens model files ("Open in your slicer"), by file type ('3mf' → a slicer's id, or 'system' for the
   * system's default app), and under '*' the last one chosen (engine/slicers/slicer-choice.ts).
   */
  openModelWith: z.record(z.string().max(16), z.string().max(4096)).optional(),
  /**
   * Whether the desktop app starts at login, as it last saw it for this profile (set, or read from the system at its
   * start; the system's login items are the truth: this is what `design-sync status --diagnostics` can tell where it
   * cannot read them, macOS and Windows).
   */
  startAtLogin: z.boolean().optional(),
  /** The person answered the one-time question "Start design-sync when you log in?" (never asked again). */
  startAtLoginAsked: z.boolean().optional(),
  /**
   * The proxy (runtime/proxy-setup.ts): 'system' (the environment's HTTPS_PROXY… or the system's), 'none', or 'manual'
   * with host, port and a user name; the manual proxy's password is kept apart, like the token.
   */
  proxy: z.object({
    mode: z.enum(['system', 'none', 'manual']),
    host: z.string().max(253).optional(),
    port: z.number().int().min(1).max(65535).optional(),
    username: z.string().max(256).optional(),
  }).optional(),
  /** The language of the window, the tray and the command line ('system' or absent: the system's; docs/translations.md). */
  language: z.enum(LANGUAGE_SETTINGS).optional(),
  /** The upload limit in KB/s (1 KB = 1,024 bytes), shared by every upload of the profile; 0 or absent: none. */
  maxUploadKBps: z.number().int().min(0).max(MAX_RATE_KBPS).optional(),
  /** The download limit in KB/s, shared by every download of the profile; 0 or absent: none. */
  maxDownloadKBps: z.number().int().min(0).max(MAX_RATE_KBPS).optional(),
});
export type EngineSettings = z.infer<typeof engineSettings>;
export type ProxySettings = NonNullable<EngineSettings['proxy']>;

/**
 * Where settings are kept: a JSON file for the CLI and the window host, electron-store in the Electron shell. The
 * engine is given one and never knows which.
 */
export interface SettingsStore {
  read(): EngineSettings;
  /** Merges the changes into what is stored; durable when it returns. */
  update(changes: Partial<EngineSettings>): EngineSettings;
}

/** settings.json in the profile folder (written atomically; a broken file is a named error, never replaced silently). */
export function fileSettingsStore(path: string): SettingsStore {
  return {
    read: () => engineSettings.parse(readSettings(path)),
    update(changes) {
      const next = engineSettings.parse({ ...readSettings(path), ...changes });
      writeSettings(path, next);
      return next;
    },
  };
}

/**
 * The settings as the record of the stored token's service (see Session): a token with none recorded belongs to the
 * profile's remembered service.
 */
export function settingsTokenServiceRecord(settings: SettingsStore): { read(): string | null; write(serviceUrl: string | null): void } {
  return {
    read() {
      const current = settings.read();
      return current.tokenServiceUrl ?? current.serviceUrl ?? null;
    },
    write(serviceUrl) {
      settings.update({ tokenServiceUrl: serviceUrl });
    },
  };
}

/** Settings held in memory only (tests, a throwaway profile). */
export function memorySettingsStore(initial: EngineSettings = {}): SettingsStore {
  let current = engineSettings.parse(initial);
  return {
    read: () => current,
    update(changes) {
      current = engineSettings.parse({ ...current, ...changes });
      return current;
    },
  };
}
