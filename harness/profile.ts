import { rmSync } from 'node:fs';
import { MemoryTokenStore } from '../electron/engine/authorization/memory-token-store';
import type { Engine } from '../electron/engine/runtime/engine';
import { openEngine, type OpenEngineOptions } from '../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../electron/engine/settings/settings-store';
import { tempDir } from './temp-dir';

export interface ProfileOptions extends Partial<OpenEngineOptions> {
  /** The signed-in user's token (kept in memory); null or absent: signed out. */
  token?: string | null;
}

export interface OpenedProfile {
  engine: Engine;
  /** The profile's folder: a fresh one unless `profileDir` was given. */
  profileDir: string;
  /** Closes the engine, and removes the profile's folder when the harness made it. */
  close(): Promise<void>;
}

/**
 * A person's profile as the tests open it: the engine on a fresh folder (or `profileDir`), its token and settings in
 * memory, the tests' user agent and, unless told otherwise, the sync trash a folder (any option of openEngine's may be
 * given instead).
 */
export async function openProfile(options: ProfileOptions = {}): Promise<OpenedProfile> {
  const { token = null, ...engineOptions } = options;
  const made = engineOptions.profileDir === undefined;
  const profileDir = engineOptions.profileDir ?? tempDir('profile');
  const engine = await openEngine({
    userAgent: 'design-sync-test', trash: 'folder',
    tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore(),
    ...engineOptions, profileDir,
  }).catch((error: unknown) => {
    if (made) rmSync(profileDir, { recursive: true, force: true });
    throw error;
  });
  return {
    engine, profileDir,
    async close() {
      await engine.close();
      if (made) rmSync(profileDir, { recursive: true, force: true });
    },
  };
}
