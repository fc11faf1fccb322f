import { describe, expect, it } from 'vitest';
import { parseFrame } from '../../electron/window-host/contract-frames';
import { cookieValue, isOwnOrigin, ownHost, randomToken, sameSecret } from '../../electron/window-host/host-security';

describe('the host\'s checks', () => {
  it('makes 32-byte URL-safe secrets, each different', () => {
    const [a, b] = [randomToken(), randomToken()];
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('compares secrets whole, whatever their length', () => {
    const secret = randomToken();
    expect(sameSecret(secret, secret)).toBe(true);
    expect(sameSecret(secret.slice(0, -1), secret)).toBe(false);
    expect(sameSecret(`${secret}x`, secret)).toBe(false);
    expect(sameSecret('', secret)).toBe(false);
    expect(sameSecret(null, secret)).toBe(false);
  });

  it('knows its own Host and Origin, and nothing near them', () => {
    expect(ownHost('127.0.0.1:8080', 8080)).toBe('127.0.0.1:8080');
    expect(ownHost('localhost:8080', 8080)).toBe('localhost:8080');
    for (const host of [undefined, '', '127.0.0.1', '127.0.0.1:80', 'LOCALHOST:8080', '127.0.0.1:8080.evil.example', '[::1]:8080', '0.0.0.0:8080']) {
      expect(ownHost(host, 8080), String(host)).toBeNull();
    }
    expect(isOwnOrigin('http://127.0.0.1:8080', '127.0.0.1:8080')).toBe(true);
    for (const origin of [undefined, 'null', 'http://localhost:8080', 'https://127.0.0.1:8080', 'http://127.0.0.1:8080/', 'http://127.0.0.1:80']) {
      expect(isOwnOrigin(origin, '127.0.0.1:8080'), String(origin)).toBe(false);
    }
  });

  it('reads one cookie by its exact name', () => {
    expect(cookieValue('a=1; design-sync-window-1=xyz; b=2', 'design-sync-window-1')).toBe('xyz');
    expect(cookieValue('xdesign-sync-window-1=xyz', 'design-sync-window-1')).toBeNull();
    expect(cookieValue(undefined, 'design-sync-window-1')).toBeNull();
  });

  it('sorts frames into requests, refusals naming the field, and drops', () => {
    expect(parseFrame('{"type":"request","id":1,"name":"account.get","input":{}}')).toEqual({ kind: 'request', message: { type: 'request', id: 1, name: 'account.get', input: {} } });
    expect(parseFrame('{"type":"request","id":2,"name":"account.get","input":{},"x":1}')).toMatchObject({ kind: 'refused', id: 2, problem: { kind: 'validation', fieldErrors: { x: ['is not a known field'] } } });
    expect(parseFrame('{"type":"request","id":3,"name":"' + 'n'.repeat(101) + '"}')).toMatchObject({ kind: 'refused', id: 3, problem: { fieldErrors: { name: [expect.any(String)] } } });
    for (const text of ['', 'nope', 'null', '7', '[]', '{"type":"request","id":-1,"name":"a"}', '{"type":"request","id":1.5,"name":"a"}']) {
      expect(parseFrame(text).kind, text).toBe('dropped');
    }
  });
});
