import { randomBytes, timingSafeEqual } from 'node:crypto';
import { windowContentSecurityPolicy, windowSecurityHeaders } from '../../shared/security/content-security-policy';

/** A random value for a secret or a session cookie: 32 bytes, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Compares two secrets in constant time (a mismatch in length is a mismatch). */
export function sameSecret(given: string | null | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The names the host answers to: the address it prints, and `localhost` for a person who types it. */
export function ownHosts(port: number): readonly string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/**
 * DNS rebinding: a page on another name that resolves to 127.0.0.1 sends its own name as Host. Only ours pass; the
 * Host that passed is returned (the page's own origin is `http://` + it).
 */
export function ownHost(host: string | undefined, port: number): string | null {
  return host !== undefined && ownHosts(port).includes(host) ? host : null;
}

/**
 * Cross-site WebSocket hijacking: a browser always sends Origin on a WebSocket upgrade. It must be exactly the origin
 * of the page this host served under the same name (so a page on `localhost` cannot open `127.0.0.1`'s socket, whose
 * name another program could hold on ::1); a missing Origin is refused.
 */
export function isOwnOrigin(origin: string | undefined, host: string): boolean {
  return origin === `http://${host}`;
}

export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return null;
}

/** Cookies are not scoped by port: the name carries it, so two hosts on one machine never read each other's. */
export function sessionCookieName(port: number): string {
  return `design-sync-window-${port}`;
}

export function sessionCookie(port: number, value: string): string {
  return `${sessionCookieName(port)}=${value}; HttpOnly; SameSite=Strict; Path=/`;
}

/**
 * The policy of every answer (shared/security: the Electron window gets the same one). The WebSocket is named as well
 * as 'self' because browsers that predate CSP 3 (older Safari) do not let 'self' match ws:; it is the name the page was
 * asked under, so `localhost` works when typed.
 */
export function contentSecurityPolicy(host: string): string {
  return windowContentSecurityPolicy({ connectSources: [`ws://${host}`] });
}

/** Headers of every answer (no Access-Control-* ever: nothing here is for another origin). */
export function securityHeaders(host: string, styleHashes: readonly string[] = []): Record<string, string> {
  return windowSecurityHeaders({ connectSources: [`ws://${host}`], styleHashes });
}
