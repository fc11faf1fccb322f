import type { AutostartLaunch } from '../../engine/settings/xdg-autostart';

/** The argument that starts the app in the tray only, with no window (login items, the autostart entry). */
export const HIDDEN_ARGUMENT = '--hidden';

export interface LaunchFacts {
  /** process.execPath: the app's own executable when packaged, Electron's when run from a checkout. */
  execPath: string;
  isPackaged: boolean;
  /** app.getAppPath(): the checkout, which Electron is given as its first argument when not packaged. */
  appPath: string;
  /** The AppImage's own path when the app runs from one (its mounted execPath changes at every start). */
  appImage: string | undefined;
  /** The profile the app was started with (`--profile`), or null for the default one. */
  profileArgument: string | null;
  /** The profile folder it opened (the default one resolved). */
  profileDir: string;
}

/**
 * How the system should start this app at login: hidden, with the profile it runs now. An AppImage is started by its
 * file ($APPIMAGE), not by the executable inside its mount, which is gone once it ends; a .deb's or a checkout's by
 * its executable (with the checkout's path for Electron).
 */
export function loginLaunch(facts: LaunchFacts): AutostartLaunch {
  const executable = facts.isPackaged && facts.appImage ? facts.appImage : facts.execPath;
  return {
    executable,
    args: [
      ...(facts.isPackaged ? [] : [facts.appPath]),
      HIDDEN_ARGUMENT,
      ...(facts.profileArgument !== null ? ['--profile', facts.profileArgument] : []),
    ],
    profileDir: facts.profileDir,
  };
}
