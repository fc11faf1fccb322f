import { describe, expect, it } from 'vitest';
import { derivedWebAddress, normalizeWebAddress, webAddressOf } from '../../../electron/engine/profile/web-address';

describe('the web address derived from the service (API) address', () => {
  it('turns an api. host into www. (the real service: api.youmagine.com → www.youmagine.com)', () => {
    expect(derivedWebAddress('https://api.youmagine.com')).toBe('https://www.youmagine.com');
    expect(derivedWebAddress('https://API.example.org:8443')).toBe('https://www.example.org:8443');
  });

  it('drops a trailing /v1 path: the web site has none', () => {
    expect(derivedWebAddress('https://api.youmagine.com/v1')).toBe('https://www.youmagine.com');
    expect(derivedWebAddress('https://api.youmagine.com/v1/')).toBe('https://www.youmagine.com');
    expect(derivedWebAddress('https://example.org/share/v1')).toBe('https://example.org/share');
  });

  it('keeps any other address as it is: the local service serves both on one address', () => {
    expect(derivedWebAddress('http://127.0.0.1:4010')).toBe('http://127.0.0.1:4010');
    expect(derivedWebAddress('http://localhost:4010')).toBe('http://localhost:4010');
    expect(derivedWebAddress('https://designs.example.org/service')).toBe('https://designs.example.org/service');
    expect(derivedWebAddress('https://apidocs.example.org')).toBe('https://apidocs.example.org');
  });

  it('the web address in force: the person\'s when set, else the derived one; none without a service', () => {
    expect(webAddressOf({ serviceUrl: 'https://api.youmagine.com' })).toBe('https://www.youmagine.com');
    expect(webAddressOf({ serviceUrl: 'https://api.youmagine.com', webUrl: '' })).toBe('https://www.youmagine.com');
    expect(webAddressOf({ serviceUrl: 'https://api.youmagine.com', webUrl: 'https://youmagine.com' })).toBe('https://youmagine.com');
    expect(webAddressOf({})).toBeNull();
  });

  it('a web address a person types is normalized, and one that is not a web address is refused in words', () => {
    expect(normalizeWebAddress('  https://www.example.org/  ')).toBe('https://www.example.org');
    expect(() => normalizeWebAddress('www.example.org')).toThrow('Not a web address: "www.example.org" (expected e.g. https://www.example.com)');
    expect(() => normalizeWebAddress('ftp://example.org')).toThrow('The web address must start with http:// or https://');
  });
});
