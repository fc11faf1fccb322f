import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import type { ProfilePaths } from '../engine/profile/profile';
import { fileSettingsStore } from '../engine/settings/settings-store';
import { autostartEntryPath, execProgram, readAutostartEntry } from '../engine/settings/xdg-autostart';

/** Where the diagnostics look: this system, unless a test says otherwise. */
export interface LoginSystem {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
}

const THIS_SYSTEM = (): LoginSystem => ({ platform: process.platform, env: process.env, home: homedir() });

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `status --diagnostics`' lines on starting at login. Linux: what the desktop app's autostart entry says (it is a
 * file: whether it is there and turned on, what it starts, with which profile, and whether that program is still
 * there). macOS and Windows keep login items where only the app can read them: what the desktop app last saw for this
 * profile (as it set it, or as it found it at its start).
 */
export function startAtLoginDiagnostics(profile: ProfilePaths, system: LoginSystem = THIS_SYSTEM()): string[] {
  if (system.platform === 'darwin' || system.platform === 'win32') {
    let recorded: boolean | undefined;
    try {
      recorded = fileSettingsStore(profile.settingsFile).read().startAtLogin;
    } catch (error) {
      return [`Start at login: unknown (${messageOf(error)})`];
    }
    const where = system.platform === 'darwin' ? 'the macOS login items' : 'the Windows startup apps';
    if (recorded === undefined) return [`Start at login: never set in this profile (the desktop app keeps it in ${where}; see its Settings)`];
    return [`Start at login: ${recorded ? 'on' : 'off'}, as the desktop app last saw it for this profile (kept in ${where})`];
  }
  const path = autostartEntryPath(system.env, system.home);
  let state;
  try {
    state = readAutostartEntry(path, null);
  } catch (error) {
    return [`Start at login: unknown (${path} cannot be read: ${messageOf(error)})`];
  }
  switch (state.kind) {
    case 'absent':
      return [`Start at login: off (no ${path})`];
    case 'disabled':
      return [`Start at login: off (${path} is turned off in the desktop's settings)`];
    case 'other-profile':
    case 'on': {
      const program = state.exec ? execProgram(state.exec) : null;
      const which = state.profileDir === null ? '' : state.profileDir === profile.root ? ', this profile' : `, the profile ${state.profileDir}`;
      return [
        `Start at login: on (${path}: ${state.exec ?? 'no Exec line'}${which})`,
        ...(program !== null && program.startsWith('/') && !existsSync(program)
          ? [`  ${program} is not there any more (moved?): open design-sync from where it is now and the entry is written again`]
          : []),
      ];
    }
  }
}
