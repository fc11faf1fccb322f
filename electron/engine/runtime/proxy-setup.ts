import {
  configureProxy, currentRoute, environmentNamesProxy, parseProxyAddress, ProxyAddressError, type ProxyConfig,
} from '../api/proxy-agents';
import type { TokenStore } from '../authorization/token-store';
import { engineLog } from '../log/engine-log';
import type { ProxySettings, SettingsStore } from '../settings/settings-store';

/**
 * The profile's proxy: its mode and manual proxy in the settings, the manual proxy's password in a secret store kept
 * like the token (the CLI's 0600 file, safeStorage in the desktop app), a run's --proxy over both, and the system's
 * proxy as the Electron shell resolved it. Applies them to the transport (api/proxy-agents.ts) and says which proxy is
 * in use, never the password.
 */

/** What a person may change: the mode, the manual proxy, and a password (write-only; '' removes it). */
export interface ProxyChange {
  mode?: ProxySettings['mode'];
  host?: string;
  port?: number;
  username?: string;
  password?: string;
}

/** The proxy as views and diagnostics show it: never the password, only whether one is kept. */
export interface ProxyStatus {
  mode: ProxySettings['mode'];
  host: string;
  port: number | null;
  username: string;
  passwordSet: boolean;
  /** The proxy the service's requests take now ("proxy.example:3128"), or null when they go direct. */
  inUse: string | null;
  /** Where that came from, in words ("HTTPS_PROXY in the environment", "the system's settings", "Settings", "--proxy"). */
  inUseFrom: string | null;
  /** Why the settings cannot be used as they are (an unreadable address in HTTPS_PROXY…), or null. */
  problem: string | null;
}

/** A --proxy value: 'none' or 'direct', 'system', or an address (http://user:password@host:port, host:port). */
export function proxyOverride(value: string): ProxyConfig {
  const trimmed = value.trim();
  if (/^(none|direct)$/i.test(trimmed)) return { mode: 'none' };
  if (/^system$/i.test(trimmed)) return { mode: 'system' };
  const url = parseProxyAddress(trimmed);
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  return { mode: 'manual', manualUrl: url.origin, ...(username ? { username, password } : {}) };
}

/** The password as kept in a token-like store (which holds no spaces): base64url. */
const encode = (password: string) => Buffer.from(password, 'utf8').toString('base64url');
const decode = (stored: string) => Buffer.from(stored, 'base64url').toString('utf8');

export class ProxySetup {
  private password: string | null = null;
  private systemProxy: string | null | undefined;

  constructor(
    private readonly settings: SettingsStore,
    private readonly secret: TokenStore | null,
    /** The run's --proxy, over the settings (not remembered). */
    private readonly override: ProxyConfig | null = null,
    systemProxy?: string | null,
  ) {
    this.systemProxy = systemProxy;
  }

  /** Reads the password and applies the proxy; an unreadable password is logged and the proxy used without it. */
  async load(): Promise<void> {
    try {
      const stored = await this.secret?.read();
      this.password = stored ? decode(stored) : null;
    } catch (error) {
      engineLog.warn('settings', "the proxy's password cannot be read; the proxy is used without it", error);
    }
    this.apply();
  }

  /** The secrets the engine log keeps out. */
  secrets(): string[] {
    return [this.password, this.override?.password].filter((one): one is string => Boolean(one));
  }

  saved(): ProxySettings {
    return this.settings.read().proxy ?? { mode: 'system' };
  }

  config(): ProxyConfig {
    if (this.override) return { ...this.override, systemProxy: this.systemProxy };
    const saved = this.saved();
    return {
      mode: saved.mode,
      ...(saved.host ? { manualUrl: `http://${saved.host.includes(':') && !saved.host.startsWith('[') ? `[${saved.host}]` : saved.host}:${saved.port ?? 8080}` } : {}),
      ...(saved.username ? { username: saved.username, password: this.password ?? '' } : {}),
      systemProxy: this.systemProxy,
    };
  }

  apply(): void {
    configureProxy(this.config());
  }

  /** The system's proxy for the service, as the Electron shell resolved it (null: direct). */
  setSystemProxy(proxy: string | null): void {
    this.systemProxy = proxy;
    this.apply();
  }

  /** Saves a change (the password in the secret store) and applies it at once. */
  async update(change: ProxyChange): Promise<void> {
    const saved = this.saved();
    const next: ProxySettings = {
      mode: change.mode ?? saved.mode,
      ...(change.host !== undefined ? (change.host.trim() ? { host: change.host.trim() } : {}) : saved.host ? { host: saved.host } : {}),
      ...(change.port !== undefined ? { port: change.port } : saved.port ? { port: saved.port } : {}),
      ...(change.username !== undefined ? (change.username ? { username: change.username } : {}) : saved.username ? { username: saved.username } : {}),
    };
    if (next.mode === 'manual') {
      if (!next.host) throw new ProxyAddressError('A manual proxy needs its host (a name or an address).');
      parseProxyAddress(`${next.host.includes(':') && !next.host.startsWith('[') ? `[${next.host}]` : next.host}:${next.port ?? 8080}`);
    }
    if (change.password !== undefined) {
      if (change.password === '') await this.secret?.clear();
      else await this.secret?.write(encode(change.password));
      this.password = change.password === '' ? null : change.password;
    }
    if (!next.username && this.password !== null && change.username !== undefined) {
      // No user name: a password alone means nothing to a proxy.
      await this.secret?.clear();
      this.password = null;
    }
    this.settings.update({ proxy: next });
    this.apply();
  }

  status(serviceUrl: string | null): ProxyStatus {
    const saved = this.saved();
    const base = {
      mode: this.override?.mode ?? saved.mode,
      host: saved.host ?? '',
      port: saved.port ?? null,
      username: saved.username ?? '',
      passwordSet: this.password !== null,
    };
    try {
      const route = serviceUrl ? currentRoute(new URL(serviceUrl)) : null;
      return { ...base, inUse: route?.shown ?? null, inUseFrom: route ? this.origin(route.source) : null, problem: null };
    } catch (error) {
      return { ...base, inUse: null, inUseFrom: null, problem: error instanceof Error ? error.message : String(error) };
    }
  }

  private origin(source: 'environment' | 'system' | 'manual'): string {
    if (source === 'environment') return 'the environment (HTTPS_PROXY / HTTP_PROXY / ALL_PROXY)';
    if (source === 'system') return "the system's proxy settings";
    return this.override ? '--proxy' : 'Settings → Proxy';
  }
}

/** One line for `design-sync status --diagnostics`: the proxy the service's requests take, never a password. */
export function proxyDiagnosticsLine(status: ProxyStatus, serviceUrl: string | null): string {
  if (status.problem) return `Proxy: cannot be used: ${status.problem}`;
  const mode = status.mode === 'manual'
    ? `manual (${status.host}:${status.port ?? 8080}${status.username ? `, user ${status.username}, password ${status.passwordSet ? 'kept' : 'not set'}` : ''})`
    : status.mode === 'none' ? 'none (always direct)' : `system${environmentNamesProxy() ? ', the environment names one' : ''}`;
  const target = serviceUrl ? ` for ${new URL(serviceUrl).host}` : '';
  return status.inUse
    ? `Proxy: ${status.inUse}${target}, from ${status.inUseFrom}; setting: ${mode}`
    : `Proxy: none in use${target} (direct); setting: ${mode}`;
}
