import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppUpdater, ProgressInfo } from 'electron-updater';
import { load } from 'js-yaml';
import { updateFeedOf, type UpdateFeed } from '../../../shared/updates/update-feed';
import type { CheckOutcome, UpdateSource } from './update-controller';

export interface ElectronUpdaterSourceOptions {
  /**
   * electron-updater's updater for this platform (its `autoUpdater` in the app), made when first needed: a copy that
   * cannot update itself (a development build) never makes one.
   */
  updater: () => AppUpdater;
  /** `app.isPackaged`: a development build never updates itself. */
  isPackaged: boolean;
  platform: NodeJS.Platform;
  /** `process.resourcesPath`: where electron-builder puts app-update.yml (the feed) and package-type (deb, rpm). */
  resourcesPath: string;
  env: NodeJS.ProcessEnv;
  log(line: string): void;
}

/** The feed electron-builder built into the app (its `publish` configuration, written to app-update.yml). */
export type BuiltInFeed = UpdateFeed;

/** Reads app-update.yml; null when there is none (a build without a feed), an error when it cannot be used. */
export function readBuiltInFeed(configPath: string): BuiltInFeed | null {
  if (!existsSync(configPath)) return null;
  return updateFeedOf(load(readFileSync(configPath, 'utf8')), configPath);
}

/**
 * electron-updater as the update controller's source. It fetches the channel's file from the feed (latest.yml,
 * latest-mac.yml, latest-linux.yml), downloads the newer version to its cache and checks it against the sha512 the
 * file gives (and, on Windows, the installer's Authenticode signature against the publisher built into the app; on
 * macOS Squirrel.Mac checks the app's code signature); a download that does not match is deleted and the check fails
 * with ERR_CHECKSUM_MISMATCH. A verified download installs when the app quits (autoInstallOnAppQuit).
 */
export function electronUpdaterSource(options: ElectronUpdaterSourceOptions): UpdateSource & { installAndRelaunch(): boolean } {
  const { log } = options;
  let builtIn: BuiltInFeed | null = null;
  let configProblem: string | null = null;
  try {
    // A development build has no resources folder of its own (nor updates).
    builtIn = options.isPackaged ? readBuiltInFeed(join(options.resourcesPath, 'app-update.yml')) : null;
  } catch (error) {
    configProblem = error instanceof Error ? error.message : String(error);
    log(`updates: ${configProblem}`);
  }
  let made: AppUpdater | null = null;
  const updater = (): AppUpdater => {
    if (made) return made;
    made = options.updater();
    made.logger = {
      info: (message?: unknown) => log(`updates: ${String(message)}`),
      warn: (message?: unknown) => log(`updates: ${String(message)}`),
      error: (message?: unknown) => log(`updates: ${String(message)}`),
    };
    // The download is started by check() itself, so that its failure is this check's failure (never an unhandled rejection).
    made.autoDownload = false;
    made.autoInstallOnAppQuit = true;
    return made;
  };

  const unavailableReason = (): string | null => {
    if (!options.isPackaged) return 'This is a development build of design-sync: installed releases update themselves.';
    if (configProblem !== null) return `This copy's update configuration cannot be used: ${configProblem}`;
    if (builtIn === null) return 'This copy of design-sync was built without an update feed: install new versions by hand.';
    if (options.platform === 'linux' && !options.env.APPIMAGE && !existsSync(join(options.resourcesPath, 'package-type'))) {
      return 'design-sync updates itself when run as its AppImage or installed from its .deb; update this copy the way it was installed.';
    }
    return null;
  };

  return {
    feed: builtIn?.feed ?? null,
    channel: builtIn?.channel ?? 'latest',
    unavailableReason,
    async check(found, progress): Promise<CheckOutcome> {
      const reason = unavailableReason();
      if (reason !== null) return { outcome: 'unavailable', reason };
      const result = await updater().checkForUpdates();
      if (result === null) return { outcome: 'unavailable', reason: 'This copy of design-sync cannot update itself here; update it the way it was installed.' };
      if (!result.isUpdateAvailable) return { outcome: 'up-to-date' };
      const version = result.updateInfo.version;
      found(version);
      const onProgress = (info: ProgressInfo) => progress(info.percent);
      updater().on('download-progress', onProgress);
      try {
        await updater().downloadUpdate();
      } finally {
        updater().off('download-progress', onProgress);
      }
      return { outcome: 'downloaded', version };
    },
    /**
     * Installs the verified download and starts the new version; the updater quits the app once the installer runs.
     * False when it could not (the reason is logged): the app then quits by itself, and the update waits for the next quit.
     */
    installAndRelaunch(): boolean {
      if (made === null) return false;
      let failed = false;
      const onError = (error: Error) => {
        failed = true;
        log(`updates: the update could not be installed (${error.message})`);
      };
      made.once('error', onError);
      try {
        made.quitAndInstall(true, true);
      } catch (error) {
        onError(error instanceof Error ? error : new Error(String(error)));
      } finally {
        made.off('error', onError);
      }
      return !failed;
    },
  };
}
