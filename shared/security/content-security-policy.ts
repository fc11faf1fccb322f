/**
 * The window's Content-Security-Policy and security headers, one builder for both of its hosts: the Electron shell's
 * `app://` protocol and `design-sync ui`'s local web host. Only the window's own scripts, styles, images and files;
 * nothing remote, nothing inline, no plugins, frames or forms; workers only from the window's own scripts (the 3D
 * preview reads model files in a module worker built with the window: `worker-src 'self'`, no `blob:`).
 *
 * React's `style={…}` props are set through the CSSOM (`element.style`), which `style-src 'self'` does not govern, so
 * no `'unsafe-inline'` is needed; style *attributes* in markup (the service's HTML) stay blocked. The one exception is
 * the web host's first frame (the library's first screen drawn into the page, shared/contract/first-frame.ts): that
 * page's CSP names the hashes of the styles written into it (the window's stylesheet, and the style attributes by which
 * the grid places its rows, with `'unsafe-hashes'`), so that exactly those apply. Nothing in the window
 * makes `data:` or `blob:` URLs (the build inlines no assets, the 3D preview parses the bytes it fetched), so neither is
 * a source.
 */

export interface WindowPolicyOptions {
  /**
   * Sources the window may connect to besides its own origin: the web host names its WebSocket (`ws://127.0.0.1:<port>`)
   * because browsers before CSP 3 do not let `'self'` match `ws:`. The Electron window needs none.
   */
  connectSources?: readonly string[];
  /**
   * `sha256-<base64>` of each style written into the page (the web host's first frame): a style element or a style
   * attribute with exactly this text applies (`'unsafe-hashes'` extends hashes to attributes), nothing else inline.
   */
  styleHashes?: readonly string[];
}

/** A source expression with no separators or quotes: what a host name and port give, nothing that adds a directive. */
const PLAIN_SOURCE = /^[a-z][a-z0-9+.-]*:\/\/[a-z0-9.-]+(:\d{1,5})?$/i;
const SHA256_SOURCE = /^sha256-[A-Za-z0-9+/]{43}=$/;

export function windowContentSecurityPolicy(options: WindowPolicyOptions = {}): string {
  const connect = options.connectSources ?? [];
  for (const source of connect) {
    if (!PLAIN_SOURCE.test(source)) throw new Error(`Not a plain CSP source (scheme://host[:port]): ${JSON.stringify(source)}`);
  }
  const styleHashes = options.styleHashes ?? [];
  for (const hash of styleHashes) {
    if (!SHA256_SOURCE.test(hash)) throw new Error(`Not a CSP hash (sha256-<base64>): ${JSON.stringify(hash)}`);
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    ['style-src', "'self'", ...(styleHashes.length > 0 ? ["'unsafe-hashes'", ...styleHashes.map((hash) => `'${hash}'`)] : [])].join(' '),
    "img-src 'self'",
    ['connect-src', "'self'", ...connect].join(' '),
    "worker-src 'self'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers of every answer of a window host (no Access-Control-* ever: nothing it serves is for another origin). */
export function windowSecurityHeaders(options: WindowPolicyOptions = {}): Record<string, string> {
  return {
    'content-security-policy': windowContentSecurityPolicy(options),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    // frame-ancestors' older twin, for browsers that ignore it.
    'x-frame-options': 'DENY',
  };
}
