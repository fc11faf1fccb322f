/** Rules for the web addresses the authorization flow sends the browser to (spec §5.2–5.4). */

const MAX_URL_LENGTH = 2048;

export type AddressCheck = { ok: true; url: string; parsed: URL } | { ok: false; problem: string };

/** redirect_url and deny_url: absolute http or https addresses, without credentials. */
export function checkReturnAddress(raw: unknown, name: string): AddressCheck {
  if (raw === undefined || raw === '') return { ok: false, problem: `${name} is missing: it must be the absolute http or https address to return to.` };
  if (typeof raw !== 'string') return { ok: false, problem: `${name} must be given once, as a single address.` };
  if (raw.length > MAX_URL_LENGTH) return { ok: false, problem: `${name} is longer than ${MAX_URL_LENGTH} characters.` };
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return { ok: false, problem: `${name} is not an absolute web address.` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, problem: `${name} must be an http or https address.` };
  if (parsed.username || parsed.password) return { ok: false, problem: `${name} must not carry a user name or password.` };
  return { ok: true, url: raw, parsed };
}

/** 127.0.0.0/8, [::1] and localhost: addresses that only a program on the user's own computer can receive (RFC 8252 §7.3). */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Whether an already-authorized user may be sent straight on to redirect_url without seeing the allow/deny
 * page again (spec §5.4). Only for loopback addresses: otherwise any web page could send a signed-in user's
 * browser here with its own redirect_url and collect the token without a click.
 */
export function mayAutoApprove(redirect: URL): boolean {
  return isLoopback(redirect);
}

/** A CSP form-action source for the address's origin. CSP host sources cannot name IPv6 literals: fall back to the scheme. */
export function formActionSource(url: URL): string {
  return url.hostname.startsWith('[') ? url.protocol : url.origin;
}

/** Where sign-in may send the browser back to: only the service's own pages of this flow, never another site. */
export function safeReturnPath(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length > MAX_URL_LENGTH || /[\u0000-\u001f\u007f]/.test(raw)) return undefined;
  if (raw === '/profile' || /^\/integrations\/[^/?#\\]+\/authorized_integrations\/new(\?[^#\\]*)?$/.test(raw)) return raw;
  return undefined;
}
