import { describe, expect, it } from 'vitest';
import { Transport } from '../../../electron/engine/api/transport';

describe('the token goes only to the service\'s own origin', () => {
  const transport = new Transport({ baseUrl: 'http://127.0.0.1:4010', token: () => 'secret-token' });

  it('is added to a path on the service', () => {
    expect(transport.url('/v1/user/whoami').searchParams.get('auth_token')).toBe('secret-token');
  });

  it.each(['//evil.example/v1/user/whoami', 'http://evil.example/v1/user/whoami', 'http://127.0.0.1:4011/v1/user/whoami', 'https://127.0.0.1:4010/v1/x'])(
    'is never added to %s',
    (path) => {
      const url = transport.url(path);
      expect(url.searchParams.has('auth_token')).toBe(false);
      expect(url.href).not.toContain('secret-token');
    },
  );
});
