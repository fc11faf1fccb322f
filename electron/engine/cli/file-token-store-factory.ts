import type { TokenStore } from '../authorization/token-store';
import type { ProfilePaths } from '../profile/profile';

/** Placeholder until the file token store lands: keeps nothing. */
export function fileTokenStore(_profile: ProfilePaths): TokenStore {
  return {
    async read() { return null; },
    async write() { throw new Error('token storage is not available yet'); },
    async clear() {},
    describe: () => 'nowhere yet',
  };
}
