import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import type { ProfilePaths } from '../engine/profile/profile';
import { fileSettingsStore } from '../engine/settings/settings-store';
import { autostartEntryPath, execProgram, readAutostartEntry } from '../engine/settings/xdg-autostart';
import { ENGLISH_INTL, type Words } from '../../shared/i18n/create-intl';

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
export function startAtLoginDiagnostics(profile: ProfilePaths, system: LoginSystem = THIS_SYSTEM(), words: Words = ENGLISH_INTL): string[] {
  if (system.platform === 'darwin' || system.platform === 'win32') {
    let recorded: boolean | undefined;
    try {
      recorded = fileSettingsStore(profile.settingsFile).read().startAtLogin;
    } catch (error) {
      return [words.formatMessage({ id: 'cli.diagnostics.startAtLogin.unknown' }, { problem: messageOf(error) })];
    }
    const where = system.platform === 'darwin' ? 'macos' : 'windows';
    if (recorded === undefined) return [words.formatMessage({ id: 'cli.diagnostics.startAtLogin.neverSet' }, { where })];
    return [words.formatMessage({ id: 'cli.diagnostics.startAtLogin.lastSeen' }, { state: recorded ? 'on' : 'off', where })];
  }
  const path = autostartEntryPath(system.env, system.home);
  let state;
  try {
    state = readAutostartEntry(path, null);
  } catch (error) {
    return [words.formatMessage({ id: 'cli.diagnostics.startAtLogin.unreadable' }, { path, problem: messageOf(error) })];
  }
  switch (state.kind) {
    case 'absent':
      return [words.formatMessage({ id: 'cli.diagnostics.startAtLogin.noEntry' }, { path })];
    case 'disabled':
      return [words.formatMessage({ id: 'cli.diagnostics.startAtLogin.disabled' }, { path })];
    case 'other-profile':
    case 'on': {
      const program = state.exec ? execProgram(state.exec) : null;
      const exec = state.exec ?? words.formatMessage({ id: 'cli.diagnostics.startAtLogin.noExec' });
      const profileDir = state.profileDir ?? '';
      const which = state.profileDir === null ? 'none' : state.profileDir === profile.root ? 'this' : 'other';
      return [
        words.formatMessage({ id: 'cli.diagnostics.startAtLogin.on' }, { path, exec, which, profile: profileDir }),
        ...(program !== null && program.startsWith('/') && !existsSync(program)
          ? [`  ${words.formatMessage({ id: 'cli.diagnostics.startAtLogin.programGone' }, { program })}`]
          : []),
      ];
    }
  }
}
