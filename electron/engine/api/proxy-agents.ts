import type { Agent } from 'node:http';
import { isIP } from 'node:net';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { getProxyForUrl } from 'proxy-from-env';

/**
 * Which proxy, if any, a request to the service goes through, and the http.Agent that takes it there
 * (https-proxy-agent: a CONNECT tunnel for https addresses; http-proxy-agent: absolute-URI forwarding for http ones).
 *
 * - 'system' (the default): the environment's HTTPS_PROXY / HTTP_PROXY / ALL_PROXY with NO_PROXY (either case, as curl
 *   and npm read them) when any is set; otherwise the system's proxy as the Electron shell resolved it for the service;
 *   otherwise none.
 * - 'none': always direct.
 * - 'manual': the proxy the person gave (host, port, and a user name and password when the proxy asks for them).
 *
 * Loopback addresses (127.0.0.0/8, ::1, localhost) never go through a proxy, as Chromium and Go's net/http do: a
 * proxy elsewhere cannot reach this machine's own services.
 */
export type ProxyMode = 'system' | 'none' | 'manual';

export interface ProxyConfig {
  mode: ProxyMode;
  /** 'manual': the proxy's address (http://host:port), without credentials. */
  manualUrl?: string;
  username?: string;
  password?: string;
  /**
   * 'system': the proxy the system names for the service (http://host:port), null for a direct connection, undefined
   * where nobody could ask (the CLI, the window host): only the Electron shell can resolve it.
   */
  systemProxy?: string | null;
}

export interface ProxyRoute {
  /** The proxy's URL with its credentials (for the agent only: never shown or logged). */
  url: URL;
  /** host:port, as messages and diagnostics name it. */
  shown: string;
  /** Where it came from. */
  source: 'environment' | 'system' | 'manual';
}

export const PROXY_ENVIRONMENT_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'NO_PROXY'] as const;

/** The proxy's host:port as shown to people (never its credentials). */
export function shownProxy(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname}:${port}`;
}

/** A proxy address as given (host:port, http://host:port, with or without credentials) as a URL; null when it is none. */
export function parseProxyAddress(text: string): URL {
  const trimmed = text.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ProxyAddressError(`“${shownText(trimmed)}” is not a proxy address; give it as host:port or http://host:port.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProxyAddressError(`The proxy ${url.host} uses ${url.protocol.slice(0, -1)}, which design-sync does not speak; give an http:// or https:// proxy.`);
  }
  if (!url.hostname) throw new ProxyAddressError(`“${shownText(trimmed)}” names no proxy host; give it as host:port.`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw new ProxyAddressError(`The proxy address ${shownProxy(url)} has a path or query; give only host:port.`);
  }
  return url;
}

/** Text of a proxy address with any user:password@ taken out, for an error message. */
function shownText(text: string): string {
  return text.replace(/\/\/[^/@]*@/, '//').replace(/^[^/@]*@/, '');
}

export class ProxyAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProxyAddressError';
  }
}

function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '0:0:0:0:0:0:0:1';
}

/** Whether any of the proxy variables is set (either case). */
export function environmentNamesProxy(env: NodeJS.ProcessEnv = process.env): boolean {
  return PROXY_ENVIRONMENT_VARIABLES.filter((name) => name !== 'NO_PROXY').some((name) => Boolean(env[name] || env[name.toLowerCase()]));
}

/** Which proxy `url` goes through under `config` (null: direct). The environment is read at each call. */
export function routeFor(url: URL, config: ProxyConfig, env: NodeJS.ProcessEnv = process.env): ProxyRoute | null {
  if (isLoopback(url) || config.mode === 'none') return null;
  if (config.mode === 'manual') {
    if (!config.manualUrl) return null;
    const proxy = parseProxyAddress(config.manualUrl);
    if (config.username) {
      proxy.username = encodeURIComponent(config.username);
      proxy.password = encodeURIComponent(config.password ?? '');
    }
    return { url: proxy, shown: shownProxy(proxy), source: 'manual' };
  }
  if (environmentNamesProxy(env)) {
    const named = withEnvironment(env, () => getProxyForUrl(url.href));
    if (!named) return null;
    const proxy = parseProxyAddress(named);
    return { url: proxy, shown: shownProxy(proxy), source: 'environment' };
  }
  if (config.systemProxy) {
    const proxy = parseProxyAddress(config.systemProxy);
    return { url: proxy, shown: shownProxy(proxy), source: 'system' };
  }
  return null;
}

/** proxy-from-env reads process.env; a test or a caller may give another environment. */
function withEnvironment<T>(env: NodeJS.ProcessEnv, read: () => T): T {
  if (env === process.env) return read();
  const saved = new Map<string, string | undefined>();
  for (const base of PROXY_ENVIRONMENT_VARIABLES) {
    for (const name of [base, base.toLowerCase()]) {
      saved.set(name, process.env[name]);
      if (env[name] === undefined) delete process.env[name];
      else process.env[name] = env[name];
    }
  }
  try {
    return read();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** The proxy settings this process uses (set by the engine from the profile's settings and the shell's system proxy). */
let current: ProxyConfig = { mode: 'system' };
const agents = new Map<string, Agent>();

export function configureProxy(config: ProxyConfig): void {
  current = { ...config };
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

export function proxyConfig(): ProxyConfig {
  return { ...current };
}

/** The proxy that requests to `url` take now (null: direct), for diagnostics and messages. */
export function currentRoute(url: URL): ProxyRoute | null {
  return routeFor(url, current);
}

/** A proxy as messages name it: where it is, where its setting came from, whether credentials were sent. */
export interface ProxyUse {
  shown: string;
  source: ProxyRoute['source'];
  credentials: boolean;
}

export interface ProxiedAgent {
  agent: Agent;
  route: ProxyRoute;
  use: ProxyUse;
}

/**
 * The agent for a request to `url`, or null for a direct one. `fresh`: a connection of its own, not kept alive (writes:
 * see http-exchange.ts). Agents are kept per proxy, scheme and keep-alive, so that connections through the proxy are
 * used again as direct ones are.
 */
export function proxyAgentFor(url: URL, fresh: boolean): ProxiedAgent | null {
  const route = currentRoute(url);
  if (!route) return null;
  const secure = url.protocol === 'https:';
  const key = `${secure ? 'https' : 'http'} ${fresh ? 'fresh' : 'kept'} ${route.url.href}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: !fresh };
    agent = secure ? new HttpsProxyAgent(route.url, options) : new HttpProxyAgent(route.url, options);
    agents.set(key, agent);
  }
  return { agent, route, use: { shown: route.shown, source: route.source, credentials: route.url.username !== '' } };
}
