import { FileTokenStore } from '../engine/authorization/file-token-store';
import type { TokenStore } from '../engine/authorization/token-store';
import type { ProfilePaths } from '../engine/profile/profile';

/** The CLI keeps the token in the profile's token file, readable only by its user (mode 0600). */
export function fileTokenStore(profile: ProfilePaths): TokenStore {
  return new FileTokenStore(profile.tokenFile);
}
