/**
 * The update controller wired to Electron and electron-updater, for main.ts: the platform's updater (electron-updater's
 * `autoUpdater`: NSIS on Windows, Squirrel.Mac on macOS, the AppImage or .deb on Linux) with the feed built into the
 * app, real timers, the computer waking up, and the quit that installs.
 */
import { app, Notification, powerMonitor } from 'electron';
import electronUpdater from 'electron-updater';
import type { SyncView } from '../../../shared';
import type { UpdatesView } from '../../../shared/updates/updates-view';
import { electronUpdaterSource } from './electron-updater-source';
import { UpdateController } from './update-controller';
import { updateNotice } from './update-notice';
import type { Words } from '../../../shared/i18n/create-intl';

export interface AppUpdates {
  view(): UpdatesView;
  /** Plans the first check (shortly after start) and the daily ones. */
  start(): void;
  checkNow(): void;
  /** "Restart now": quits the usual way (uploads finish or stop safely), then installs and starts the new version. */
  restartNow(): void;
  syncChanged(sync: SyncView): void;
  /** Once the engine has closed on quit: installs and relaunches when "Restart now" asked for it, else `quit()`. */
  afterEngineClosed(quit: () => void): void;
  dispose(): void;
}

export interface AppUpdatesOptions {
  log(line: string): void;
  /** Told every change of the state (the tray, the menus, the window). */
  changed(view: UpdatesView): void;
  /** Opens the window at a route: a click on the notification that an update is ready opens Settings. */
  open?(route: string): void;
  /** The words of the moment for its notification (the language setting); English when not given. */
  words?: () => Words;
}

export function createAppUpdates({ log, changed, open, words }: AppUpdatesOptions): AppUpdates {
  const source = electronUpdaterSource({
    updater: () => electronUpdater.autoUpdater, isPackaged: app.isPackaged, platform: process.platform, resourcesPath: process.resourcesPath, env: process.env, log,
  });
  let restartRequested = false;
  let previous: UpdatesView | null = null;
  const controller = new UpdateController({
    source,
    currentVersion: app.getVersion(),
    now: () => new Date(),
    schedule(callback, ms) {
      const timer = setTimeout(callback, ms);
      return () => clearTimeout(timer);
    },
    restart() {
      restartRequested = true;
      app.quit();
    },
    log,
    changed(view) {
      // Once a verified update is ready, a native notification says so (the tray, menus and Settings say the rest).
      const notice = updateNotice(previous, view, words?.());
      previous = view;
      if (notice && Notification.isSupported()) {
        const native = new Notification({ title: notice.title, body: notice.body });
        native.on('click', () => open?.(notice.route));
        native.show();
      }
      changed(view);
    },
  });
  const onResume = () => controller.resumed();
  // A copy that cannot update itself (a development build) listens to nothing.
  const listening = controller.view().state !== 'unavailable';
  if (listening) powerMonitor.on('resume', onResume);
  return {
    view: () => controller.view(),
    start: () => controller.start(),
    checkNow: () => void controller.checkNow(),
    restartNow: () => controller.restartNow(),
    syncChanged: (sync) => controller.syncChanged(sync),
    afterEngineClosed(quit) {
      if (!restartRequested) {
        quit();
        return;
      }
      // The updater quits the app itself once the installer runs; when it cannot install, the app quits anyway.
      if (!source.installAndRelaunch()) quit();
    },
    dispose() {
      if (listening) powerMonitor.off('resume', onResume);
      controller.dispose();
    },
  };
}
