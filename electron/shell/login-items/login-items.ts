import { XdgAutostart, type AutostartLaunch } from '../../engine/settings/xdg-autostart';
import type { StartAtLoginHost } from '../../engine/settings/start-at-login';

/** The part of Electron's `app` that login items use (macOS and Windows). */
export interface LoginItemApp {
  setLoginItemSettings(settings: { openAtLogin: boolean; openAsHidden?: boolean; path?: string; args?: string[] }): void;
  getLoginItemSettings(options?: { path?: string; args?: string[] }): { openAtLogin: boolean; wasOpenedAtLogin?: boolean; wasOpenedAsHidden?: boolean };
}

/** The app's login item, wherever the system keeps it; `refresh()` puts right an entry that no longer starts this app. */
export interface LoginItems extends StartAtLoginHost {
  /** Where it is kept, in words (the autostart file's path, or the system's login items). */
  readonly where: string;
  /** Writes the login item again when it is on but stale (Linux: an AppImage moved); says whether it did. */
  refresh(): boolean;
  /** Whether this start of the app was by the login item (then it starts in the tray only). */
  startedAtLogin(): boolean;
}

/**
 * macOS and Windows: Electron's login items. macOS starts the app hidden (`openAsHidden`, and macOS 13's own login
 * items are told apart by `wasOpenedAtLogin`); Windows starts the executable with `--hidden` (its Run key holds the
 * arguments, so they are given when asking too).
 */
export function electronLoginItems(app: LoginItemApp, platform: NodeJS.Platform, launch: AutostartLaunch): LoginItems {
  const windows = platform === 'win32';
  const identity = windows ? { path: launch.executable, args: [...launch.args] } : {};
  return {
    where: windows ? 'the Windows startup apps' : 'the macOS login items',
    isOn: () => app.getLoginItemSettings(identity).openAtLogin,
    set(on) {
      app.setLoginItemSettings({ openAtLogin: on, ...(windows ? identity : { openAsHidden: true }) });
      return Promise.resolve(app.getLoginItemSettings(identity).openAtLogin);
    },
    refresh: () => false,
    startedAtLogin() {
      if (windows) return false;
      const read = app.getLoginItemSettings();
      return read.wasOpenedAtLogin === true || read.wasOpenedAsHidden === true;
    },
  };
}

/** Linux: the XDG autostart entry, written and removed by the app. */
export function xdgLoginItems(launch: AutostartLaunch, env: NodeJS.ProcessEnv = process.env, home?: string): LoginItems {
  const autostart = home === undefined ? new XdgAutostart(launch, env) : new XdgAutostart(launch, env, home);
  return {
    where: autostart.path,
    isOn: () => autostart.isOn(),
    set: (on) => Promise.resolve().then(() => autostart.set(on)),
    refresh: () => autostart.refresh(),
    // The entry's own argument says it (--hidden is read by shell-arguments.ts).
    startedAtLogin: () => false,
  };
}

/** The login items of this platform. */
export function loginItemsFor(platform: NodeJS.Platform, app: LoginItemApp, launch: AutostartLaunch, env: NodeJS.ProcessEnv = process.env): LoginItems {
  return platform === 'darwin' || platform === 'win32' ? electronLoginItems(app, platform, launch) : xdgLoginItems(launch, env);
}

/**
 * What the profile should record of the system's login item, read at start (the person may have removed it in the
 * system's settings, or turned it on in another profile): the change to make, or null when the record holds. A
 * profile that never set it is left so unless the system starts it.
 */
export function loginItemRecord(recorded: boolean | undefined, on: boolean): { startAtLogin: boolean } | null {
  if (recorded === undefined) return on ? { startAtLogin: true } : null;
  return recorded === on ? null : { startAtLogin: on };
}
