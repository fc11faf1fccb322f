import type { SettingsStore } from './settings-store';

/**
 * Whether the desktop app starts (hidden, in the tray) when the person logs in. Only a host that is the desktop app
 * can register itself with the system (Electron's login items on macOS and Windows, an XDG autostart entry on Linux);
 * it gives the engine this, and the engine's settings answer and change it through it. `design-sync ui` and the CLI
 * give none: a page in a browser cannot start itself at login.
 */
export interface StartAtLoginHost {
  /** Whether the system starts the app at login now (as the host last read or set it). */
  isOn(): boolean;
  /** Registers or removes the app's login item; resolves with the state the system then has, or rejects saying why. */
  set(on: boolean): Promise<boolean>;
}

/** Why a host without a StartAtLoginHost cannot offer the setting, in words the window and the CLI show. */
export const START_AT_LOGIN_DESKTOP_ONLY =
  'Starting at login is a setting of the design-sync desktop app. This window runs in your browser (design-sync ui), '
  + 'which cannot start itself when you log in: turn it on in the desktop app, or run `design-sync sync --watch` from your session\'s startup programs.';

/** Starting at login was asked of a host that cannot register the app (the CLI, `design-sync ui`). */
export class StartAtLoginUnavailableError extends Error {
  constructor() {
    super(START_AT_LOGIN_DESKTOP_ONLY);
    this.name = 'StartAtLoginUnavailableError';
  }
}

/**
 * Turns starting at login on or off through the host, then records it in the profile (what the system now does, and
 * that the one-time question is answered). Resolves with the system's state; a host that could not rejects saying why,
 * and nothing is recorded.
 */
export async function changeStartAtLogin(host: StartAtLoginHost | null, settings: SettingsStore, on: boolean): Promise<boolean> {
  if (!host) throw new StartAtLoginUnavailableError();
  const now = await host.set(on);
  settings.update({ startAtLogin: now, startAtLoginAsked: true });
  return now;
}
