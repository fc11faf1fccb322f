import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { updateFeedOf } from '../../shared/updates/update-feed';
import { ENGLISH_INTL, type Words } from '../../shared/i18n/create-intl';

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

/**
 * `status --diagnostics`' line on updates: the feed and channel the desktop app follows — from a built app's
 * app-update.yml, or else from the build configuration of this checkout (its address given by DESIGN_SYNC_UPDATE_URL
 * when the app is built).
 */
export function updateDiagnostics(system: UpdateSystem = THIS_SYSTEM(), words: Words = ENGLISH_INTL): string[] {
  try {
    const built = system.resourcesPath ? join(system.resourcesPath, 'app-update.yml') : null;
    if (built && existsSync(built)) {
      const { feed, channel } = updateFeedOf(load(readFileSync(built, 'utf8')), built);
      return [words.formatMessage({ id: 'cli.diagnostics.updates.builtIn' }, { channel, feed, file: built })];
    }
    if (!existsSync(system.builderConfig)) return [words.formatMessage({ id: 'cli.diagnostics.updates.noFeed' })];
    const publish = (JSON.parse(readFileSync(system.builderConfig, 'utf8')) as { publish?: unknown }).publish;
    const entry = Array.isArray(publish) ? publish[0] : publish;
    if (entry === null || entry === undefined) return [words.formatMessage({ id: 'cli.diagnostics.updates.checkoutNoFeed' }, { file: system.builderConfig })];
    const { feed, channel } = updateFeedOf(entry, system.builderConfig);
    const missing: string[] = [];
    const expanded = feed.replace(/\$\{env\.([A-Za-z0-9_]+)\}/g, (_, name: string) => {
      const value = system.env[name];
      if (value === undefined || value === '') missing.push(name);
      return value ?? `\${env.${name}}`;
    });
    return missing.length
      ? [words.formatMessage({ id: 'cli.diagnostics.updates.feedFromEnvironment' }, { channel, variables: missing.join(', ') })]
      : [words.formatMessage({ id: 'cli.diagnostics.updates.checkout' }, { channel, feed: expanded })];
  } catch (error) {
    return [words.formatMessage({ id: 'cli.diagnostics.updates.unreadable' }, { problem: error instanceof Error ? error.message : String(error) })];
  }
}
