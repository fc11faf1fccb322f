/** What the app takes on its command line (after Electron's own arguments). */
export interface ShellArguments {
  /** The profile folder (default: the app's user-data folder's `profile`). */
  profile: string | null;
  /** A service address to use and remember. */
  service: string | null;
  /** `--hidden`: started at login, in the tray only (no window until the person opens it). */
  hidden: boolean;
}

/**
 * Reads `--profile <dir>`, `--service <url>` (also `--name=value`) and `--hidden`, and ignores the rest: Electron and Chromium add
 * switches of their own, and a second instance's arguments arrive here too.
 */
export function parseShellArguments(argv: readonly string[]): ShellArguments {
  const result: ShellArguments = { profile: null, service: null, hidden: false };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === '--hidden') result.hidden = true;
    for (const name of ['profile', 'service'] as const) {
      if (arg === `--${name}` && index + 1 < argv.length && !argv[index + 1]!.startsWith('--')) {
        result[name] = argv[index + 1]!;
        index += 1;
      } else if (arg.startsWith(`--${name}=`)) {
        result[name] = arg.slice(name.length + 3);
      }
    }
  }
  return result;
}
