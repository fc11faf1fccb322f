import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * The desktop app's login item on Linux: an XDG autostart entry (`$XDG_CONFIG_HOME/autostart/design-sync.desktop`,
 * Desktop Entry Specification 1.5 and the Desktop Application Autostart Specification), written and removed by the
 * app. Plain Node, so that the Electron shell writes it and `design-sync status --diagnostics` reads it.
 */

export const AUTOSTART_FILE_NAME = 'design-sync.desktop';

/** Our key in the entry: the profile folder the entry starts the app with (one entry per person, one profile in it). */
const PROFILE_KEY = 'X-design-sync-Profile';

/** How the app is started at login: its executable, its arguments (`--hidden`, a profile), the profile it opens. */
export interface AutostartLaunch {
  executable: string;
  args: readonly string[];
  /** The profile folder the app opens when started this way. */
  profileDir: string;
}

/** The autostart folder: `$XDG_CONFIG_HOME/autostart`, or `~/.config/autostart` (a relative XDG_CONFIG_HOME is ignored, as the spec says). */
export function autostartDirectory(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const configHome = env.XDG_CONFIG_HOME;
  return join(configHome && isAbsolute(configHome) ? configHome : join(home, '.config'), 'autostart');
}

export function autostartEntryPath(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  return join(autostartDirectory(env, home), AUTOSTART_FILE_NAME);
}

/** An argument that cannot be written in an Exec key at all (the spec has no way to quote a control character). */
export class UnwritableLaunchError extends Error {
  constructor(argument: string) {
    super(`design-sync cannot start at login from ${JSON.stringify(argument)}: a desktop entry cannot hold a line break or control character in its command. Move the app to a folder whose path has none.`);
    this.name = 'UnwritableLaunchError';
  }
}

/** Characters that make an Exec argument need double quotes (Desktop Entry Specification, "The Exec key"). */
const RESERVED = /[\s"'\\><~|&;$*?#()`]/;

/**
 * One argument of an Exec key: quoted when it holds a reserved character (inside the quotes `"`, `` ` ``, `$` and `\`
 * take a backslash), `%` doubled (it starts a field code), then the string escape of the whole value (`\` → `\\`).
 */
export function execArgument(argument: string): string {
  if (/[\u0000-\u001f\u007f]/.test(argument)) throw new UnwritableLaunchError(argument);
  const percent = argument.replaceAll('%', '%%');
  const quoted = argument === '' || RESERVED.test(percent) ? `"${percent.replace(/["`$\\]/g, (c) => `\\${c}`)}"` : percent;
  return quoted.replaceAll('\\', '\\\\');
}

export function execValue(launch: AutostartLaunch): string {
  return [launch.executable, ...launch.args].map(execArgument).join(' ');
}

/** A value of another key (Name, our profile key): the Desktop Entry string escapes. */
function stringValue(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('\t', '\\t').replaceAll('\r', '\\r');
}

/** The entry's text: the app started hidden, in the tray, with the profile it was turned on in. */
export function autostartEntryText(launch: AutostartLaunch): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.5',
    'Name=design-sync',
    'Comment=Keeps your sync folder and your designs in step (starts in the tray)',
    `Exec=${execValue(launch)}`,
    'Icon=design-sync',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    `${PROFILE_KEY}=${stringValue(launch.profileDir)}`,
    '',
  ].join('\n');
}

/** What the autostart folder holds for design-sync. */
export type AutostartEntryState =
  | { kind: 'absent' }
  /** The entry is there but turned off (`Hidden=true` or `X-GNOME-Autostart-enabled=false`: the desktop's own settings). */
  | { kind: 'disabled'; exec: string | null }
  /** Starts the app with another profile than this one. */
  | { kind: 'other-profile'; profileDir: string | null; exec: string | null }
  /**
   * Starts the app (with this profile, when a launch was given to compare with); `current` when it is exactly what
   * this app would write (else it moved, or changed); `profileDir` the profile it starts, when the entry names one.
   */
  | { kind: 'on'; current: boolean; exec: string | null; profileDir: string | null };

function unescapeString(value: string): string {
  return value.replace(/\\([\\ntsr])/g, (_, c: string) => ({ '\\': '\\', n: '\n', t: '\t', s: ' ', r: '\r' })[c] ?? c);
}

/** The keys of the entry's `[Desktop Entry]` group (other groups, comments and blank lines left out). */
export function desktopEntryKeys(text: string): Map<string, string> {
  const keys = new Map<string, string>();
  let inMain = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      inMain = line === '[Desktop Entry]';
      continue;
    }
    const equals = line.indexOf('=');
    if (inMain && equals > 0 && !keys.has(line.slice(0, equals).trim())) keys.set(line.slice(0, equals).trim(), line.slice(equals + 1).trim());
  }
  return keys;
}

/**
 * The program an Exec value starts (its first argument, unquoted as the Desktop Entry Specification says), or null
 * when there is none.
 */
export function execProgram(exec: string): string | null {
  const value = exec.replaceAll('\\\\', '\\').trim();
  let program = '';
  if (value.startsWith('"')) {
    for (let index = 1; index < value.length; index += 1) {
      const c = value[index]!;
      if (c === '\\' && index + 1 < value.length) program += value[(index += 1)]!;
      else if (c === '"') return program.replaceAll('%%', '%');
      else program += c;
    }
    return null;
  }
  program = value.split(/\s/)[0] ?? '';
  return program === '' ? null : program.replaceAll('%%', '%');
}

/** Reads the entry at `path`; `launch` is how this app would start this profile (null: only whether it is on). */
export function readAutostartEntry(path: string, launch: AutostartLaunch | null): AutostartEntryState {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    // ENOTDIR: a file stands where the autostart folder would be, so there is no entry in it.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'absent' };
    throw error;
  }
  const keys = desktopEntryKeys(text);
  const exec = keys.get('Exec') ?? null;
  if (keys.get('Hidden') === 'true' || keys.get('X-GNOME-Autostart-enabled') === 'false') return { kind: 'disabled', exec };
  const profile = keys.has(PROFILE_KEY) ? unescapeString(keys.get(PROFILE_KEY)!) : null;
  if (launch && profile !== launch.profileDir) return { kind: 'other-profile', profileDir: profile, exec };
  let current = false;
  try {
    current = launch !== null && text === autostartEntryText(launch);
  } catch (error) {
    if (!(error instanceof UnwritableLaunchError)) throw error;
  }
  return { kind: 'on', current, exec, profileDir: profile };
}

/**
 * The app's login item on Linux. `enable()` writes the entry (atomically, replacing one another profile wrote: a person
 * has one design-sync at login), `disable()` removes it when it starts this profile, `refresh()` writes it again when
 * it starts this profile but no longer as this app would (an AppImage moved or replaced).
 */
export class XdgAutostart {
  readonly path: string;

  constructor(private readonly launch: AutostartLaunch, env: NodeJS.ProcessEnv = process.env, home: string = homedir()) {
    this.path = autostartEntryPath(env, home);
  }

  state(): AutostartEntryState {
    return readAutostartEntry(this.path, this.launch);
  }

  isOn(): boolean {
    return this.state().kind === 'on';
  }

  enable(): void {
    const text = autostartEntryText(this.launch);
    mkdirSync(join(this.path, '..'), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, text, { mode: 0o644 });
    renameSync(temporary, this.path);
  }

  disable(): void {
    const state = this.state();
    // Another profile's entry stays (turning it off here does not change what that profile asked for); a disabled
    // one is removed, so that turning it on again writes it whole.
    if (state.kind === 'on' || state.kind === 'disabled') rmSync(this.path, { force: true });
  }

  set(on: boolean): boolean {
    if (on) this.enable();
    else this.disable();
    return this.isOn();
  }

  /** Writes the entry again when it is on for this profile but stale; says whether it did. */
  refresh(): boolean {
    const state = this.state();
    if (state.kind !== 'on' || state.current) return false;
    this.enable();
    return true;
  }
}
