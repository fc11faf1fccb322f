import { windowContentSecurityPolicy, windowSecurityHeaders } from '../../../shared/security/content-security-policy';

/** The scheme the window is served under (registered privileged: standard, secure, fetch), and its one host. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'window';
/** The window's origin: `app://window`. Its page is `app://window/index.html`, cached files `app://window/files/…`. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/**
 * The Electron window's policy: the same builder as the web host's (shared/security), with nothing to connect to
 * beyond its own origin. The contract crosses through the preload, not the network.
 */
export function appContentSecurityPolicy(): string {
  return windowContentSecurityPolicy();
}

/** The headers the `app://` protocol handler sets on every answer, errors included. */
export function appResponseHeaders(): Record<string, string> {
  return windowSecurityHeaders();
}
