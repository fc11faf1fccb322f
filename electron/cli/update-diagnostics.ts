import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { updateFeedOf } from '../../shared/updates/update-feed';

/** Where the diagnostics look: this installation, unless a test says otherwise. */
export interface UpdateSystem {
  /** The app's resources folder (a built app's app-update.yml), when `design-sync` runs from one. */
  resourcesPath: string | undefined;
  /** The checkout's build configuration (build/electron-builder.json). */
  builderConfig: string;
  env: NodeJS.ProcessEnv;
}

const THIS_SYSTEM = (): UpdateSystem => ({
  resourcesPath: (process as { resourcesPath?: string }).resourcesPath,
  builderConfig: new URL('../../build/electron-builder.json', import.meta.url).pathname,
  env: process.env,
});

const HOW = 'the desktop app checks at start and daily and keeps a download only when it matches the sha512 the feed publishes';

/**
 * `status --diagnostics`' line on updates: the feed and channel the desktop app follows — from a built app's
 * app-update.yml, or else from the build configuration of this checkout (its address given by DESIGN_SYNC_UPDATE_URL
 * when the app is built).
 */
export function updateDiagnostics(system: UpdateSystem = THIS_SYSTEM()): string[] {
  try {
    const built = system.resourcesPath ? join(system.resourcesPath, 'app-update.yml') : null;
    if (built && existsSync(built)) {
      const { feed, channel } = updateFeedOf(load(readFileSync(built, 'utf8')), built);
      return [`Updates: channel ${channel}, feed ${feed} (built into this app: ${built}); ${HOW}`];
    }
    if (!existsSync(system.builderConfig)) return ['Updates: this installation has no update feed: update design-sync the way you installed it'];
    const publish = (JSON.parse(readFileSync(system.builderConfig, 'utf8')) as { publish?: unknown }).publish;
    const entry = Array.isArray(publish) ? publish[0] : publish;
    if (entry === null || entry === undefined) return [`Updates: builds of this checkout have no update feed (${system.builderConfig} publishes nothing)`];
    const { feed, channel } = updateFeedOf(entry, system.builderConfig);
    const missing: string[] = [];
    const expanded = feed.replace(/\$\{env\.([A-Za-z0-9_]+)\}/g, (_, name: string) => {
      const value = system.env[name];
      if (value === undefined || value === '') missing.push(name);
      return value ?? `\${env.${name}}`;
    });
    return missing.length
      ? [`Updates: channel ${channel}, feed given by ${missing.join(', ')} when the desktop app is built (not set here); ${HOW}`]
      : [`Updates: channel ${channel}, feed ${expanded} (a desktop app built here now); ${HOW}`];
  } catch (error) {
    return [`Updates: the update configuration cannot be read: ${error instanceof Error ? error.message : String(error)}`];
  }
}
