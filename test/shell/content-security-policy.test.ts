import { describe, expect, it, vi } from 'vitest';
import { appContentSecurityPolicy, appResponseHeaders, APP_ORIGIN } from '../../electron/shell/window/content-security-policy';
import { contentSecurityPolicy, securityHeaders } from '../../electron/window-host/host-security';
import { windowContentSecurityPolicy } from '../../shared/security/content-security-policy';

// The code under test needs only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));
}

describe('the window\'s Content-Security-Policy', () => {
  it('lets the Electron window load only its own app:// origin: no inline script, no remote anything', () => {
    const policy = directives(appContentSecurityPolicy());
    expect(Object.fromEntries(policy)).toEqual({
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'img-src': ["'self'"],
      'connect-src': ["'self'"],
      'worker-src': ["'self'"],
      'frame-src': ["'none'"],
      'object-src': ["'none'"],
      'base-uri': ["'none'"],
      'form-action': ["'none'"],
      'frame-ancestors': ["'none'"],
    });
    expect(appContentSecurityPolicy()).not.toMatch(/unsafe|https?:|\*|data:|blob:/);
    expect(APP_ORIGIN).toBe('app://window');
  });

  it('is the web host\'s policy too, which only adds its own WebSocket by name', () => {
    const host = directives(contentSecurityPolicy('127.0.0.1:4321'));
    const app = directives(appContentSecurityPolicy());
    expect(host.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:4321']);
    host.delete('connect-src');
    app.delete('connect-src');
    expect(host).toEqual(app);
  });

  it('sends the same security headers from the app:// protocol as from the web host', () => {
    const headers = appResponseHeaders();
    expect(headers).toEqual({
      'content-security-policy': appContentSecurityPolicy(),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'x-frame-options': 'DENY',
    });
    const { 'content-security-policy': _hostPolicy, ...hostRest } = securityHeaders('127.0.0.1:4321');
    const { 'content-security-policy': _appPolicy, ...appRest } = headers;
    expect(hostRest).toEqual(appRest);
    expect(Object.keys(headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('refuses a connect source that would smuggle in another directive or a wildcard', () => {
    for (const source of ["ws://a; script-src 'unsafe-inline'", '*', "'unsafe-eval'", 'ws://a b', 'https://*.evil.example', '']) {
      expect(() => windowContentSecurityPolicy({ connectSources: [source] }), source).toThrow(/Not a plain CSP source/);
    }
  });

  it('allows the styles of the web host\'s first frame by their hashes only, never anything inline besides', () => {
    const hash = `sha256-${'A'.repeat(43)}=`;
    expect(directives(windowContentSecurityPolicy({ styleHashes: [hash] })).get('style-src')).toEqual(["'self'", "'unsafe-hashes'", `'${hash}'`]);
    for (const source of ["'unsafe-inline'", 'sha256-abc', `${hash}; script-src *`, `sha384-${'A'.repeat(64)}`]) {
      expect(() => windowContentSecurityPolicy({ styleHashes: [source] }), source).toThrow(/Not a CSP hash/);
    }
  });
});
