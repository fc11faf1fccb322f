import { isAbsolute, join, resolve } from 'node:path';

/** What `npm start -- …` / `npm run demo -- …` were given. */
export interface LaunchArguments {
  /** `--demo`: the local service with sample designs first, and a profile of its own pointed at it. */
  demo: boolean;
  /** `--profile <dir>` (absolute), or the demo's profile, or null (the app's default). */
  profile: string | null;
  /** `--service <url>`, or the demo service's address, or null (the profile's own). */
  service: string | null;
  /** What was not understood, as given (said in one line; the app starts without it). */
  unknown: string[];
  /** The options for the app, Electron's or `design-sync ui`: `--profile <dir>` and `--service <url>` when set. */
  appArgs: string[];
}

export const DEMO_SERVICE = 'http://127.0.0.1:4010';

/**
 * Reads the launcher's arguments (`--name value` and `--name=value`): `--profile` and `--service` go through to the
 * app; `--demo` sets both unless given. A relative profile is taken from `cwd` (where the person typed the command).
 */
export function launchArguments(argv: readonly string[], options: { root: string; cwd: string }): LaunchArguments {
  let demo = false;
  const given: { profile: string | null; service: string | null } = { profile: null, service: null };
  const unknown: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === '--demo') {
      demo = true;
      continue;
    }
    const name = (['profile', 'service'] as const).find((option) => arg === `--${option}` || arg.startsWith(`--${option}=`));
    if (!name) {
      unknown.push(arg);
      continue;
    }
    if (arg.includes('=')) {
      given[name] = arg.slice(arg.indexOf('=') + 1);
    } else if (index + 1 < argv.length && !argv[index + 1]!.startsWith('--')) {
      given[name] = argv[index + 1]!;
      index += 1;
    } else {
      unknown.push(arg);
    }
  }
  const profile = given.profile ? (isAbsolute(given.profile) ? given.profile : resolve(options.cwd, given.profile)) : demo ? join(options.root, '.data', 'demo-profile') : null;
  const service = given.service ?? (demo ? DEMO_SERVICE : null);
  return { demo, profile, service, unknown, appArgs: [...(profile ? ['--profile', profile] : []), ...(service ? ['--service', service] : [])] };
}
